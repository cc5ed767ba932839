/**
 * The three product pages on the production build, in Chromium at desktop and phone size.
 */
import { gzipSync } from 'node:zlib';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { getConfig } from '../../src/server/config.ts';
import { quoteTiendao, tiendaoWhatsappMessage } from '../../src/lib/tiendao-pricing.ts';
import { DESKTOP, expectNoAxeViolations, PHONE, poll, watchConsole, inView } from '../support/browser.ts';
import { useSite } from '../support/site.ts';

// The product pages are prerendered: links and ids are those of the build's environment, which is
// this process's environment too.
const config = getConfig();
const BOOKING_URL = config.BOOKING_URL;
const DEMO_URL = config.TIENDAO_DEMO_URL;
const WHATSAPP = config.WHATSAPP_NUMBER;
const VIDEO_ADMCLOUD = config.VIDEO_ADMCLOUD_ID;
const VIDEO_RESTAURANTPE = config.VIDEO_RESTAURANTPE_ID;

const ROWS = [
  ['Límite de facturación por plan', 'El precio de tu plan no cambia con el volumen de facturas'],
  [
    'Integración con DGII',
    'Conexión directa con la DGII para obtener números de comprobante fiscal (NCF) válidos',
  ],
  [
    'Soporte en República Dominicana',
    'Soporte humano en español, con conocimiento del entorno fiscal dominicano',
  ],
  ['Cumplimiento fiscal local', 'formatos fiscales locales: 606, 607, 608, IT-1'],
  ['Capacitación incluida', 'Capacitación completa para tu equipo, con guías paso a paso'],
  [
    'Facturación electrónica',
    'Comprobantes fiscales electrónicos (e-CF) con firma digital válida ante la DGII',
  ],
] as const;

// The page frame (header, footer, floating widgets) has its own suite; these tests check our content.
const FRAME = ['body > header', 'body > footer'];

const { server, browser } = useSite({ shared: true });

interface Visit {
  context: BrowserContext;
  page: Page;
  console: ReturnType<typeof watchConsole>;
  /** Every request the page made that left our own server. */
  foreign: string[];
  /** Gzip size of every script loaded so far, in bytes. */
  scriptBytes: () => number;
}

async function visit(device: BrowserContextOptions, path: string): Promise<Visit> {
  const context = await browser.newContext(device);
  const page = await context.newPage();
  const consoleWatch = watchConsole(page);
  const foreign: string[] = [];
  const scripts = new Map<string, number>();
  page.on('request', (request) => {
    if (new URL(request.url()).origin !== server.url) foreign.push(request.url());
  });
  page.on('response', async (response) => {
    if (response.request().resourceType() !== 'script') return;
    try {
      scripts.set(response.url(), gzipSync(await response.body()).length);
    } catch {
      // a navigation away can discard the body; nothing to count then
    }
  });
  const response = await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
  expect(response?.status()).toBe(200);
  await page.waitForLoadState('networkidle');
  return {
    context,
    page,
    console: consoleWatch,
    foreign,
    scriptBytes: () => [...scripts.values()].reduce((sum, bytes) => sum + bytes, 0),
  };
}

async function expectExternalLinks(page: Page, name: string, href: string, count: number) {
  const links = page.getByRole('link', { name });
  await poll(() => links.count()).toBe(count);
  for (const link of await links.all()) {
    expect(await link.getAttribute('href')).toBe(href);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect((await link.getAttribute('rel'))?.split(/\s+/)).toContain('noopener');
  }
}

async function expectVideoFacade(v: Visit, videoId: string, title: string) {
  expect(v.foreign).toEqual([]);
  expect(await v.page.locator('iframe').count()).toBe(0);
  // Stand in for the video host: the sandbox has no internet, and the test is about our page.
  await v.context.route('https://www.youtube-nocookie.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>player</title>' }),
  );
  const play = v.page.getByRole('button', { name: `Reproducir el video: ${title}` });
  await play.scrollIntoViewIfNeeded();
  await play.click();
  const iframe = v.page.locator('[data-video-facade] iframe');
  await poll(() => iframe.getAttribute('src')).toBe(
    `https://www.youtube-nocookie.com/embed/${videoId}?autoplay=1`,
  );
  expect(await iframe.getAttribute('title')).toBe(title);
  expect(await iframe.getAttribute('allow')).toContain('autoplay');
}

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)('product pages (%s)', (_name, device) => {
  it('/producto/restaurantpe: headline, three paragraphs, presentation link, 10 banners, click-to-load video', async () => {
    const v = await visit(device, '/producto/restaurantpe');
    const { page } = v;
    expect(await page.title()).toContain('Restaurant.pe');
    await poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain('restaurante');
    expect(await page.locator('section[aria-labelledby="sistema"] article p.leading-relaxed').count()).toBe(
      3,
    );
    await expectExternalLinks(page, 'Solicita una Presentación', BOOKING_URL, 2);

    const carousel = page.locator('[aria-roledescription="carrusel"]');
    expect(await carousel.getAttribute('aria-label')).toBe('Funciones de Restaurant.pe');
    const slides = carousel.locator('[aria-roledescription="diapositiva"]');
    expect(await slides.count()).toBe(10);
    expect(await slides.nth(0).getAttribute('aria-label')).toBe('1 de 10');
    expect(await slides.nth(9).getAttribute('aria-label')).toBe('10 de 10');
    for (const alt of await slides
      .locator('img')
      .evaluateAll((imgs) => imgs.map((img) => img.getAttribute('alt') ?? ''))) {
      expect(alt.length).toBeGreaterThan(30);
    }
    expect(await page.getByText('Desliza o usa las flechas para ver más').isVisible()).toBe(true);

    // Everything loaded so far is "before interaction": the carousel's script (Embla's core, no React) included.
    expect(v.scriptBytes()).toBeLessThan(15 * 1024);
    await expectNoAxeViolations(page, FRAME);
    await expectVideoFacade(v, VIDEO_RESTAURANTPE, 'Restaurant.pe en acción');
    v.console.assertNone();
    await v.context.close();
  });

  it('/producto/admcloud: headline, features, video, comparison rows in order, presentation link', async () => {
    const v = await visit(device, '/producto/admcloud');
    const { page } = v;
    const h1 = await page.getByRole('heading', { level: 1 }).textContent();
    expect(h1).toMatch(/inteligente, simple, completo y flexible/);
    expect(h1).toMatch(/IA/);
    expect(h1).toMatch(/facturación electrónica/);
    expect(await page.locator('article img[alt]').count()).toBeGreaterThanOrEqual(4);
    await expectExternalLinks(page, 'Solicita una Presentación', BOOKING_URL, 2);

    const table = page.locator('table[data-comparison]');
    expect(await table.locator('thead th').allTextContents()).toEqual([
      'Característica',
      'AdmCloud',
      'Otros sistemas',
    ]);
    const headers = table.locator('tbody th[scope="row"]');
    expect((await headers.locator('button').allTextContents()).map((text) => text.trim())).toEqual(
      ROWS.map(([feature]) => feature),
    );
    const rows = table.locator('tbody tr');
    for (let i = 0; i < ROWS.length; i++) {
      expect(await rows.nth(i).locator('td').nth(0).getAttribute('data-verdict')).toBe('yes');
      expect(['no', 'partial']).toContain(
        await rows.nth(i).locator('td').nth(1).getAttribute('data-verdict'),
      );
    }
    // Each feature button is described by its own tooltip, in the spec's order.
    for (const [index, [feature, tip]] of ROWS.entries()) {
      const button = headers.nth(index).getByRole('button', { name: feature });
      const tipId = await button.getAttribute('aria-describedby');
      const tooltip = page.locator(`[id="${tipId}"]`);
      expect(await tooltip.getAttribute('role')).toBe('tooltip');
      expect(await tooltip.textContent()).toContain(tip);
      expect(await tooltip.isVisible()).toBe(false);
    }

    expect(v.scriptBytes()).toBeLessThan(15 * 1024);
    await expectNoAxeViolations(page, FRAME);
    await expectVideoFacade(v, VIDEO_ADMCLOUD, 'AdmCloud en 3 minutos');
    v.console.assertNone();
    await v.context.close();
  });

  it('/producto/tiendao: sections in order, 9 captioned slides, demo link', async () => {
    const v = await visit(device, '/producto/tiendao');
    const { page } = v;
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/WhatsApp/);
    // The page's one h1 names the product, as a search result for it should.
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/Tiendao/);
    const h2 = (await page.locator('main h2').allTextContents()).map((text) => text.trim());
    const order = [
      'Lo que tus clientes van a disfrutar',
      'Una experiencia simple y funcional',
      'Explora las funcionalidades',
      'Calcula tu inversión',
      'Mira Tiendao funcionando con tus productos',
    ].map((heading) => h2.indexOf(heading));
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(await (await inView(page.getByRole('img', { name: 'Logotipo de Tiendao' }))).isVisible()).toBe(
      true,
    );
    for (const text of [
      'Sin registro y sin instalar nada',
      'Aviso por correo cuando sale el pedido',
      'Administra tus pedidos',
      'Ve e imprime las compras',
      'Crea ofertas y promociones',
    ]) {
      expect(await page.getByText(text, { exact: true }).count()).toBeGreaterThan(0);
    }

    const captions = await page.locator('[aria-roledescription="carrusel"] figcaption').allTextContents();
    expect(captions).toEqual([
      'Catálogo visual',
      'Carrito y pedido por WhatsApp',
      'Reportes de uso',
      'Productos más vendidos',
      'Administración de pedidos',
      'Notificación automática por correo al enviar',
      'Cuenta del cliente con re-pedido',
      'Ofertas y promociones',
      'Ver e imprimir compras de clientes',
    ]);
    expect(await (await inView(page.getByText('Desliza para ver más funcionalidades'))).isVisible()).toBe(
      true,
    );
    expect(await page.locator('#calculadora').count()).toBe(1);
    for (const text of [
      'Configuración técnica en un servidor en la nube',
      'Hosting y base de datos',
      'Soporte técnico de 1 hora al mes',
      '+$25/año',
      '$50/hora',
      'Cotización a solicitud',
    ]) {
      expect(await page.getByText(text, { exact: true }).count()).toBe(1);
    }
    await expectExternalLinks(page, 'Solicitar una demostración', DEMO_URL, 1);

    expect(v.scriptBytes()).toBeLessThan(15 * 1024);
    expect(v.foreign).toEqual([]);
    await expectNoAxeViolations(page, FRAME);
    v.console.assertNone();
    await v.context.close();
  });

  it('/producto/tiendao#calculadora: both states, updated at once, with the exact WhatsApp link', async () => {
    const v = await visit(device, '/producto/tiendao#calculadora');
    const { page } = v;
    const calculator = page.locator('[data-calculator]');
    const checkbox = calculator.getByRole('checkbox', { name: /Dominio personalizado/ });
    const field = (name: string) => calculator.locator(`[data-summary]:visible [data-field="${name}"]`);
    const request = calculator.getByRole('link', { name: /Solicitar esta configuración/ });
    const expectedLink = (customDomain: boolean) =>
      `https://wa.me/${WHATSAPP}?text=${encodeURIComponent(tiendaoWhatsappMessage(quoteTiendao({ customDomain })))}`;

    expect(await checkbox.isChecked()).toBe(false);
    expect(await field('inicial').textContent()).toBe('$500');
    expect(await field('mensual').textContent()).toBe('$45/mes');
    expect(await field('dominio').textContent()).toBe('No');
    expect(await request.count()).toBe(1);
    expect(await request.getAttribute('href')).toBe(expectedLink(false));
    expect(await request.getAttribute('href')).toBe(
      `https://wa.me/${encodeURIComponent(WHATSAPP)}?text=%C2%A1Hola!%20Quiero%20configurar%20mi%20tienda%20con%20Tiendao.%0A%0AResumen%20de%20mi%20configuraci%C3%B3n%3A%0A%E2%80%A2%20Pago%20inicial%20%C3%BAnico%3A%20%24500%0A%E2%80%A2%20Mensualidad%3A%20%2445%2Fmes%0A%E2%80%A2%20Dominio%20personalizado%3A%20No`,
    );
    expect(await request.getAttribute('target')).toBe('_blank');

    await checkbox.click();
    expect(await checkbox.isChecked()).toBe(true);
    expect(await field('inicial').textContent()).toBe('$525');
    expect(await field('mensual').textContent()).toBe('$45/mes');
    expect(await field('dominio').textContent()).toBe('Sí (+$25/año)');
    expect(await request.count()).toBe(1);
    expect(await request.getAttribute('href')).toBe(expectedLink(true));
    expect(await request.getAttribute('href')).toContain('Dominio%20personalizado%3A%20S%C3%AD%20(%2B%2425)');

    // The link opens WhatsApp in a new tab (the tab is stubbed: there is no internet here).
    await v.context.route('https://wa.me/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>wa</title>' }),
    );
    const [popup] = await Promise.all([v.context.waitForEvent('page'), request.click()]);
    expect(popup.url()).toBe(expectedLink(true));
    await popup.close();

    await checkbox.click();
    expect(await field('inicial').textContent()).toBe('$500');
    expect(await field('dominio').textContent()).toBe('No');
    expect(await request.getAttribute('href')).toBe(expectedLink(false));
    v.console.assertNone();
    await v.context.close();
  });
});

describe('comparison tooltips', () => {
  async function tooltipOf(page: Page, index: number) {
    const button = page.locator('table[data-comparison] tbody th[scope="row"] button').nth(index);
    const tooltip = page.locator(`[id="${await button.getAttribute('aria-describedby')}"]`);
    return { button, tooltip };
  }

  it('show on hover and on keyboard focus, and Escape hides them (desktop)', async () => {
    const v = await visit(DESKTOP, '/producto/admcloud');
    const { page } = v;
    for (const [index, [, tip]] of ROWS.entries()) {
      const { button, tooltip } = await tooltipOf(page, index);
      await button.scrollIntoViewIfNeeded();
      await button.hover();
      await poll(() => tooltip.isVisible()).toBe(true);
      expect(await tooltip.textContent()).toContain(tip);
    }
    await page.mouse.move(5, 400);

    await page.locator('#comparacion-titulo').scrollIntoViewIfNeeded();
    const { button: first, tooltip: firstTip } = await tooltipOf(page, 0);
    await first.focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await first.evaluate((el) => el === document.activeElement)).toBe(true);
    await poll(() => firstTip.isVisible()).toBe(true);
    await page.keyboard.press('Tab');
    const { tooltip: secondTip } = await tooltipOf(page, 1);
    await poll(() => secondTip.isVisible()).toBe(true);
    expect(await firstTip.isVisible()).toBe(false);

    // Escape dismisses without moving focus (the table hydrates on first interaction).
    await page.keyboard.press('Escape');
    await poll(() => secondTip.isVisible()).toBe(false);
    v.console.assertNone();
    await v.context.close();
  });

  it('show on tap and stay inside a 390 px phone screen', async () => {
    const v = await visit(PHONE, '/producto/admcloud');
    const { page } = v;
    const table = page.locator('table[data-comparison]');
    await table.scrollIntoViewIfNeeded();
    const tableBox = await table.boundingBox();
    expect(tableBox && tableBox.x >= 0 && tableBox.x + tableBox.width <= 390).toBe(true);
    for (const [index, [, tip]] of ROWS.entries()) {
      const { button, tooltip } = await tooltipOf(page, index);
      await button.scrollIntoViewIfNeeded();
      await button.tap();
      await poll(() => tooltip.isVisible()).toBe(true);
      expect(await tooltip.textContent()).toContain(tip);
      const box = await tooltip.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    }
    // Tapping elsewhere closes it.
    await page.locator('#comparacion-titulo').tap();
    const { tooltip: last } = await tooltipOf(page, ROWS.length - 1);
    await poll(() => last.isVisible()).toBe(false);
    v.console.assertNone();
    await v.context.close();
  });
});
