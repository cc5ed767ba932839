/**
 * The frame of every public page (header, mobile menu, footer, WhatsApp link, what's-new toast) in
 * real Chromium against the production build, on a desktop and a 390x844 phone.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ADMIN_LINK, HELP_LINK, NAV_ITEMS, SUPPORT_LINK } from '../../src/routes.ts';
import { ANNOUNCEMENTS } from '../../src/content/announcements.ts';
import { DESKTOP, PHONE, expectNoAxeViolations, poll, watchConsole, inView } from '../support/browser.ts';
import { useSite } from '../support/site.ts';

const { server, browser, quietContext } = useSite({ shared: true });

async function open(page: Page, path: string) {
  const response = await page.goto(server.url + path);
  expect(response?.status(), path).toBe(200);
}

const DEFAULT_PHONE = '+1 809-555-0142';
const DEFAULT_EMAIL = 'contacto@verticeconsultores.com.do';

describe('header on desktop', () => {
  it('lists the navigation of the spec and marks the current page on every route', async () => {
    const context = await quietContext(DESKTOP);
    const page = await context.newPage();
    const consoleWatch = watchConsole(page);
    const routes = [
      ...NAV_ITEMS.map((item) => ({ path: item.href, active: item.label })),
      { path: '/blog/mejor-erp-2025', active: 'Blog' },
    ];
    for (const { path, active } of routes) {
      await open(page, path);
      const nav = page.getByRole('navigation', { name: 'Principal' });
      await poll(() => nav.getByRole('link').allInnerTexts()).toEqual(NAV_ITEMS.map((item) => item.label));
      const hrefs = await nav
        .getByRole('link')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
      expect(hrefs).toEqual(NAV_ITEMS.map((item) => item.href));
      const current = nav.locator('[aria-current="page"]');
      expect(await current.count(), path).toBe(1);
      expect(await current.innerText()).toBe(active);
    }
    consoleWatch.assertNone();
    await context.close();
  });

  it('is fixed, 72 px high, offsets the content, and has the logo and the admin link', async () => {
    const context = await quietContext(DESKTOP);
    const page = await context.newPage();
    await open(page, '/blog');
    const header = page.locator('body > header');
    const box = await header.boundingBox();
    expect(box?.height).toBe(72);
    expect(await header.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    expect(await page.locator('main').evaluate((el) => getComputedStyle(el).paddingTop)).toBe('72px');
    await page.mouse.wheel(0, 600);
    await poll(async () => (await header.boundingBox())?.y).toBe(0);

    const logo = header.getByRole('link', { name: /Vértice Consultores/ });
    expect(await logo.getAttribute('href')).toBe('/');
    expect(await logo.locator('svg').count()).toBe(1);

    const admin = page.getByRole('link', { name: ADMIN_LINK.desktopLabel, exact: true });
    expect(await admin.isVisible()).toBe(true);
    expect(await admin.getAttribute('href')).toBe('/admin-login');
    expect(await admin.locator('svg').count()).toBe(1);
    expect(await page.getByRole('link', { name: ADMIN_LINK.mobileLabel, exact: true }).isVisible()).toBe(
      false,
    );
    expect(await page.locator('[data-menu-toggle]').isVisible()).toBe(false);

    await logo.click();
    await page.waitForURL(`${server.url}/`);
    await context.close();
  });
});

describe('header on a phone', () => {
  it('shows the admin link as "Admin" and a menu that opens, closes and closes when an item is chosen', async () => {
    const context = await quietContext(PHONE);
    const page = await context.newPage();
    const consoleWatch = watchConsole(page);
    await open(page, '/blog');

    const admin = page.getByRole('link', { name: ADMIN_LINK.mobileLabel, exact: true });
    expect(await admin.isVisible()).toBe(true);
    expect(await admin.getAttribute('href')).toBe('/admin-login');
    expect(await page.getByRole('link', { name: ADMIN_LINK.desktopLabel, exact: true }).isVisible()).toBe(
      false,
    );
    expect(await page.getByRole('navigation', { name: 'Principal' }).isVisible()).toBe(false);

    const toggle = page.getByRole('button', { name: 'Menú' });
    const menu = page.getByRole('navigation', { name: 'Menú principal' });
    // One mechanism (the HTML standard forbids aria-expanded beside popovertarget): the popover's state
    // is what Chromium's accessibility tree announces for the button.
    expect(await toggle.getAttribute('aria-expanded')).toBeNull();
    const cdp = await page.context().newCDPSession(page);
    const announced = async () => {
      const { nodes } = await cdp.send('Accessibility.getFullAXTree');
      const button = nodes.find((node) => node.role?.value === 'button' && node.name?.value === 'Menú');
      return String(button?.properties?.find((property) => property.name === 'expanded')?.value.value);
    };
    await poll(announced).toBe('false');
    expect(await menu.isVisible()).toBe(false);

    await toggle.click();
    await poll(() => menu.isVisible()).toBe(true);
    await poll(announced).toBe('true');
    // The spec's items, then the support centre (linked from no header, so a phone reaches it here).
    expect(await menu.getByRole('link').allInnerTexts()).toEqual(
      [...NAV_ITEMS, SUPPORT_LINK].map((item) => item.label),
    );
    expect(await menu.getByRole('link', { name: SUPPORT_LINK.label }).getAttribute('href')).toBe('/soporte');
    expect(await menu.locator('[aria-current="page"]').innerText()).toBe('Blog');
    // The menu slides in: it settles right below the 72 px header.
    await poll(async () => (await menu.boundingBox())?.y).toBe(72);
    await expectNoAxeViolations(page);

    // The same button closes it, and so does Escape.
    await toggle.click();
    await poll(() => menu.isVisible()).toBe(false);
    await poll(announced).toBe('false');
    await toggle.click();
    await poll(() => menu.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await poll(() => menu.isVisible()).toBe(false);
    await poll(announced).toBe('false');

    // Choosing an item closes the menu at once, even before the next page arrives: hold the
    // navigation back (the test cancels it after our handler ran) and look at the menu.
    await page.evaluate(() => {
      const cancel = (event: Event) => {
        if (!(event.target as Element).closest('#menu-movil a')) return;
        event.preventDefault();
        document.removeEventListener('click', cancel);
      };
      document.addEventListener('click', cancel);
    });
    await toggle.click();
    await poll(() => menu.isVisible()).toBe(true);
    await menu.getByRole('link', { name: 'Servicios' }).click();
    await poll(() => menu.isVisible()).toBe(false);
    await poll(announced).toBe('false');
    expect(page.url()).toBe(`${server.url}/blog`);

    // And for real: the chosen page opens with the menu closed.
    await toggle.click();
    await poll(() => menu.isVisible()).toBe(true);
    await menu.getByRole('link', { name: 'Servicios' }).click();
    await page.waitForURL(`${server.url}/servicios`);
    expect(await page.getByRole('navigation', { name: 'Menú principal' }).isVisible()).toBe(false);
    consoleWatch.assertNone();
    await context.close();
  });

  it('opens the menu from the keyboard and shows a visible focus ring', async () => {
    const context = await quietContext(PHONE);
    const page = await context.newPage();
    await open(page, '/blog');
    const toggle = page.getByRole('button', { name: 'Menú' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    await poll(() => page.getByRole('navigation', { name: 'Menú principal' }).isVisible()).toBe(true);
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      return { text: el.textContent?.trim(), outline: getComputedStyle(el).outlineStyle };
    });
    expect(focused.text).toContain('Inicio');
    expect(focused.outline).not.toBe('none');
    await context.close();
  });
});

describe('footer and floating WhatsApp link', () => {
  for (const [name, options] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`has the logo, tagline, social link, contact details and the current year (${name})`, async () => {
      const context = await quietContext(options);
      const page = await context.newPage();
      await open(page, '/blog');
      const footer = page.locator('footer');
      expect(await footer.getByRole('link', { name: /Vértice Consultores/ }).getAttribute('href')).toBe('/');
      const text = await (await inView(footer)).innerText();
      expect(text).toContain('Consultoría Tecnológica de Vanguardia');
      expect(text).toContain(`© ${new Date().getFullYear()} Vértice Consultores`);
      expect(text).toContain(DEFAULT_PHONE);
      expect(text).toContain(DEFAULT_EMAIL);
      expect(text).toContain('Av. Winston Churchill');
      const social = footer.getByRole('link', { name: /Síguenos en Instagram/ });
      expect(await social.getAttribute('href')).toBe('https://www.instagram.com/verticeconsultores');
      expect(await social.getAttribute('target')).toBe('_blank');
      expect(await social.getAttribute('rel')).toContain('noopener');
      expect(await footer.getByRole('link', { name: DEFAULT_EMAIL }).getAttribute('href')).toBe(
        `mailto:${DEFAULT_EMAIL}`,
      );
      expect(await footer.getByRole('link', { name: DEFAULT_PHONE }).getAttribute('href')).toBe(
        'tel:+18095550142',
      );
      expect(
        await footer.getByRole('navigation', { name: 'Pie de página' }).getByRole('link').allInnerTexts(),
      ).toEqual([...NAV_ITEMS, SUPPORT_LINK, HELP_LINK].map((item) => item.label));
      expect(await footer.getByRole('link', { name: SUPPORT_LINK.label }).getAttribute('href')).toBe(
        '/soporte',
      );
      expect(await footer.getByRole('link', { name: HELP_LINK.label }).getAttribute('href')).toBe('/ayuda');

      const whatsapp = page.getByRole('link', { name: /WhatsApp/ });
      expect(await whatsapp.getAttribute('href')).toBe('https://wa.me/18095550142');
      expect(await whatsapp.getAttribute('target')).toBe('_blank');
      expect(await whatsapp.getAttribute('rel')).toContain('noopener');
      const box = await whatsapp.boundingBox();
      const viewport = page.viewportSize();
      if (!box || !viewport) throw new Error('sin caja');
      expect(viewport.width - (box.x + box.width)).toBeLessThanOrEqual(32);
      expect(viewport.height - (box.y + box.height)).toBeLessThanOrEqual(32);
      await context.close();
    });
  }
});

describe("what's-new toast", () => {
  for (const [name, options] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    it(`shows each announcement once, in order, one per page load, then nothing (${name})`, async () => {
      const context = await browser.newContext(options);
      const page = await context.newPage();
      const consoleWatch = watchConsole(page);
      const toast = page.getByRole('complementary', { name: 'Novedades' });
      for (const [index, announcement] of ANNOUNCEMENTS.entries()) {
        await open(page, index % 2 === 0 ? '/blog' : '/servicios');
        await poll(() => toast.isVisible()).toBe(true);
        const text = await toast.innerText();
        expect(text).toContain(announcement.title);
        expect(text).toContain(announcement.message);
        for (const other of ANNOUNCEMENTS.filter((item) => item.id !== announcement.id))
          expect(text).not.toContain(other.title);
        const details = toast.getByRole('link', { name: 'Ver más detalles' });
        expect(await details.getAttribute('href')).toBe(announcement.link);
        expect(
          await page.evaluate((key) => localStorage.getItem(key), `whatsnew-${announcement.id}`),
        ).not.toBeNull();

        // Never over the WhatsApp button: above it on a desktop; beside it on a phone, as a compact strip
        // that leaves the first screen readable.
        const toastBox = await toast.boundingBox();
        const whatsappBox = await page.getByRole('link', { name: /WhatsApp/ }).boundingBox();
        if (!toastBox || !whatsappBox) throw new Error('sin caja');
        if (name === 'desktop') {
          expect(toastBox.y + toastBox.height).toBeLessThan(whatsappBox.y);
        } else {
          expect(toastBox.x + toastBox.width).toBeLessThan(whatsappBox.x);
          expect(toastBox.height).toBeLessThan(844 * 0.2);
        }
        expect(toastBox.x).toBeGreaterThanOrEqual(0);
        if (index === 0) await expectNoAxeViolations(page);
      }
      await page.reload();
      await page.waitForLoadState('load');
      expect(await toast.isVisible()).toBe(false);
      consoleWatch.assertNone();
      await context.close();
    });
  }

  it('closes with its button, and the closed announcement does not come back', async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await open(page, '/blog');
    const toast = page.getByRole('complementary', { name: 'Novedades' });
    await poll(() => toast.isVisible()).toBe(true);
    expect(await toast.innerText()).toContain(ANNOUNCEMENTS[0]?.title);
    await toast.getByRole('button', { name: 'Cerrar aviso de novedades' }).click();
    await poll(() => toast.isVisible()).toBe(false);
    await page.reload();
    await poll(() => toast.isVisible()).toBe(true);
    expect(await toast.innerText()).toContain(ANNOUNCEMENTS[1]?.title);
    await context.close();
  });

  it('follows "Ver más detalles" to the announced page', async () => {
    const context = await browser.newContext(DESKTOP);
    await context.addInitScript(() => localStorage.setItem('whatsnew-calculadora-tiendao', 'visto'));
    const page = await context.newPage();
    await open(page, '/servicios');
    await page
      .getByRole('complementary', { name: 'Novedades' })
      .getByRole('link', { name: 'Ver más detalles' })
      .click();
    await page.waitForURL(`${server.url}/blog/integracion-admcloud-restaurantpe`);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toContain('AdmCloud y Restaurant.pe');
    await context.close();
  });
});

describe('404 page', () => {
  it('answers 404 in Spanish for an unknown address, inside the frame, and is accessible', async () => {
    for (const options of [DESKTOP, PHONE]) {
      const context = await quietContext(options);
      const page = await context.newPage();
      const response = await page.goto(`${server.url}/esta-pagina-no-existe`);
      expect(response?.status()).toBe(404);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Página no encontrada');
      expect(await page.getByRole('link', { name: 'Volver al inicio' }).getAttribute('href')).toBe('/');
      expect(await page.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex');
      expect(await page.locator('body > header').count()).toBe(1);
      expect(await page.locator('footer').count()).toBe(1);
      await expectNoAxeViolations(page);
      await context.close();
    }
  });
});
