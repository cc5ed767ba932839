import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, launchBrowser, watchConsole } from '../support/browser.ts';
import { startServer, type RunningServer } from '../support/server.ts';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('home page', () => {
  it('answers 200 in Spanish with no console errors', async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    const consoleWatch = watchConsole(page);
    const response = await page.goto(server.url);
    expect(response?.status()).toBe(200);
    expect(await page.getAttribute('html', 'lang')).toMatch(/^es\b/);
    await expect.poll(() => page.title()).toContain('Transformamos tu Negocio con Tecnología');
    consoleWatch.assertNone();
    await context.close();
  });
});
