/**
 * The first staff account's generated password, kept out of the console and the journal: written to
 * `FIRST_PASSWORD_FILE` (mode 0600, readable by the service's user only) and removed once that account
 * chooses its own password, from the settings page or with `npm run admin -- create`.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Writes the account's e-mail and generated password, readable by this user only. */
export function writeFirstPassword(file: string, email: string, password: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `Cuenta: ${email}\nContraseña: ${password}\n`, { mode: 0o600 });
  // A file that already existed keeps its mode through writeFileSync: set it.
  chmodSync(file, 0o600);
}

/** The e-mail the file names, or null when there is no file. */
export function firstPasswordAccount(file: string): string | null {
  try {
    return /^Cuenta: (.+)$/m.exec(readFileSync(file, 'utf8'))?.[1]?.trim().toLowerCase() ?? null;
  } catch {
    return null;
  }
}

/** Removes the file when it names `email` (its password is no longer the account's); true when removed. */
export function removeFirstPasswordOf(file: string, email: string): boolean {
  if (firstPasswordAccount(file) !== email.trim().toLowerCase()) return false;
  rmSync(file, { force: true });
  return true;
}
