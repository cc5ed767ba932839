/**
 * Keyboard focus is as visible on a form field as on a link or a button: the same 2 px outline
 * (issue 10; before, a field showed only a 1 px border change and a faint ring).
 */
import { describe, expect, it } from 'vitest';
import { useSite } from '../support/site.ts';

const { server, quietContext } = useSite();

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
});
