/**
 * Keyboard focus is as visible on a form field as on a link or a button: the same 2 px outline
 * (issue 10; before, a field showed only a 1 px border change and a faint ring). And the keyboard
 * order follows the screen: what floats at the top (the 🆘 button, the news toast) is reached right
 * after the header, not after the contact form or the footer.
 */
import { describe, expect, it } from 'vitest';
import { useSite } from '../support/site.ts';

const { server, browser, quietContext } = useSite({ shared: true });

const outline = (selector: string) => (element: Element | null) => {
  if (!element) throw new Error(`No hay ${selector}`);
  const style = getComputedStyle(element);
  return `${style.outlineStyle} ${style.outlineWidth}`;
};

describe('focus', () => {
  it('marks a focused field with the same 2 px outline as a focused link', async () => {
    const context = await quietContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    for (const [path, field] of [
      ['/contacto', 'input[name="name"]'],
      ['/contacto', 'textarea[name="message"]'],
      ['/soporte/seguimiento', 'input[name="numeroIncidencia"]'],
      ['/admin-login', 'input[name="email"]'],
    ] as const) {
      await page.goto(`${server.url}${path}`);
      await page.locator(field).first().focus();
      expect(await page.locator(field).first().evaluate(outline(field)), `${path} ${field}`).toBe(
        'solid 2px',
      );
    }
    await page.goto(`${server.url}/contacto`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('A');
    expect(
      await page.evaluate(() => {
        const style = getComputedStyle(document.activeElement!);
        return `${style.outlineStyle} ${style.outlineWidth}`;
      }),
    ).toBe('solid 2px');
    await context.close();
  });

  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    it(`reaches the 🆘 button and the news toast before the page's content (${viewport.width} px)`, async () => {
      // A first visit: the toast shows its newest announcement.
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${server.url}/`);
      await page.locator('#whatsnew').waitFor({ state: 'visible' });
      const reached: string[] = [];
      for (let step = 0; step < 40; step += 1) {
        await page.keyboard.press('Tab');
        const focused = await page.evaluate(() => {
          const element = document.activeElement;
          return {
            label: (element?.getAttribute('aria-label') ?? element?.textContent ?? '').trim(),
            inMain: Boolean(element?.closest('main')),
          };
        });
        if (focused.inMain) break;
        reached.push(focused.label);
      }
      expect(
        reached.some((label) => label.includes('Solicitar Ayuda')),
        reached.join(' | '),
      ).toBe(true);
      expect(
        reached.some((label) => label.includes('Cerrar aviso de novedades')),
        reached.join(' | '),
      ).toBe(true);
      // The button comes before the toast, as it sits above it on the screen.
      expect(reached.findIndex((label) => label.includes('Solicitar Ayuda'))).toBeLessThan(
        reached.findIndex((label) => label.includes('Cerrar aviso')),
      );
      await context.close();
    });
  }
});
