/**
 * What a reader and a crawler get from the blog's pages, extracted from their HTML, RSS and sitemap
 * so that two renderings can be compared (issue 23: the blog before and after its articles moved to
 * the database). The site's origin is left out of every address, so a build's placeholder and a
 * running server's address compare equal. Images are named by their illustration (the file name
 * before Astro's content hash) with their size and text.
 */

/** An address without the site's origin. */
const local = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');
const decode = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&');
const attr = (tag: string, name: string) => {
  const value = new RegExp(`\\s${name}="([^"]*)"`, 'i').exec(tag)?.[1];
  return value === undefined ? undefined : decode(value);
};
/** `/_astro/mejor-erp-2025.CcRPRbrP_1jLiGH.svg` → `mejor-erp-2025.svg`. */
const illustration = (src: string) => src.replace(/^.*\//, '').replace(/\.[A-Za-z0-9_-]+(\.[a-z]+)$/, '$1');
const text = (html: string) =>
  decode(
    html
      .replace(/<(script|style)\b[\s\S]*?<\/\1>/g, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' '),
  ).trim();

export interface BlogPageSummary {
  title: string;
  description: string | undefined;
  canonical: string | undefined;
  ogImage: string | undefined;
  ogImageAlt: string | undefined;
  jsonLd: unknown[];
  h1: string;
  /** The text of `<main>`. */
  text: string;
  images: Array<{
    file: string;
    width: string | undefined;
    height: string | undefined;
    alt: string | undefined;
  }>;
  times: Array<{ datetime: string | undefined; label: string }>;
  links: string[];
  /** The article's body HTML (between `.article-body` and its end), for articles. */
  bodyHtml: string | undefined;
}

export function summarizeBlogPage(html: string): BlogPageSummary {
  const main = /<main\b[\s\S]*<\/main>/.exec(html)?.[0] ?? html;
  const meta = (property: string) => {
    const tag = new RegExp(`<meta[^>]*(?:property|name)="${property}"[^>]*>`).exec(html)?.[0];
    return tag ? attr(tag, 'content') : undefined;
  };
  const body = /<div class="article-body[^"]*">([\s\S]*?)<\/div><div class="mx-auto mt-14/.exec(main)?.[1];
  return {
    title: text(/<title>([\s\S]*?)<\/title>/.exec(html)?.[1] ?? ''),
    description: meta('description'),
    canonical: (() => {
      const tag = /<link[^>]*rel="canonical"[^>]*>/.exec(html)?.[0];
      const href = tag ? attr(tag, 'href') : undefined;
      return href && local(href);
    })(),
    ogImage: (() => {
      const value = meta('og:image');
      return value && local(value);
    })(),
    ogImageAlt: meta('og:image:alt'),
    jsonLd: [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((match) =>
      JSON.parse(match[1]!.replace(/https?:\/\/[^/"]+(?=[/"])/g, '')),
    ),
    h1: text(/<h1\b[\s\S]*?<\/h1>/.exec(main)?.[0] ?? ''),
    text: text(main),
    images: [...main.matchAll(/<img\b[^>]*>/g)].map(([tag]) => ({
      file: illustration(attr(tag, 'src') ?? ''),
      width: attr(tag, 'width'),
      height: attr(tag, 'height'),
      alt: attr(tag, 'alt'),
    })),
    times: [...main.matchAll(/<time\b([^>]*)>([\s\S]*?)<\/time>/g)].map((match) => ({
      datetime: attr(match[0], 'datetime'),
      label: text(match[2]!),
    })),
    links: [...main.matchAll(/<a\b[^>]*>/g)].map(([tag]) => local(attr(tag, 'href') ?? '')),
    bodyHtml: body?.trim(),
  };
}

/** The feed's items: title, link, description and the calendar day of pubDate (its hour is not compared: see decision 0019). */
export function summarizeRss(xml: string) {
  return {
    title: /<channel><title>([\s\S]*?)<\/title>/.exec(xml)?.[1],
    items: [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map(([, item]) => ({
      title: decode(/<title>([\s\S]*?)<\/title>/.exec(item!)?.[1] ?? ''),
      link: local(/<link>([\s\S]*?)<\/link>/.exec(item!)?.[1] ?? ''),
      description: decode(/<description>([\s\S]*?)<\/description>/.exec(item!)?.[1] ?? ''),
      day: new Date(/<pubDate>([\s\S]*?)<\/pubDate>/.exec(item!)?.[1] ?? '').toISOString().slice(0, 10),
    })),
  };
}

/** The sitemap's entries, without the origin. */
export function summarizeSitemap(xml: string) {
  return [...xml.matchAll(/<url><loc>([^<]*)<\/loc>(?:<lastmod>([^<]*)<\/lastmod>)?<\/url>/g)].map((match) =>
    match[2] ? { loc: local(match[1]!), lastmod: match[2] } : { loc: local(match[1]!) },
  );
}
