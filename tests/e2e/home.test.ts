/**
 * The home page against the production build, in real Chromium, on a desktop and a phone viewport:
 * structure and hero links, the recommendation dialog (every choice, close, Escape, focus), no
 * JavaScript file before the first interaction, accessibility.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/server/config.ts';
import { DESKTOP, PHONE, expectNoAxeViolations, poll, inView, renderedTexts } from '../support/browser.ts';
import { useSite } from '../support/site.ts';

// Public pages are prerendered with the build's settings: the tests' build uses the defaults.
const config = parseConfig({});

const { server, withPage } = useSite({ shared: true });

/** The site frame (header, footer) belongs to the layout and is checked by its own tests. */
const FRAME = ['body > header', 'body > footer'];

const CHOICES = [
  { focus: 'Contabilidad y Finanzas', product: 'AdmCloud', href: '/producto/admcloud' },
  { focus: 'Restaurantes', product: 'Restaurant.pe', href: '/producto/restaurantpe' },
  { focus: 'Venta digital de productos', product: 'Tiendao', href: '/producto/tiendao' },
] as const;

const opener = (page: Page) => page.getByRole('button', { name: '¿No sabes qué sistema necesitas?' });
const dialog = (page: Page) => page.locator('dialog#recomendador');
const step1Heading = (page: Page) =>
  dialog(page).getByRole('heading', { name: '¿Cuál es el enfoque principal de tu negocio?' });
const step2Heading = (page: Page) => dialog(page).getByRole('heading', { name: 'Te recomendamos:' });

async function openDialog(page: Page): Promise<void> {
  await opener(page).click();
  await poll(() => dialog(page).evaluate((element: HTMLDialogElement) => element.open)).toBe(true);
  await poll(() => step1Heading(page).isVisible()).toBe(true);
}

async function activeElementText(page: Page): Promise<string> {
  return page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
}

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)('home page (%s)', (_name, device) => {
  it('answers 200 in Spanish with no console errors and downloads no JavaScript before the first interaction', async () => {
    await withPage(device, async (page) => {
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(request.url());
      });
      const response = await page.goto(server.url, { waitUntil: 'networkidle' });
      expect(response?.status()).toBe(200);
      expect(await page.getAttribute('html', 'lang')).toMatch(/^es\b/);
      await poll(() => page.title()).toContain('Transformamos tu Negocio con Tecnología');
      expect(scripts).toEqual([]);
    });
  });

  it('has the sections of the spec in order, the hero texts and its link targets', async () => {
    await withPage(device, async (page) => {
      await page.goto(server.url);
      const sectionIds = await page
        .locator('main > section')
        .evaluateAll((sections) => sections.map((section) => section.id));
      expect(sectionIds).toEqual([
        'inicio',
        'productos',
        'servicios',
        'sobre-nosotros',
        'clientes',
        'contacto',
      ]);
      // Below the first, each section is laid out only as it nears the viewport.
      expect(
        await page
          .locator('main > section')
          .evaluateAll((sections) => sections.map((section) => getComputedStyle(section).contentVisibility)),
      ).toEqual(['visible', ...Array(5).fill('auto')]);

      const hero = page.locator('section#inicio');
      await poll(() => hero.getByRole('heading', { level: 1 }).innerText()).toMatch(
        /^Transformamos tu Negocio con\s+Tecnología$/,
      );
      expect(await hero.locator('h1 + p').innerText()).toMatch(/consultoría tecnológica/i);
      // The hero fills the viewport below the 72 px header.
      const heroBox = await hero.boundingBox();
      const viewport = page.viewportSize();
      expect(heroBox?.y).toBe(72);
      expect(heroBox?.height).toBeGreaterThanOrEqual((viewport?.height ?? 0) - 72 - 1);

      for (const name of ['AdmCloud', 'Restaurant.pe']) {
        const logoLink = hero.locator('a', { has: page.getByAltText(name, { exact: true }) });
        expect(await logoLink.getAttribute('href')).toBe('/productos');
        await poll(() =>
          logoLink.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth),
        ).toBeGreaterThan(0);
      }

      const contact = hero.getByRole('link', { name: 'Contáctanos Hoy' });
      expect(await contact.getAttribute('href')).toBe('/contacto');
      const booking = hero.getByRole('link', { name: /^Agendar Presentación/ });
      expect(await booking.getAttribute('href')).toBe(config.BOOKING_URL);
      expect(await booking.getAttribute('target')).toBe('_blank');
      expect((await booking.getAttribute('rel'))?.split(/\s+/)).toContain('noopener');

      // The dialog has exactly one opener.
      expect(await page.locator('[commandfor="recomendador"][command="show-modal"]').count()).toBe(1);
      expect(await opener(page).count()).toBe(1);
    });
  });

  it('shows the products, services and About sections with their content', async () => {
    await withPage(device, async (page) => {
      await page.goto(server.url);
      const products = page.locator('section#productos');
      expect(await (await inView(products.getByRole('heading', { level: 2 }))).innerText()).toBe(
        'Nuestros Productos',
      );
      const moreLinks = products.getByRole('link', { name: /^Saber Más/ });
      expect(await moreLinks.evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual([
        '/producto/admcloud',
        '/producto/restaurantpe',
        '/producto/tiendao',
      ]);
      expect(await products.locator('article img').count()).toBe(3);

      const services = page.locator('section#servicios');
      expect(await renderedTexts(services.locator('h3'))).toEqual([
        'Implementación Admcloud',
        'Desarrollos',
        'Entrenamientos',
      ]);
      expect(await (await inView(page.locator('section#sobre-nosotros'))).innerText()).toMatch(
        /2023[\s\S]*15\+/,
      );
      expect(
        await page.locator('section#sobre-nosotros').getByRole('heading', { level: 2 }).textContent(),
      ).toBe('Sobre Nosotros');
      expect(
        await (await inView(page.locator('section#clientes').getByRole('heading', { level: 2 }))).innerText(),
      ).toBe('Empresas que impulsan su futuro con nosotros');
      expect(await page.locator('section#clientes li img').count()).toBe(18);
      const contact = page.locator('section#contacto');
      expect(await (await inView(contact)).innerText()).toContain(config.COMPANY_EMAIL);
      // The contact form (name, e-mail, message) lives in the contact section.
      for (const label of ['Nombre', 'Correo electrónico', 'Mensaje'])
        expect(await contact.getByLabel(label, { exact: true }).count()).toBe(1);
      expect(await contact.getByRole('button', { name: 'Enviar mensaje' }).count()).toBe(1);
    });
  });

  it.each(CHOICES)(
    'recommends $product for "$focus", then closes with its button and returns focus to the opener',
    async (choice) => {
      await withPage(device, async (page) => {
        await page.goto(server.url);
        await openDialog(page);
        expect(await dialog(page).locator('label').allInnerTexts()).toEqual(
          CHOICES.map((item) => expect.stringContaining(item.focus)),
        );
        expect(await step2Heading(page).isVisible()).toBe(false);

        await dialog(page).locator('label').filter({ hasText: choice.focus }).click();
        await poll(() => step2Heading(page).isVisible()).toBe(true);
        expect(await step1Heading(page).isVisible()).toBe(false);

        const result = dialog(page).locator('[data-result]:visible');
        expect(await result.count()).toBe(1);
        expect(await result.getByRole('heading', { level: 3 }).innerText()).toBe(choice.product);
        expect((await result.locator('p').innerText()).length).toBeGreaterThan(40);
        const image = result.locator('img');
        await poll(() =>
          image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
        ).toBe(true);
        expect(await result.getByRole('link', { name: `Ver ${choice.product}` }).getAttribute('href')).toBe(
          choice.href,
        );
        const consultation = result.getByRole('link', { name: /consulta técnica/ });
        expect(await consultation.getAttribute('href')).toBe(config.CONSULTATION_URL);
        expect(await consultation.getAttribute('target')).toBe('_blank');
        expect((await consultation.getAttribute('rel'))?.split(/\s+/)).toContain('noopener');
        // The script moves focus to the result so that it is announced.
        expect(await activeElementText(page)).toBe('Te recomendamos:');

        await dialog(page).getByRole('button', { name: 'Cerrar' }).click();
        await poll(() => dialog(page).evaluate((element: HTMLDialogElement) => element.open)).toBe(false);
        expect(await activeElementText(page)).toBe('¿No sabes qué sistema necesitas?');

        // Reopening starts again at step 1.
        await openDialog(page);
        expect(await step2Heading(page).isVisible()).toBe(false);
      });
    },
  );

  it('goes back to step 1, closes at step 1 with its button and with Escape at step 2', async () => {
    await withPage(device, async (page) => {
      await page.goto(server.url);
      await openDialog(page);
      await dialog(page).locator('label').filter({ hasText: 'Restaurantes' }).click();
      await poll(() => step2Heading(page).isVisible()).toBe(true);
      await dialog(page).getByRole('button', { name: 'Elegir otro enfoque' }).click();
      await poll(() => step1Heading(page).isVisible()).toBe(true);
      expect(await step2Heading(page).isVisible()).toBe(false);

      await dialog(page).getByRole('button', { name: 'Cerrar' }).click();
      await poll(() => dialog(page).evaluate((element: HTMLDialogElement) => element.open)).toBe(false);
      expect(await activeElementText(page)).toBe('¿No sabes qué sistema necesitas?');

      await openDialog(page);
      await page.keyboard.press('Escape');
      await poll(() => dialog(page).evaluate((element: HTMLDialogElement) => element.open)).toBe(false);
      expect(await activeElementText(page)).toBe('¿No sabes qué sistema necesitas?');

      await openDialog(page);
      await dialog(page).locator('label').filter({ hasText: 'Venta digital de productos' }).click();
      await poll(() => step2Heading(page).isVisible()).toBe(true);
      await page.keyboard.press('Escape');
      await poll(() => dialog(page).evaluate((element: HTMLDialogElement) => element.open)).toBe(false);
      expect(await activeElementText(page)).toBe('¿No sabes qué sistema necesitas?');
    });
  });

  it('works by keyboard alone', async () => {
    await withPage(device, async (page) => {
      await page.goto(server.url);
      await opener(page).focus();
      await page.keyboard.press('Enter');
      await poll(() => dialog(page).evaluate((element: HTMLDialogElement) => element.open)).toBe(true);
      // Tab from the close button to the first choice, Space chooses it.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe(
        'Contabilidad y Finanzas',
      );
      await page.keyboard.press('Space');
      await poll(() => step2Heading(page).isVisible()).toBe(true);
      await page.keyboard.press('Tab');
      expect(await activeElementText(page)).toBe('Ver AdmCloud');
    });
  });

  it('has no accessibility violations, with the dialog closed and open at each step', async () => {
    await withPage(device, async (page) => {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.goto(server.url, { waitUntil: 'networkidle' });
      await expectNoAxeViolations(page, FRAME);
      await openDialog(page);
      await expectNoAxeViolations(page, FRAME);
      await dialog(page).locator('label').filter({ hasText: 'Contabilidad y Finanzas' }).click();
      await poll(() => step2Heading(page).isVisible()).toBe(true);
      await expectNoAxeViolations(page, FRAME);
    });
  });
});
