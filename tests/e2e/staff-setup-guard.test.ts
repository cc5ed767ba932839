/**
 * The account's pending set-up (issue 24, finding 2): the first account's forced password change and
 * STAFF_REQUIRE_2FA hold on every staff route, not only the pages. Until the account has done what is
 * asked, the staff CSV endpoints and the staff actions answer 403 with a Spanish JSON error (before
 * reading the input), the pages lead to Configuración, and signing out still works.
 */
import * as OTPAuth from 'otpauth';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/routes.ts';
import { SET_UP_PATHS } from '../../src/server/auth/guard.ts';
import { postForm, postJson, send } from '../support/http.ts';
import { routesUnder, STAFF_ACTIONS } from '../support/routes.ts';
import { generatedFirstPassword, runAdminScript } from '../support/server.ts';
import { ALAMOS_FORM } from '../support/factories.ts';
import { useSite } from '../support/site.ts';

const { server } = useSite({
  browser: false,
  keepGeneratedPassword: true,
  env: { STAFF_REQUIRE_2FA: 'true', LOG_LEVEL: 'warn' },
});

const ADMINS = 'admin@verticeconsultores.com.do,soporte@verticeconsultores.com.do';
const CHOSEN = 'mamey-lámpara-cordillera-58';
/** The first account, whose generated password the first test replaces with CHOSEN. */
let firstEmail = '';
const STAFF_ENDPOINTS = routesUnder('api/staff').filter((path) => path !== ROUTES.adminLogout);

async function signIn(email: string, password: string): Promise<string> {
  const response = await postForm(server.url, ROUTES.adminLogin, { email, password });
  expect(response.status).toBe(303);
  expect(response.cookies).toContain('session_token');
  return response.cookies;
}

/** Every staff endpoint and action answers 403 in Spanish JSON whose message contains `words`. */
async function expectRefusedEverywhere(cookie: string, words: RegExp): Promise<void> {
  expect(STAFF_ENDPOINTS.length).toBeGreaterThanOrEqual(4);
  for (const path of STAFF_ENDPOINTS) {
    const response = await send(`${server.url}${path}`, { headers: { cookie } });
    expect(response.status, path).toBe(403);
    expect(response.headers['content-type'], path).toMatch(/application\/json/);
    expect(response.headers['cache-control'], path).toBe('no-store');
    const body = JSON.parse(response.body) as { code: string; message: string };
    expect(body.message, path).toMatch(words);
  }
  for (const name of STAFF_ACTIONS) {
    // An empty call: refused for the account before its input is read (403, never 400).
    const response = await postJson(server.url, `/_actions/${name}`, {}, { headers: { cookie } });
    expect(response.status, name).toBe(403);
    const body = JSON.parse(response.body) as { type: string; code: string; message: string };
    expect(body, name).toMatchObject({ type: 'AstroActionError', code: 'FORBIDDEN', status: 403 });
    expect(body.message, name).toMatch(words);
  }
  // The pages still lead to Configuración, which stays open.
  const page = await send(`${server.url}${ROUTES.adminIncidents}`, { headers: { cookie } });
  expect(page.status).toBe(303);
  expect(page.headers.location).toMatch(/^\/admin\/configuracion/);
  expect((await send(`${server.url}${ROUTES.adminSettings}`, { headers: { cookie } })).status).toBe(200);
}

describe('an account with its set-up pending', () => {
  it('is refused on every staff endpoint and action until it changes the generated password, then until it turns on two-step verification; signing out still works', async () => {
    const { email, password } = generatedFirstPassword(server)!;
    firstEmail = email;
    const first = await signIn(email, password);
    await expectRefusedEverywhere(first, /contraseña/i);

    // A new password (as an operator resets it): the mark is gone, STAFF_REQUIRE_2FA still holds.
    expect(runAdminScript(server, ['create', '--email', email], ADMINS, `${CHOSEN}\n`)).toContain(email);
    const second = await signIn(email, CHOSEN);
    await expectRefusedEverywhere(second, /verificación en dos pasos/i);

    // Signing out is never refused, and ends the session.
    const out = await send(`${server.url}${ROUTES.adminLogout}`, {
      method: 'POST',
      headers: { cookie: second, origin: server.url },
    });
    expect(out.status).toBe(303);
    const after = await send(`${server.url}${ROUTES.staffIncidentsCsv}`, { headers: { cookie: second } });
    expect(after.status).toBe(401);
  });

  it("finishes its set-up through Configuración's forms, and posts no other action from there", async () => {
    // After the first test: the password is CHOSEN, and STAFF_REQUIRE_2FA still asks for two-step verification.
    let cookie = await signIn(firstEmail, CHOSEN);
    const settingsForm = (action: string, fields: Record<string, string>) =>
      postForm(server.url, `${ROUTES.adminSettings}?_action=${action}`, fields, { headers: { cookie } });

    // Another staff action posted to Configuración's own path is not run: back to the set-up, nothing stored.
    const other = await settingsForm('clients.create', { ...ALAMOS_FORM });
    expect(other.status).toBe(303);
    expect(other.headers.location).toBe(SET_UP_PATHS['two-step']);
    const clients = await send(`${server.url}${ROUTES.staffClientsCsv}`, { headers: { cookie } });
    expect(clients.status).toBe(403);

    // The two-step forms run: the QR code's secret, then a current code turns it on.
    const started = await settingsForm('settings.startTwoStep', { actual: CHOSEN });
    expect(started.status, started.body).toBe(200);
    const secret = /data-secreto[^>]*>([^<]+)</.exec(started.body)?.[1]?.replace(/\s/g, '');
    expect(secret).toBeTruthy();
    const code = new OTPAuth.TOTP({
      secret: OTPAuth.Secret.fromBase32(secret!),
      digits: 6,
      period: 30,
    }).generate();
    const confirmed = await settingsForm('settings.confirmTwoStep', { codigo: code });
    expect(confirmed.status, confirmed.body).toBe(200);
    if (confirmed.cookies) cookie = confirmed.cookies;

    // Set up: the staff area opens, and the client just refused was never created.
    const csv = await send(`${server.url}${ROUTES.staffClientsCsv}`, { headers: { cookie } });
    expect(csv.status).toBe(200);
    expect(csv.body).not.toContain(ALAMOS_FORM.email);
  });
});
