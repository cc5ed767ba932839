/**
 * A staff member signed in by the real sign-in form's post, in a browser context of its own client
 * network (the test servers trust X-Forwarded-For) and options (`javaScriptEnabled: false` for the
 * plain-form checks). The page it returns has not loaded anything yet: go where the test starts.
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
  const context = await browser.newContext({ ...options, extraHTTPHeaders: { 'x-forwarded-for': network } });
  // The sign-in form's own post, sent by the context (its cookies are the context's): the form itself,
  // its messages and its limits are tested in admin.test.ts and two-step.test.ts. Skipping its page
  // and the staff home it leads to spares two page loads per signed-in context.
  const response = await context.request.post(`${baseUrl}/admin-login`, {
    form: { email, password },
    headers: { origin: baseUrl },
    maxRedirects: 0,
  });
  if (response.status() !== 303 || response.headers().location !== '/admin') {
    await context.close();
    throw new Error(
      `No se pudo iniciar sesión como ${email} (${response.status()} → ${response.headers().location ?? 'sin redirección'}).`,
    );
  }
  return { context, page: await context.newPage() };
}
