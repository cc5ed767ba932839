/**
 * A staff member signed in through the real sign-in form, in a browser context of its own client
 * network (the test servers trust X-Forwarded-For). With `javaScriptEnabled: false` in the options,
 * the session moves to a new context that has JavaScript off, for the plain-form checks.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { DESKTOP } from './browser.ts';

export interface StaffLogin {
  email: string;
  password: string;
  /** The client address the contexts present, e.g. '198.51.100.7'. */
  network: string;
}

export async function signInStaff(
  browser: Browser,
  baseUrl: string,
  { email, password, network }: StaffLogin,
  options: BrowserContextOptions = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const extraHTTPHeaders = { 'x-forwarded-for': network };
  const { javaScriptEnabled = true, ...rest } = options;
  const login = await browser.newContext({ ...rest, extraHTTPHeaders });
  const page = await login.newPage();
  await page.goto(`${baseUrl}/admin-login`);
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await page.waitForURL(`${baseUrl}/admin`);
  if (javaScriptEnabled) return { context: login, page };
  const storageState = await login.storageState();
  await login.close();
  const context = await browser.newContext({
    ...rest,
    javaScriptEnabled: false,
    storageState,
    extraHTTPHeaders,
  });
  return { context, page: await context.newPage() };
}
