/**
 * SEO of every public route, read the way a crawler reads it (plain HTTP against the production
 * build): titles, descriptions, canonical URLs, Open Graph / Twitter tags, JSON-LD, sitemap.xml,
 * robots.txt and the social-card images.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { NAV_ITEMS, ROUTES } from '../../src/routes.ts';
import { useSite } from '../support/site.ts';

// One build serves any SITE_URL: started with an address the build never saw, every absolute URL of
// every response (prerendered or rendered on demand) must name it.
const SITE = 'https://www.sitio-de-prueba.com.do';

const { server } = useSite({ browser: false, env: { SITE_URL: SITE } });

const ARTICLE_IDS = ['mejor-erp-2025', 'software-gestion-restaurantes', 'integracion-admcloud-restaurantpe'];
const EXPECTED_ROUTES = [
  ...NAV_ITEMS.map((item) => item.href),
  ROUTES.clients,
  ROUTES.productAdmcloud,
  ROUTES.productRestaurantpe,
  ROUTES.productTiendao,
  ROUTES.help,
  ...ARTICLE_IDS.map((id) => `/blog/${id}`),
];

const decode = (text: string) =>
  text.replace(
    /&(amp|lt|gt|quot|#39|#x27);/g,
    (_, entity: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" })[entity] ?? '',
  );

interface Head {
  lang: string | undefined;
  title: string | undefined;
  meta: Map<string, string>;
  links: { rel: string; href: string; type?: string }[];
  jsonLd: string[];
}

function readHead(html: string): Head {
  const head = html.slice(0, html.indexOf('</head>'));
  const attributes = (tag: string) =>
    Object.fromEntries(
      [...tag.matchAll(/([a-z:-]+)="([^"]*)"/gi)].map((m) => [m[1]!.toLowerCase(), decode(m[2]!)]),
    );
  const meta = new Map<string, string>();
  for (const [tag] of head.matchAll(/<meta\b[^>]*>/gi)) {
    const attrs = attributes(tag);
    const key = attrs.property ?? attrs.name;
    if (key && attrs.content !== undefined) meta.set(key, attrs.content);
  }
  return {
    lang: /<html[^>]*\blang="([^"]+)"/.exec(html)?.[1],
    title: decode(/<title>([^<]*)<\/title>/.exec(head)?.[1] ?? ''),
    meta,
    links: [...head.matchAll(/<link\b[^>]*>/gi)].map(([tag]) => attributes(tag) as Head['links'][number]),
    jsonLd: [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
      (m) => m[1]!,
    ),
  };
}

async function get(path: string) {
  const response = await fetch(new URL(path, server.url));
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    body: await response.text(),
  };
}

function pngSize(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  return {
    png: bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47,
    width: view.getUint32(16),
    height: view.getUint32(20),
  };
}

describe('sitemap.xml and robots.txt', () => {
  it('lists every public route, articles included, and nothing private', async () => {
    const { status, type, body } = await get('/sitemap.xml');
    expect(status).toBe(200);
    expect(type).toMatch(/xml/);
    expect(body).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\s*<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/,
    );
    const locs = [...body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    const paths = locs.map((loc) => new URL(loc).pathname);
    for (const loc of locs) expect(new URL(loc).origin).toBe(SITE);
    for (const route of EXPECTED_ROUTES) expect(paths, route).toContain(route);
    for (const path of paths) expect(path).not.toMatch(/^\/(admin|healthz|404|og\/|rss)/);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of paths)
      expect((await fetch(new URL(path, server.url), { method: 'HEAD' })).status, path).toBe(200);
  });

  it('robots.txt keeps crawlers out of the staff area and points at the sitemap', async () => {
    const { status, type, body } = await get('/robots.txt');
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain/);
    const lines = body.split('\n');
    expect(lines).toContain('User-agent: *');
    expect(lines).toContain('Disallow: /admin');
    expect(lines).toContain('Disallow: /admin-login');
    expect(lines).toContain(`Sitemap: ${SITE}/sitemap.xml`);
  });
});

describe('one build, any SITE_URL', () => {
  it('names only the run-time address in every response, prerendered or rendered on demand, compressed or not', async () => {
    const hosts = new Set<string>();
    const paths = [
      ...EXPECTED_ROUTES,
      ROUTES.supportHub,
      ROUTES.supportNew,
      ROUTES.supportTracking,
      '/sitemap.xml',
      '/rss.xml',
      '/robots.txt',
      '/404',
      '/blog/no-existe',
      '/ayuda/no-existe',
      ROUTES.adminLogin,
    ];
    for (const path of paths) {
      for (const encoding of ['br', 'gzip', 'identity']) {
        const response = await fetch(new URL(path, server.url), { headers: { 'Accept-Encoding': encoding } });
        const body = await response.text();
        expect(body, `${path} (${encoding})`).not.toMatch(/sitio-compilado|\.invalid|127\.0\.0\.1|localhost/);
        for (const match of body.matchAll(/https?:\/\/([a-z0-9.-]+)/gi)) hosts.add(match[1]!.toLowerCase());
      }
    }
  });
});

describe('head of every public route', () => {
  const heads = new Map<string, Head>();

  beforeAll(async () => {
    for (const route of EXPECTED_ROUTES) {
      const { status, body } = await get(route);
      expect(status, route).toBe(200);
      heads.set(route, readHead(body));
    }
  });

  it('has a unique title and a unique description', () => {
    const titles = EXPECTED_ROUTES.map((route) => heads.get(route)!.title);
    const descriptions = EXPECTED_ROUTES.map((route) => heads.get(route)!.meta.get('description'));
    for (const [index, route] of EXPECTED_ROUTES.entries()) {
      expect(titles[index], route).toMatch(/ \| Vértice Consultores$/);
      expect(descriptions[index]?.length ?? 0, route).toBeGreaterThanOrEqual(40);
      expect(descriptions[index]?.length ?? 0, route).toBeLessThanOrEqual(200);
    }
    expect(new Set(titles).size, `títulos repetidos: ${titles.join(' / ')}`).toBe(titles.length);
    expect(new Set(descriptions).size, 'descripciones repetidas').toBe(descriptions.length);
  });

  it('is in Dominican Spanish with a canonical URL, theme colour, favicon and the RSS link', () => {
    for (const route of EXPECTED_ROUTES) {
      const head = heads.get(route)!;
      expect(head.lang, route).toBe('es-DO');
      const canonical = head.links.find((link) => link.rel === 'canonical')?.href;
      expect(canonical, route).toBe(new URL(route, SITE).href);
      expect(head.meta.get('theme-color'), route).toMatch(/^#[0-9a-f]{6}$/i);
      expect(head.meta.get('robots'), route).toBeUndefined();
      expect(
        head.links.some((link) => link.rel === 'icon'),
        route,
      ).toBe(true);
      expect(head.links.find((link) => link.type === 'application/rss+xml')?.href, route).toBe('/rss.xml');
    }
  });

  it('has complete Open Graph and Twitter tags whose image exists', async () => {
    const images = new Set<string>();
    for (const route of EXPECTED_ROUTES) {
      const { meta, title } = heads.get(route)!;
      const canonical = new URL(route, SITE).href;
      expect(meta.get('og:title'), route).toBe(title);
      expect(meta.get('og:description'), route).toBe(meta.get('description'));
      expect(meta.get('og:url'), route).toBe(canonical);
      expect(meta.get('og:locale'), route).toBe('es_DO');
      expect(meta.get('og:site_name'), route).toBe('Vértice Consultores');
      expect(meta.get('og:type'), route).toBe(route.startsWith('/blog/') ? 'article' : 'website');
      expect(meta.get('twitter:card'), route).toBe('summary_large_image');
      expect(meta.get('twitter:title'), route).toBe(title);
      expect(meta.get('twitter:description'), route).toBe(meta.get('description'));
      const image = meta.get('og:image');
      expect(image, route).toMatch(/^https?:\/\//);
      expect(meta.get('twitter:image'), route).toBe(image);
      expect(meta.get('og:image:alt')?.length ?? 0, route).toBeGreaterThan(5);
      images.add(image!);
    }
    for (const image of images) {
      const url = new URL(image);
      expect(url.origin).toBe(SITE);
      const response = await fetch(new URL(url.pathname + url.search, server.url));
      expect(response.status, image).toBe(200);
      expect(response.headers.get('content-type'), image).toMatch(/^image\/(png|jpeg|webp)/);
    }
  });

  it('has valid JSON-LD, a BlogPosting on every article', () => {
    for (const route of EXPECTED_ROUTES) {
      for (const source of heads.get(route)!.jsonLd) {
        const data = JSON.parse(source) as Record<string, unknown>;
        expect(data['@context'], route).toBe('https://schema.org');
        expect(typeof data['@type'], route).toBe('string');
      }
    }
    for (const id of ARTICLE_IDS) {
      const [source] = heads.get(`/blog/${id}`)!.jsonLd;
      const posting = JSON.parse(source ?? '{}');
      expect(posting['@type']).toBe('BlogPosting');
      expect(posting.headline).toBe(heads.get(`/blog/${id}`)!.title?.replace(/ \| Vértice Consultores$/, ''));
      expect(posting.datePublished).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(posting.url).toBe(new URL(`/blog/${id}`, SITE).href);
      expect(posting.publisher.name).toBe('Vértice Consultores');
      expect(posting.image).toBe(heads.get(`/blog/${id}`)!.meta.get('og:image'));
    }
  });
});

describe('social-card images', () => {
  it('are 1200x630 PNGs', async () => {
    for (const path of ['/og/default.png', ...ARTICLE_IDS.map((id) => `/og/blog/${id}.png`)]) {
      const response = await fetch(new URL(path, server.url));
      expect(response.status, path).toBe(200);
      const size = pngSize(new Uint8Array(await response.arrayBuffer()));
      expect(size, path).toEqual({ png: true, width: 1200, height: 630 });
    }
  });
});

describe('unknown addresses', () => {
  it('answer 404 with the Spanish error page, kept out of search results', async () => {
    const { status, body } = await get('/no-existe/para-nada');
    expect(status).toBe(404);
    expect(body).toContain('Página no encontrada');
    expect(readHead(body).meta.get('robots')).toBe('noindex');
  });
});
