import { describe, expect, it } from 'vitest';
import { socialCardPathOf } from '../../src/domain/articles.ts';
import { articleCardSvg, wrapTitle } from '../../src/server/content/social-card.ts';

describe('social cards', () => {
  it('breaks a title at spaces into lines no longer than asked, ending with … what does not fit', () => {
    expect(wrapTitle('Cómo elegir el mejor ERP para tu empresa en 2025', 24, 4)).toEqual([
      'Cómo elegir el mejor ERP',
      'para tu empresa en 2025',
    ]);
    expect(wrapTitle('uno dos tres cuatro cinco seis', 9, 2)).toEqual(['uno dos', 'tres…']);
    expect(wrapTitle('Facturaciónelectrónicaobligatoria ya', 12, 3)).toEqual(['Facturación…', 'ya']);
    for (const line of wrapTitle('a '.repeat(200), 31, 4)) expect(line.length).toBeLessThanOrEqual(31);
  });

  it('escapes the text it puts into the SVG', () => {
    const svg = articleCardSvg({ eyebrow: 'Blog', title: '<b onload=x> & "más"', companyName: 'A&B', siteHost: 'x.do' });
    expect(svg).not.toContain('<b ');
    expect(svg).toContain('&lt;b onload=x&gt; &amp; &quot;más&quot;');
    expect(svg).toContain('A&amp;B');
  });

  it("keeps the build's card for an imported article at its first slug, and names a server card otherwise", () => {
    expect(socialCardPathOf({ kind: 'blog', slug: 'mejor-erp-2025', coverImage: 'asset:blog/mejor-erp-2025.svg' })).toBe('/og/blog/mejor-erp-2025.png');
    expect(socialCardPathOf({ kind: 'blog', slug: 'otro', coverImage: 'asset:blog/mejor-erp-2025.svg' })).toBe('/og/articulos/blog/otro.png');
    expect(socialCardPathOf({ kind: 'ayuda', slug: 'mejor-erp-2025', coverImage: 'asset:blog/mejor-erp-2025.svg' })).toBe('/og/articulos/ayuda/mejor-erp-2025.png');
    expect(socialCardPathOf({ kind: 'blog', slug: 'nuevo', coverImage: null })).toBe('/og/articulos/blog/nuevo.png');
  });
});
