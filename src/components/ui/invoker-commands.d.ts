// Invoker Commands API (`<button commandfor="id" command="show-modal">`): opens dialogs with no
// JavaScript. React 19 renders the lowercase attributes as-is; only the types are missing.
import 'react';

declare module 'react' {
  // Merging with React's interface requires its type parameter, unused here.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ButtonHTMLAttributes<T> {
    commandfor?: string;
    command?:
      | 'show-modal'
      | 'close'
      | 'request-close'
      | 'show-popover'
      | 'hide-popover'
      | 'toggle-popover'
      | `--${string}`;
  }
}
