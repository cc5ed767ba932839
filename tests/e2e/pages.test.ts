/**
 * The info pages (/servicios, /productos, /sobrenosotros, /clientes, /contacto) against the production
 * build: headings and labels of the spec, the logo wall, the About video and reduced motion, scroll
 * reveal with and without JavaScript, accessibility.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/server/config.ts';
import { DESKTOP, PHONE, expectNoAxeViolations, poll, renderedTexts, inView } from '../support/browser.ts';
import { useSite } from '../support/site.ts';

// Public pages are prerendered with the build's settings: the tests' build uses the defaults.
const config = parseConfig({});

/** The site frame (header, footer) belongs to the layout and is checked by its own tests. */
const FRAME = ['body > header', 'body > footer'];

const { server, withPage } = useSite({ shared: true });

async function open(page: Page, path: string): Promise<void> {
  const response = await page.goto(server.url + path);
  expect(response?.status()).toBe(200);
  expect(await page.getAttribute('html', 'lang')).toMatch(/^es\b/);
}

const headings = (page: Page, level: number) => renderedTexts(page.getByRole('heading', { level }));

/** Scrolls through the whole page so that lazy images load and every reveal runs. */
async function scrollThrough(page: Page): Promise<void> {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y <= height; y += 400) await page.evaluate((top) => window.scrollTo(0, top), y);
}

describe('info pages', () => {
  it('/servicios: three service cards with icon and colour, and the implementation steps', async () => {
    await withPage(DESKTOP, async (page) => {
      await open(page, '/servicios');
      expect(await headings(page, 1)).toEqual(['Nuestros Servicios']);
      const cards = page.locator('section#servicios article');
      expect(await cards.locator('h2').allInnerTexts()).toEqual([
        'Implementación Admcloud',
        'Desarrollos',
        'Entrenamientos',
      ]);
      expect(await cards.nth(1).innerText()).toMatch(/SQL Server[\s\S]*CSS\/HTML[\s\S]*C#/);
      expect(await cards.nth(2).innerText()).toMatch(/todos los módulos/);
      const backgrounds = await cards.evaluateAll((elements) =>
        elements.map((element) => getComputedStyle(element).backgroundColor),
      );
      expect(new Set(backgrounds).size).toBe(3);
      expect(await cards.locator('svg').count()).toBeGreaterThanOrEqual(3);
      expect(
        await cards.evaluateAll((elements) => elements.map((element) => element.getAttribute('data-reveal'))),
      ).not.toContain(null);
      const steps = page.locator('section#como-trabajamos ol > li');
      expect(await steps.count()).toBe(6);
      expect(await steps.first().innerText()).toContain('Diagnóstico');
    });
  });

  it('/productos: three product cards with image, description and "Saber Más"', async () => {
    await withPage(PHONE, async (page) => {
      await open(page, '/productos');
      expect(await headings(page, 1)).toEqual(['Nuestros Productos']);
      const cards = page.locator('section#productos article');
      // textContent, not innerText: a card the reveal script has not shown yet has no rendered text (seen on a loaded machine).
      expect(await cards.locator('h2').allTextContents()).toEqual(['AdmCloud', 'Restaurant.pe', 'Tiendao']);
      expect(
        await cards
          .getByRole('link', { name: /^Saber Más/ })
          .evaluateAll((links) => links.map((link) => link.getAttribute('href'))),
      ).toEqual(['/producto/admcloud', '/producto/restaurantpe', '/producto/tiendao']);
      await scrollThrough(page);
      await poll(() =>
        cards
          .locator('img')
          .evaluateAll((images) => images.every((img) => (img as HTMLImageElement).naturalWidth > 0)),
      ).toBe(true);
      // Polled: the reveal script shows the section's text once it has scrolled into view (a loaded machine lags).
      await poll(() => page.locator('section#cual-te-conviene h3').allInnerTexts()).toEqual([
        'AdmCloud',
        'Restaurant.pe',
        'Tiendao',
      ]);
    });
  });

  it('/clientes: 18 client logos under the heading of the spec, industries and testimonials', async () => {
    await withPage(PHONE, async (page) => {
      await open(page, '/clientes');
      expect(await headings(page, 1)).toEqual(['Empresas que impulsan su futuro con nosotros']);
      const logos = page.locator('section#clientes li img');
      expect(await logos.count()).toBe(18);
      const names = await logos.evaluateAll((images) => images.map((img) => img.getAttribute('alt')));
      expect(new Set(names).size).toBe(18);
      await scrollThrough(page);
      await poll(() =>
        logos.evaluateAll((images) => images.every((img) => (img as HTMLImageElement).naturalWidth > 0)),
      ).toBe(true);
      expect(await page.locator('section#industrias h3').count()).toBeGreaterThanOrEqual(6);
      expect(await page.locator('section#testimonios blockquote').count()).toBe(3);
    });
  });

  it('/contacto: blurb, street address, phone and e-mail from the settings, and the form slot', async () => {
    await withPage(DESKTOP, async (page) => {
      await open(page, '/contacto');
      expect(await headings(page, 1)).toEqual(['Contáctanos']);
      const section = page.locator('section#contacto');
      expect(await section.locator('address').innerText()).toBe(config.COMPANY_ADDRESS);
      expect(await section.getByRole('link', { name: config.COMPANY_PHONE }).getAttribute('href')).toBe(
        `tel:${config.COMPANY_PHONE.replace(/[^\d+]/g, '')}`,
      );
      expect(
        await section.getByRole('link', { name: config.COMPANY_EMAIL }).first().getAttribute('href'),
      ).toBe(`mailto:${config.COMPANY_EMAIL}`);
      // The contact form (name, e-mail, message) lives in the contact section.
      for (const label of ['Nombre', 'Correo electrónico', 'Mensaje'])
        expect(await section.getByLabel(label, { exact: true }).count()).toBe(1);
      expect(await section.getByRole('button', { name: 'Enviar mensaje' }).count()).toBe(1);
      const whatsapp = page.getByRole('link', { name: /^Abrir chat/ });
      expect(await whatsapp.getAttribute('href')).toMatch(
        new RegExp(`^https://wa\\.me/${config.WHATSAPP_NUMBER}\\?text=`),
      );
      expect(await whatsapp.getAttribute('target')).toBe('_blank');
    });
  });

  it('/sobrenosotros: the headings of the spec and a muted looping background video that plays', async () => {
    await withPage(DESKTOP, async (page) => {
      await open(page, '/sobrenosotros');
      expect(await headings(page, 1)).toEqual(['Sobre Nosotros']);
      expect(await headings(page, 2)).toEqual(
        expect.arrayContaining(['Nuestra Visión', 'Nuestros Servicios', 'Nuestra Empresa']),
      );
      expect(await renderedTexts(page.locator('section#vision li h3'))).toEqual([
        'Compromiso con la excelencia',
        'Integridad',
        'Enfoque en el cliente',
        'Innovación',
      ]);
      expect(await (await inView(page.locator('section#empresa'))).innerText()).toMatch(/2023[\s\S]*15 años/);

      const video = page.locator('video[data-about-video]');
      for (const attribute of ['muted', 'loop', 'playsinline'])
        expect(await video.getAttribute(attribute)).toBe('');
      const poster = await video.getAttribute('poster');
      expect(poster).toBeTruthy();
      expect((await page.request.get(server.url + poster)).status()).toBe(200);
      expect(await video.evaluate((element: HTMLVideoElement) => element.muted)).toBe(true);
      await poll(() =>
        video.evaluate((element: HTMLVideoElement) => !element.paused && element.currentTime > 0),
      ).toBe(true);

      // The pause button stops it (moving content must be stoppable) and starts it again.
      const toggle = page.getByRole('button', { name: 'Pausar animación de fondo' });
      await toggle.click();
      await poll(() => video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(true);
      await page.getByRole('button', { name: 'Reproducir animación de fondo' }).click();
      await poll(() => video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(false);
    });
  });

  it('/sobrenosotros under prefers-reduced-motion: the video stays paused on its poster and is not fetched', async () => {
    await withPage({ ...PHONE, reducedMotion: 'reduce' }, async (page) => {
      const videoRequests: string[] = [];
      page.on('request', (request) => {
        if (/\.(webm|mp4)$/.test(new URL(request.url()).pathname)) videoRequests.push(request.url());
      });
      await open(page, '/sobrenosotros');
      await page.waitForLoadState('networkidle');
      const video = page.locator('video[data-about-video]');
      expect(await video.getAttribute('autoplay')).toBeNull();
      expect(await video.evaluate((element: HTMLVideoElement) => element.paused)).toBe(true);
      expect(await page.locator('button[data-video-toggle]').isVisible()).toBe(false);
      expect(videoRequests).toEqual([]);
      // Nothing is hidden waiting for a reveal animation.
      expect(await page.locator('.reveal-pending, .reveal-run').count()).toBe(0);

      // Turning the preference off starts it.
      await page.emulateMedia({ reducedMotion: 'no-preference' });
      await poll(() => video.evaluate((element: HTMLVideoElement) => !element.paused)).toBe(true);
    });
  });

  it('reveals content once as it scrolls into view', async () => {
    await withPage(DESKTOP, async (page) => {
      await open(page, '/clientes');
      const lastTestimonial = page.locator('section#testimonios li').last();
      // Hidden once the observer reports it off screen; what the first screen shows is never hidden.
      await poll(() => lastTestimonial.getAttribute('class')).toContain('reveal-pending');
      expect(await lastTestimonial.evaluate((element) => getComputedStyle(element).opacity)).toBe('0');
      expect(await page.locator('#clientes [data-reveal]').first().getAttribute('class')).not.toContain(
        'reveal-pending',
      );
      await lastTestimonial.scrollIntoViewIfNeeded();
      await poll(() => lastTestimonial.getAttribute('class')).toContain('reveal-run');
      const animation = await lastTestimonial.evaluate(
        (element) => getComputedStyle(element).animationDuration,
      );
      expect(animation).toBe('0.8s');
      await poll(() => lastTestimonial.evaluate((element) => getComputedStyle(element).opacity)).toBe('1');
      // Once: scrolling away and back does not hide it again.
      await page.evaluate(() => window.scrollTo(0, 0));
      await lastTestimonial.scrollIntoViewIfNeeded();
      expect(await lastTestimonial.evaluate((element) => getComputedStyle(element).opacity)).toBe('1');
    });
  });

  it.each(['/', '/servicios', '/productos', '/sobrenosotros', '/clientes'])(
    'shows every reveal element without JavaScript on %s',
    async (path) => {
      await withPage({ ...DESKTOP, javaScriptEnabled: false }, async (page) => {
        await open(page, path);
        const reveal = page.locator('[data-reveal]');
        expect(await reveal.count()).toBeGreaterThan(0);
        const opacities = await reveal.evaluateAll((elements) =>
          elements.map((element) => getComputedStyle(element).opacity),
        );
        expect(new Set(opacities)).toEqual(new Set(['1']));
      });
    },
  );

  it.each(['/servicios', '/productos', '/sobrenosotros', '/clientes', '/contacto'])(
    '%s has a unique title and description and no accessibility violations',
    async (path) => {
      await withPage({ ...PHONE, reducedMotion: 'reduce' }, async (page) => {
        await open(page, path);
        await page.waitForLoadState('networkidle');
        expect((await page.title()).length).toBeGreaterThan(10);
        expect(
          (await page.locator('meta[name="description"]').getAttribute('content'))?.length,
        ).toBeGreaterThan(60);
        await expectNoAxeViolations(page, FRAME);
      });
    },
  );

  it('gives every page its own title and description', async () => {
    const paths = ['/', '/servicios', '/productos', '/sobrenosotros', '/clientes', '/contacto'];
    const heads = await Promise.all(
      paths.map(async (path) => {
        const html = await (await fetch(server.url + path)).text();
        return {
          title: /<title>([^<]*)<\/title>/.exec(html)?.[1],
          description: /<meta name="description" content="([^"]*)"/.exec(html)?.[1],
        };
      }),
    );
    expect(new Set(heads.map((head) => head.title)).size).toBe(paths.length);
    expect(new Set(heads.map((head) => head.description)).size).toBe(paths.length);
  });
});

describe('the accessibility check itself', () => {
  it('fails on a page with violations, naming them (so the passes elsewhere mean something)', async () => {
    await withPage(DESKTOP, async (page) => {
      await page.setContent(
        '<!doctype html><html lang="es"><head><title>Prueba</title></head><body><main><h1>Prueba</h1>' +
          '<img src="data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs="><button></button>' +
          '<p style="color:#777;background:#888">Poco contraste</p></main></body></html>',
      );
      const failure = await expectNoAxeViolations(page).then(
        () => '',
        // The assertion's `actual`: one line per violation.
        (error: unknown) => JSON.stringify((error as { actual?: unknown }).actual),
      );
      for (const rule of ['image-alt', 'button-name', 'color-contrast']) expect(failure).toContain(rule);
    });
  });
});
