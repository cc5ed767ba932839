import { describe, expect, it } from 'vitest';
import { isCoverReference, socialCardPathOf } from '../../src/domain/articles.ts';
import { cardCoverOf, coverOf, textImageChoices } from '../../src/lib/blog-covers.ts';
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
    const svg = articleCardSvg({
      eyebrow: 'Blog',
      title: '<b onload=x> & "más"',
      companyName: 'A&B',
      siteHost: 'x.do',
    });
    expect(svg).not.toContain('<b ');
    expect(svg).toContain('&lt;b onload=x&gt; &amp; &quot;más&quot;');
    expect(svg).toContain('A&amp;B');
  });

  it("keeps the build's card for an imported article at its first slug, and names a server card otherwise", () => {
    expect(
      socialCardPathOf({ kind: 'blog', slug: 'mejor-erp-2025', coverImage: 'asset:blog/mejor-erp-2025.svg' }),
    ).toBe('/og/blog/mejor-erp-2025.png');
    expect(
      socialCardPathOf({ kind: 'blog', slug: 'otro', coverImage: 'asset:blog/mejor-erp-2025.svg' }),
    ).toBe('/og/articulos/blog/otro.png');
    expect(
      socialCardPathOf({
        kind: 'ayuda',
        slug: 'mejor-erp-2025',
        coverImage: 'asset:blog/mejor-erp-2025.svg',
      }),
    ).toBe('/og/articulos/ayuda/mejor-erp-2025.png');
    expect(socialCardPathOf({ kind: 'blog', slug: 'nuevo', coverImage: null })).toBe(
      '/og/articulos/blog/nuevo.png',
    );
  });
});

describe('covers', () => {
  it('take an illustration of the build or an image uploaded into the text, nothing else', () => {
    expect(isCoverReference('asset:blog/mejor-erp-2025.svg')).toBe(true);
    expect(isCoverReference('/blog/imagenes/12-0123456789abcdef-1440x810')).toBe(true);
    for (const value of [
      '/blog/imagenes/12-1440x810',
      '/blog/imagenes/12-0123456789abcdef-1440.webp',
      'https://example.com/a.png',
      '/blog/imagenes/0-0123456789abcdef-10x10',
      'javascript:alert(1)',
    ])
      expect(isCoverReference(value), value).toBe(false);
  });

  it("offer the text's uploaded images as covers, once each, with their descriptions", () => {
    const body =
      'Texto ![Un tablero](/blog/imagenes/7-0123456789abcdef-1440x810) y ![](/blog/imagenes/8-0123456789abcdef-300x200)\n\n![Otra vez](/blog/imagenes/7-0123456789abcdef-1440x810) ![externa](https://x.example/a.png) ![sin clave](/blog/imagenes/9-1440x810)';
    expect(textImageChoices(body)).toEqual([
      { reference: '/blog/imagenes/7-0123456789abcdef-1440x810', alt: 'Un tablero' },
      { reference: '/blog/imagenes/8-0123456789abcdef-300x200', alt: '' },
    ]);
  });

  it('show an uploaded cover by its WebP file at the largest width it has for the place, in proportion', () => {
    expect(coverOf('/blog/imagenes/7-0123456789abcdef-1440x810')).toEqual({
      src: '/blog/imagenes/7-0123456789abcdef-1440.webp',
      width: 1440,
      height: 810,
    });
    expect(cardCoverOf('/blog/imagenes/7-0123456789abcdef-1440x810')).toEqual({
      src: '/blog/imagenes/7-0123456789abcdef-720.webp',
      width: 720,
      height: 405,
    });
    // A small image has only its own width.
    expect(cardCoverOf('/blog/imagenes/8-0123456789abcdef-300x200')).toEqual({
      src: '/blog/imagenes/8-0123456789abcdef-300.webp',
      width: 300,
      height: 200,
    });
    expect(coverOf('/blog/imagenes/9-0123456789abcdef-1000x500')).toEqual({
      src: '/blog/imagenes/9-0123456789abcdef-1000.webp',
      width: 1000,
      height: 500,
    });
  });
});
