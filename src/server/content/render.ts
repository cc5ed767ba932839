/**
 * An article's Markdown as HTML for the public page (issue 23, docs/decisions/0019): parsed by the
 * same Markdown processor Astro renders `.md` content with (`@astrojs/markdown-satteri`: GFM, smart
 * punctuation, heading ids), so an imported article's HTML is what its file made.
 *
 * Safe mode of the parser, on the HTML tree before it is written out:
 * - raw HTML written in the Markdown is never HTML: it is shown as the text it is (escaped);
 * - comments are dropped;
 * - a link or image whose address is not `http:`, `https:`, `mailto:`, `tel:`, a path or an anchor
 *   (`javascript:`, `data:`, `vbscript:`, `file:`…, also hidden behind entities, case or control
 *   characters) loses its address: the link keeps its text, the image is dropped;
 * - a link to another site gets `rel="noopener noreferrer"`.
 * The only attributes left are those the parser writes (href, src, alt, title, id, align), escaped by
 * its serialiser.
 *
 *
 * Then the written HTML goes through a maintained allow-list sanitiser (`sanitize-html`,
 * {@link ARTICLE_HTML}): only the elements and attributes the parser writes for Markdown survive,
 * addresses only of the safe schemes, styles only a table cell's `text-align`. Whatever the safe mode
 * might let through by mistake, or a future version of the parser might start writing, stops there.
 */
import { createSatteriMarkdownProcessor } from '@astrojs/markdown-satteri';
import sanitizeHtml from 'sanitize-html';
import {
  ARTICLE_IMAGE_SIZES,
  articleImageFilePath,
  articleImageWidths,
  parseArticleImagePath,
  type ArticleImageRef,
} from '../../domain/article-images.ts';

/** Schemes a link or image may use; anything else (or an address that does not parse) is dropped. */
const SAFE_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);

/**
 * Whether an address from the Markdown may stay: a path, an anchor, a query, or an absolute URL of
 * a safe scheme. Control characters and whitespace, which browsers ignore inside a scheme, are
 * removed before the scheme is read.
 */
export function isSafeUrl(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  const url = value.replace(/[\u0000-\u0020\u007F-\u009F]/g, '');
  if (url === '') return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url);
  if (!scheme) return !url.startsWith('//') && !url.startsWith('\\') && !url.startsWith('/\\');
  return SAFE_SCHEMES.has(scheme[1]!.toLowerCase() + ':');
}

const isExternal = (href: string) => /^(https?:)?\/\//i.test(href.trim());

type Node = { type: string; tagName?: string; properties?: Record<string, unknown>; value?: string };
type Ctx = {
  replaceNode(node: Node, next: unknown): void;
  removeNode(node: Node): void;
  setProperty(node: Node, key: string, value: unknown): void;
  textContent(node: Node): string;
};

const safeMode = {
  name: 'vertice-safe-mode',
  raw(node: Node, ctx: Ctx) {
    ctx.replaceNode(node, { type: 'text', value: node.value ?? '' });
  },
  comment(node: Node, ctx: Ctx) {
    ctx.removeNode(node);
  },
  element: {
    filter: ['a', 'img'],
    visit(node: Node, ctx: Ctx) {
      if (node.tagName === 'img') {
        const src = String(node.properties?.src ?? '');
        const uploaded = parseArticleImagePath(src);
        if (uploaded)
          ctx.replaceNode(
            node,
            pictureOf(uploaded, String(node.properties?.alt ?? ''), node.properties?.title),
          );
        else if (!isSafeUrl(src)) ctx.removeNode(node);
        return;
      }
      const href = node.properties?.href;
      if (href === undefined) return;
      if (!isSafeUrl(String(href))) {
        ctx.replaceNode(node, { type: 'text', value: ctx.textContent(node) });
        return;
      }
      if (isExternal(String(href))) ctx.setProperty(node, 'rel', ['noopener', 'noreferrer']);
    },
  },
};

/**
 * An uploaded image's address (`/blog/imagenes/{id}-{key}-{width}x{height}`, src/domain/article-images.ts)
 * as a `<picture>`: AVIF and WebP at each width it has, for the article's column, with its width and
 * height (no layout shift) and loaded lazily.
 */
function pictureOf(image: ArticleImageRef, alt: string, title: unknown) {
  const widths = articleImageWidths(image.width);
  const srcset = (format: 'avif' | 'webp') =>
    widths.map((width) => `${articleImageFilePath(image, width, format)} ${width}w`).join(', ');
  const fallback = widths.includes(720) ? 720 : image.width;
  return {
    type: 'element',
    tagName: 'picture',
    properties: {},
    children: [
      {
        type: 'element',
        tagName: 'source',
        properties: { type: 'image/avif', srcset: srcset('avif'), sizes: ARTICLE_IMAGE_SIZES },
        children: [],
      },
      {
        type: 'element',
        tagName: 'source',
        properties: { type: 'image/webp', srcset: srcset('webp'), sizes: ARTICLE_IMAGE_SIZES },
        children: [],
      },
      {
        type: 'element',
        tagName: 'img',
        properties: {
          src: articleImageFilePath(image, fallback, 'webp'),
          alt,
          ...(typeof title === 'string' && title ? { title } : {}),
          width: image.width,
          height: image.height,
          loading: 'lazy',
          decoding: 'async',
        },
        children: [],
      },
    ],
  };
}

const HEADING_ATTRIBUTES = ['id', 'class'];
const CELL_ATTRIBUTES = ['style'];

/** What an article's HTML may hold: what the Markdown parser writes (GFM: tables, task lists, footnotes), nothing else. */
export const ARTICLE_HTML: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'pre',
    'code',
    'strong',
    'em',
    'del',
    'sup',
    'a',
    'img',
    'picture',
    'source',
    'ul',
    'ol',
    'li',
    'input',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'section',
  ],
  allowedAttributes: {
    h1: HEADING_ATTRIBUTES,
    h2: HEADING_ATTRIBUTES,
    h3: HEADING_ATTRIBUTES,
    h4: HEADING_ATTRIBUTES,
    h5: HEADING_ATTRIBUTES,
    h6: HEADING_ATTRIBUTES,
    a: [
      'href',
      'title',
      'rel',
      'id',
      'class',
      'aria-describedby',
      'aria-label',
      'data-footnote-ref',
      'data-footnote-backref',
    ],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading', 'decoding'],
    source: ['type', 'srcset', 'sizes'],
    code: ['class'],
    ul: ['class'],
    ol: ['start'],
    li: ['id', 'class'],
    input: ['type', 'checked', 'disabled'],
    th: CELL_ATTRIBUTES,
    td: CELL_ATTRIBUTES,
    section: ['class', 'data-footnotes'],
  },
  allowedClasses: {
    h2: ['sr-only'],
    code: [/^language-[\w+#-]+$/],
    ul: ['contains-task-list'],
    li: ['task-list-item'],
    a: ['data-footnote-backref'],
    section: ['footnotes'],
  },
  allowedStyles: {
    th: { 'text-align': [/^(left|right|center)$/] },
    td: { 'text-align': [/^(left|right|center)$/] },
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  // A picture's <source> is a void element, written as such.
  selfClosing: [...sanitizeHtml.defaults.selfClosing, 'source'],
  // A task list's box is shown, never a field to fill in.
  exclusiveFilter: (frame) => frame.tag === 'input' && frame.attribs.type !== 'checkbox',
};

let processor: ReturnType<typeof createSatteriMarkdownProcessor> | undefined;

/** The article body's HTML. */
export async function renderArticleHtml(markdown: string): Promise<string> {
  processor ??= createSatteriMarkdownProcessor({
    syntaxHighlight: false,
    // Astro's own processor, with the safe mode among its HTML plugins (before the heading ids).
    hastPlugins: [safeMode as never],
  });
  const { code } = await (await processor).render(markdown);
  return sanitizeHtml(code, ARTICLE_HTML);
}
