// The Invoker Commands API (`<button commandfor="id" command="show-modal">`): opens and closes a
// <dialog> without JavaScript. React passes the lowercase attributes through; TypeScript needs them declared.
import 'react';

declare module 'react' {
  // T must match React's own declaration for the interfaces to merge.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ButtonHTMLAttributes<T> {
    commandfor?: string;
    command?: string;
  }
}
