/**
 * The product carousels on the production build: autoplay (with Playwright's fake clock), arrows,
 * wraparound, mouse and touch swipe, the 10 px drag threshold, bullets, keyboard, pause on
 * interaction and while the page is hidden.
 */
import type { BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DESKTOP, PHONE, poll, watchConsole } from '../support/browser.ts';
import { useSite } from '../support/site.ts';

const { server, browser } = useSite({ shared: true });

interface Opened {
  context: BrowserContext;
  page: Page;
  carousel: Locator;
  selected: () => Promise<number>;
  assertNoConsoleErrors: () => void;
}

async function open(
  path: string,
  device: BrowserContextOptions = DESKTOP,
  options: { fakeClock?: boolean } = {},
): Promise<Opened> {
  const context = await browser.newContext(device);
  const page = await context.newPage();
  const consoleWatch = watchConsole(page);
  if (options.fakeClock) await page.clock.install();
  await page.goto(`${server.url}${path}`);
  const carousel = page.locator('[aria-roledescription="carrusel"]');
  await carousel.scrollIntoViewIfNeeded();
  // Hydrated (client:visible) once Embla is attached.
  await carousel.locator('xpath=self::*[@data-ready]').waitFor({ timeout: 15_000 });
  return {
    context,
    page,
    carousel,
    selected: async () => Number(await carousel.getAttribute('data-selected')),
    assertNoConsoleErrors: () => consoleWatch.assertNone(),
  };
}

/** The slide whose left edge is at the viewport's left edge: what the visitor actually sees first. */
async function visibleSlideLabel(carousel: Locator): Promise<string | null> {
  return carousel.evaluate((root) => {
    const viewport = root.firstElementChild as HTMLElement;
    const left = viewport.getBoundingClientRect().left;
    const slides = [...root.querySelectorAll<HTMLElement>('[aria-roledescription="diapositiva"]')];
    // The image, not the slide: the space between slides is padding on the slide.
    const match = slides.find(
      (slide) => Math.abs(slide.querySelector('img')!.getBoundingClientRect().left - left) < 2,
    );
    return match?.getAttribute('aria-label') ?? null;
  });
}

async function mouseDrag(page: Page, carousel: Locator, dx: number) {
  const box = (await carousel.locator('xpath=./div[1]').boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y, { steps: 4 });
  await page.mouse.move(x + dx, y, { steps: 4 });
  await page.mouse.up();
}

async function touchSwipe(page: Page, carousel: Locator, dx: number) {
  const box = (await carousel.locator('xpath=./div[1]').boundingBox())!;
  const x = Math.round(box.x + box.width / 2);
  const y = Math.round(box.y + box.height / 2);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  for (let step = 1; step <= 6; step++) {
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: [{ x: x + Math.round((dx * step) / 6), y }],
    });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

describe('Restaurant.pe carousel', () => {
  it('autoplays every 10 s (fake clock) and stops when the page is hidden', async () => {
    const o = await open('/producto/restaurantpe', DESKTOP, { fakeClock: true });
    const { page } = o;
    await poll(() => o.carousel.getByRole('button', { name: 'Pausar el avance automático' }).count()).toBe(1);
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 500);
    expect(await o.selected()).toBe(0);
    await page.clock.runFor(7_500);
    expect(await o.selected()).toBe(0);
    await page.clock.runFor(2_500);
    await poll(o.selected).toBe(1);
    await page.clock.runFor(10_000);
    await poll(o.selected).toBe(2);
    // Autoplay is silent for screen readers.
    expect(await o.carousel.locator('[aria-live="polite"]').textContent()).toBe('');

    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await page.clock.runFor(30_000);
    expect(await o.selected()).toBe(2);
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await page.clock.runFor(10_000);
    await poll(o.selected).toBe(3);
    o.assertNoConsoleErrors();
    await o.context.close();
  });

  it('arrows move it with wraparound both ways; then autoplay stays paused', async () => {
    const o = await open('/producto/restaurantpe', DESKTOP, { fakeClock: true });
    const { page, carousel } = o;
    const next = carousel.getByRole('button', { name: 'Diapositiva siguiente' });
    const previous = carousel.getByRole('button', { name: 'Diapositiva anterior' });
    await previous.click();
    await poll(o.selected).toBe(9);
    await poll(() => visibleSlideLabel(carousel)).toBe('10 de 10');
    await next.click();
    await poll(o.selected).toBe(0);
    await next.click();
    await poll(o.selected).toBe(1);
    await poll(() => visibleSlideLabel(carousel)).toBe('2 de 10');
    expect(await carousel.locator('[aria-live="polite"]').textContent()).toMatch(/^Diapositiva 2 de 10: /);

    // Pause on interaction: no automatic move after the visitor took control.
    expect(await carousel.getByRole('button', { name: 'Reanudar el avance automático' }).count()).toBe(1);
    await page.clock.runFor(30_000);
    expect(await o.selected()).toBe(1);
    // The play button resumes it.
    await carousel.getByRole('button', { name: 'Reanudar el avance automático' }).click();
    await page.clock.runFor(10_000);
    await poll(o.selected).toBe(2);
    o.assertNoConsoleErrors();
    await o.context.close();
  });

  it('does not autoplay under prefers-reduced-motion', async () => {
    const o = await open(
      '/producto/restaurantpe',
      { ...DESKTOP, reducedMotion: 'reduce' },
      { fakeClock: true },
    );
    expect(await o.carousel.getByRole('button', { name: 'Reanudar el avance automático' }).count()).toBe(1);
    await o.page.clock.runFor(30_000);
    expect(await o.selected()).toBe(0);
    o.assertNoConsoleErrors();
    await o.context.close();
  });

  it('keyboard: arrow keys on the focused carousel, with wraparound', async () => {
    const o = await open('/producto/restaurantpe');
    await o.carousel.focus();
    await o.page.keyboard.press('ArrowLeft');
    await poll(o.selected).toBe(9);
    await o.page.keyboard.press('ArrowRight');
    await o.page.keyboard.press('ArrowRight');
    await poll(o.selected).toBe(1);
    o.assertNoConsoleErrors();
    await o.context.close();
  });

  it('mouse drag: a swipe moves it both ways, a drag under 10 px does not', async () => {
    const o = await open('/producto/restaurantpe');
    const { page, carousel } = o;
    await mouseDrag(page, carousel, -6);
    await page.waitForTimeout(600);
    expect(await o.selected()).toBe(0);
    await poll(() => visibleSlideLabel(carousel)).toBe('1 de 10');

    // Each drag starts once the previous one has settled (a drag during the glide is a different gesture).
    await mouseDrag(page, carousel, -700);
    await poll(o.selected).toBe(1);
    await poll(() => visibleSlideLabel(carousel)).toBe('2 de 10');
    await mouseDrag(page, carousel, 700);
    await poll(o.selected).toBe(0);
    await poll(() => visibleSlideLabel(carousel)).toBe('1 de 10');
    await mouseDrag(page, carousel, 700);
    await poll(o.selected).toBe(9);
    o.assertNoConsoleErrors();
    await o.context.close();
  });

  it('touch: a swipe on a phone moves it both ways, a tiny one does not', async () => {
    const o = await open('/producto/restaurantpe', PHONE);
    const { page, carousel } = o;
    await touchSwipe(page, carousel, -6);
    await page.waitForTimeout(600);
    expect(await o.selected()).toBe(0);
    await touchSwipe(page, carousel, -200);
    await poll(o.selected).toBe(1);
    await poll(() => visibleSlideLabel(carousel)).toBe('2 de 10');
    await touchSwipe(page, carousel, 200);
    await poll(o.selected).toBe(0);
    await poll(() => visibleSlideLabel(carousel)).toBe('1 de 10');
    await touchSwipe(page, carousel, 200);
    await poll(o.selected).toBe(9);
    await poll(() => visibleSlideLabel(carousel)).toBe('10 de 10');
    o.assertNoConsoleErrors();
    await o.context.close();
  });
});

describe('Tiendao carousel', () => {
  it('bullets jump to their slide, 30 px between slides, wraparound', async () => {
    const o = await open('/producto/tiendao');
    const { carousel } = o;
    const bullets = carousel.getByRole('button', { name: /^Ir a la diapositiva/ });
    expect(await bullets.count()).toBe(9);
    // 30 px between two neighbouring slide images.
    const gap = await carousel.evaluate((root) => {
      const images = [...root.querySelectorAll('img')].slice(0, 2).map((img) => img.getBoundingClientRect());
      return Math.round(images[1]!.left - images[0]!.right);
    });
    expect(gap).toBe(30);
    expect(await bullets.nth(0).getAttribute('aria-current')).toBe('true');

    await bullets.nth(4).click();
    await poll(o.selected).toBe(4);
    expect(await bullets.nth(4).getAttribute('aria-current')).toBe('true');
    expect(await bullets.nth(0).getAttribute('aria-current')).toBeNull();
    await poll(() => visibleSlideLabel(carousel)).toBe('5 de 9');
    expect(await carousel.locator('[aria-live="polite"]').textContent()).toBe(
      'Diapositiva 5 de 9: Administración de pedidos',
    );

    await bullets.nth(8).click();
    await poll(o.selected).toBe(8);
    await carousel.getByRole('button', { name: 'Diapositiva siguiente' }).click();
    await poll(o.selected).toBe(0);

    expect(await carousel.getByText('Desliza para ver más funcionalidades').isVisible()).toBe(true);
    o.assertNoConsoleErrors();
    await o.context.close();
  });

  it('autoplays every 10 s on a phone too (fake clock)', async () => {
    const o = await open('/producto/tiendao', PHONE, { fakeClock: true });
    const { page } = o;
    await poll(() => o.carousel.getByRole('button', { name: 'Pausar el avance automático' }).count()).toBe(1);
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 500);
    await page.clock.runFor(7_500);
    expect(await o.selected()).toBe(0);
    await page.clock.runFor(2_500);
    await poll(o.selected).toBe(1);
    o.assertNoConsoleErrors();
    await o.context.close();
  });
});
