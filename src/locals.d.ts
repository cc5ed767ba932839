declare namespace App {
  interface Locals {
    /** The signed-in staff member, set by the middleware on staff pages. */
    staff?: import('./server/auth/index.ts').StaffMember;
    /**
     * A form posted to this page through an action (src/actions/form.ts, `runFormAction`): its name,
     * the text fields as typed (secret ones never) and the Spanish message of each field at fault.
     */
    form?: { action: string; values: Record<string, string>; errors: Record<string, string> };
    /** `Set-Cookie` lines an action asked to send with the answer (src/actions/form.ts, `sendCookies`). */
    setCookies?: string[];
    /** A form posted with files, read as it streamed in by the middleware (src/actions/uploads.ts). */
    uploads?: import('./actions/uploads.ts').Uploads;
    /** The good files of a refused form with files, kept for the next try (src/actions/uploads.ts). */
    keptFiles?: import('./domain/attachments.ts').KeptFile[];
    /**
     * Set by the middleware on a staff page it may keep rendered (src/server/page-cache/): the page
     * fills it in to say until when its HTML holds; left empty, the page is not kept.
     */
    pageCache?: import('./server/page-cache/index.ts').PageCacheHints;
  }
}
