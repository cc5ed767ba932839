/**
 * The signed start time (`startedAt`) every public form submission carries, for tests that post forms
 * over HTTP: signed with the server's AUTH_SECRET by the site's own code, as if the visitor had opened
 * the form `ageMs` ago; or asked of the server as an island asks for it.
 */
import type { Page } from 'playwright-core';
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

/** A stamp inside a page or a JSON answer: the time in ms (13 digits today) and the base64url HMAC. */
const STAMP_IN_TEXT = /\b(\d{13})\.([A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/g;

/**
 * Dates every stamp this page receives from the server (in a page's HTML, and from the stamp endpoint
 * the islands call) {@link HUMAN_DELAY_MS} earlier, signed again with `secret`: as if the visitor had
 * taken five seconds over the form, without the test sitting through them. Only the time moves: the
 * page, the island and the server's check run as they do for a person. The refusal of a faster
 * submission is proven with real waits in tests/e2e/form-stamp.test.ts.
 */
export async function ageFormStamps(page: Page, baseUrl: string, secret = TEST_AUTH_SECRET): Promise<void> {
  const origin = new URL(baseUrl).origin;
  await page.route(
    (url) => url.origin === origin,
    async (route) => {
      const request = route.request();
      const stampEndpoint = new URL(request.url()).pathname === ROUTES.formStamp;
      if (request.resourceType() !== 'document' && !stampEndpoint) {
        await route.fallback();
        return;
      }
      // A page sent back after a post (with the values and a fresh stamp) too; a redirect is passed on as is.
      const response = await route.fetch({ maxRedirects: 0 });
      const text = await response.text();
      const body = text.replace(STAMP_IN_TEXT, (_stamp, ms: string) =>
        signStamp(secret, Number(ms) - HUMAN_DELAY_MS),
      );
      // The body is sent decoded: its encoding and length headers would no longer be true.
      const headers = Object.fromEntries(
        Object.entries(response.headers()).filter(
          ([name]) => !['content-encoding', 'content-length'].includes(name),
        ),
      );
      await route.fulfill({ status: response.status(), headers, body });
    },
  );
}
