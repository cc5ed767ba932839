/**
 * The signed start time (`startedAt`) every public form submission carries, for tests that post forms
 * over HTTP: signed with the server's AUTH_SECRET by the site's own code, as if the visitor had opened
 * the form `ageMs` ago; or asked of the server as an island asks for it.
 */
import { signStamp } from '../../src/server/http/form-stamp.ts';
import { ROUTES } from '../../src/routes.ts';
import { TEST_AUTH_SECRET } from './server.ts';

/** A person takes longer than the 1.5 s the server asks for. */
export const HUMAN_DELAY_MS = 5000;

/** A valid start time `ageMs` old, signed with `secret` (the test servers' AUTH_SECRET unless given). */
export function formStamp(options: { secret?: string; ageMs?: number } = {}): string {
  return signStamp(options.secret ?? TEST_AUTH_SECRET, Date.now() - (options.ageMs ?? HUMAN_DELAY_MS));
}

/** A fresh start time from the server's endpoint, as an island gets it (too fresh to send at once). */
export async function fetchFormStamp(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}${ROUTES.formStamp}`);
  if (!response.ok) throw new Error(`${ROUTES.formStamp} respondió ${response.status}`);
  return ((await response.json()) as { startedAt: string }).startedAt;
}
