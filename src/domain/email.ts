/**
 * What passes for an e-mail address, in the forms (browser and server) and before the server
 * queues a mail to a free-text e-mail field.
 */

// Deliberately simple: something@something.tld, no spaces. The browser's type="email" does the rest.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** True when the value, trimmed, looks like an address. */
export function looksLikeEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}
