/**
 * Who is staff now: an account whose e-mail is on `ADMIN_EMAILS`. The desk asks it before mailing an
 * assignee (someone removed from the list no longer reads customers' words: the staff inbox does).
 */

/** Whether this account's e-mail is on the staff list (compared as at sign-in: trimmed, any case). */
export function isCurrentStaff(email: string, staffEmails: readonly string[]): boolean {
  return staffEmails.includes(email.trim().toLowerCase());
}
