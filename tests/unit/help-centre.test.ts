/**
 * The help centre's pieces without a database (issue 23): which requests of `/ayuda` are searches
 * (rendered on demand, past the memory table), the articles grouped by tag, the JSON-LD of a help
 * article and of the help centre.
 */
import { describe, expect, it } from 'vitest';
import { helpArticleJsonLd, helpCentreJsonLd } from '../../src/lib/json-ld.ts';
import { helpSearchPath, isHelpSearchUrl, isPublicPage } from '../../src/routes.ts';
import { groupByTag, helpTagAnchor, type PublicArticle } from '../../src/server/views/content.ts';

const article = (title: string, tags: string[]): PublicArticle =>
  ({ title, tags, path: `/ayuda/${title.toLowerCase()}` }) as PublicArticle;

describe('help centre', () => {
  it('sends a search of /ayuda past the memory table, and only a search', () => {
    expect(isHelpSearchUrl('/ayuda?q=factura')).toBe(true);
    expect(isHelpSearchUrl(helpSearchPath('facturación electrónica'))).toBe(true);
    expect(isHelpSearchUrl('/ayuda')).toBe(false);
    expect(isHelpSearchUrl('/ayuda?q=')).toBe(false);
    expect(isHelpSearchUrl('/ayuda?q=+++')).toBe(false);
    expect(isHelpSearchUrl('/ayuda?utm_source=x')).toBe(false);
    expect(isHelpSearchUrl('/ayuda/impresora?q=x')).toBe(false);
    expect(isPublicPage('/ayuda/impresora-no-imprime')).toBe(true);
  });

  it('groups articles by tag: alphabetical, any case once, each article under each tag, untagged last', () => {
    const groups = groupByTag([
      article('Zeta', ['Facturación', 'AdmCloud']),
      article('Alfa', ['admcloud']),
      article('Sin tema', []),
    ]);
    expect(groups.map((group) => [group.tag, group.anchor, group.articles.map((a) => a.title)])).toEqual([
      ['AdmCloud', 'tema-admcloud', ['Alfa', 'Zeta']],
      ['Facturación', 'tema-facturacion', ['Zeta']],
      ['General', 'tema-general', ['Sin tema']],
    ]);
    expect(helpTagAnchor('Punto de venta (POS)')).toBe('tema-punto-de-venta-pos');
  });

  it('describes a help article as a TechArticle under the help centre, and the centre as a searchable collection', () => {
    const [tech, breadcrumb] = helpArticleJsonLd({
      title: 'Cambiar tu contraseña',
      description: 'Cómo cambiarla.',
      path: '/ayuda/cambiar-contrasena',
      datePublished: '2026-03-02',
      dateModified: '2026-03-05',
      image: '/og/default.png',
      tags: ['Seguridad'],
    });
    expect(tech).toMatchObject({
      '@type': 'TechArticle',
      headline: 'Cambiar tu contraseña',
      datePublished: '2026-03-02',
      dateModified: '2026-03-05',
      keywords: 'Seguridad',
      url: expect.stringMatching(/\/ayuda\/cambiar-contrasena$/),
    });
    expect(breadcrumb).toMatchObject({ '@type': 'BreadcrumbList' });
    const centre = helpCentreJsonLd([{ title: 'Cambiar tu contraseña', path: '/ayuda/cambiar-contrasena' }]);
    expect(centre).toMatchObject({ '@type': 'CollectionPage', potentialAction: { '@type': 'SearchAction' } });
  });
});
