declare namespace App {
  interface Locals {
    /** The signed-in staff member, set by the middleware on staff pages. */
    staff?: import('./server/auth/index.ts').StaffMember;
  }
}
