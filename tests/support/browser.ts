/**
 * The system Chromium driven by playwright-core (no downloaded browser builds).
 */
import AxeBuilder from '@axe-core/playwright';
import {
  chromium,
  type Browser,
  type BrowserContextOptions,
  type Download,
  type Locator,
  type Page,
} from 'playwright-core';
import { existsSync } from 'node:fs';
import { expect } from 'vitest';

/** The full Chromium: the benchmarks (Lighthouse) and screenshots use it. */
export const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** Debian's `chromium-headless-shell`: the same Blink and V8 as the full browser, without its browser UI. */
export const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';

/**
 * The Chromium the tests drive: `CHROME_PATH` when set; else the headless shell when installed (Playwright's
 * own choice for headless runs: it rendered the whole end-to-end suite with half the browser CPU of the full
 * browser's new headless mode, measured in decision 0013); else the full Chromium.
 */
export const TEST_CHROME_PATH =
  process.env.CHROME_PATH ?? (existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : '/usr/bin/chromium');

export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };

/** Headless Chromium as root on a closed network: no sandbox, no GPU, no background connections. */
export const CHROME_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** A Chromium of the caller's own. The test files share the run's one instead (see {@link connectBrowser}). */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: TEST_CHROME_PATH, headless: true, args: CHROME_ARGS });
}

/**
 * The run's Chromium, launched once by the end-to-end global setup (tests/support/e2e-global-setup.ts):
 * a connection to it, whose `close()` ends this connection's contexts and leaves the browser to the
 * other files. Outside such a run (no endpoint), a Chromium of its own.
 */
export function connectBrowser(endpoint: string | undefined): Promise<Browser> {
  return endpoint ? chromium.connect(endpoint) : launchBrowser();
}

/** The bytes of a download (read through the connection: a shared browser keeps the file on its side). */
export async function downloadedBytes(download: Download): Promise<Buffer<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Collects console errors and uncaught exceptions of a page; `assertNone()` fails the test when
 * any happened (any console.error during a test is a defect).
 */
export function watchConsole(page: Page) {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error')
      problems.push(`console.error: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return {
    problems,
    assertNone() {
      expect(problems).toEqual([]);
    },
  };
}

/**
 * expect.poll with room for a loaded 2-core CI machine running Chromium: hydration and rendering can
 * take seconds there, where expect.poll's own default gives up after one.
 */
export const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });

/** Whether the page fits its viewport's width (no sideways scrolling). */
export const noOverflow = (page: Page): Promise<boolean> =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

/** Runs axe on the page and fails with a readable list of violations. */
export async function expectNoAxeViolations(page: Page, exclude: string[] = []): Promise<void> {
  // Sections a visitor has not scrolled near are not rendered (content-visibility: auto), and axe cannot
  // measure the contrast of what has no layout: check the page as it is once every part has been seen.
  const renderAll = await page.addStyleTag({
    content: 'main > section, body > footer { content-visibility: visible !important; }',
  });
  // Contrast is measured on what is painted: let entrance animations (toast, reveal) finish first.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  // Only violations are asserted: the passes and the rules that do not apply are not carried back
  // node by node (a sixth of the cost of a check, on the test process's side). Legacy mode runs the
  // same rules in each frame without opening a blank page per check to merge the frames' results
  // (about a fifth of a check's CPU; the site has no cross-origin frame whose results it would blur).
  let builder = new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .options({ resultTypes: ['violations'] })
    .setLegacyMode(true);
  for (const selector of exclude) builder = builder.exclude(selector);
  const results = await builder.analyze();
  await renderAll.evaluate((element) => (element as Element).remove());
  const summary = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} -> ${violation.nodes
        .map((node) => node.target.join(' '))
        .slice(0, 5)
        .join(' | ')}`,
  );
  expect(summary).toEqual([]);
}

/**
 * Brings an element into the viewport and returns it. Sections below the first one of a page use
 * `content-visibility: auto`: until a visitor scrolls near them they are not laid out, so their
 * `innerText` is empty and they are not "visible" to Playwright, exactly as for the visitor.
 */
export async function inView<T extends Locator>(locator: T): Promise<T> {
  await scrollAndRender(locator.first());
  return locator;
}

/** Scrolls an element into view and waits two frames: the browser renders skipped content at the next frame. */
async function scrollAndRender(element: Locator): Promise<void> {
  await element.scrollIntoViewIfNeeded();
  await element.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

/** The rendered text of each element matched, each scrolled into view first. */
export async function renderedTexts(locator: Locator): Promise<string[]> {
  const texts: string[] = [];
  for (const element of await locator.all()) {
    await scrollAndRender(element);
    texts.push(await element.innerText());
  }
  return texts;
}

/**
 * The Astro island around `element` has hydrated (`client:interaction` loads the support dialog's on the
 * first click): until then its form posts natively, the page's no-JavaScript path, so a test of the
 * scripted path waits for this before it submits.
 */
export async function islandHydrated(element: Locator): Promise<void> {
  await expect
    .poll(() => element.evaluate((node) => node.closest('astro-island')?.hasAttribute('ssr') ?? true))
    .toBe(false);
}
