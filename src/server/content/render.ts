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
 * TODO(issue 23): the brief asks for a maintained allow-list sanitiser on the HTML as well
 * (`sanitize-html`, or `hast-util-sanitize`); neither is installed. See the report / decision 0019.
 */
import { createSatteriMarkdownProcessor } from '@astrojs/markdown-satteri';

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
        if (!isSafeUrl(String(node.properties?.src ?? ''))) ctx.removeNode(node);
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

let processor: ReturnType<typeof createSatteriMarkdownProcessor> | undefined;

/** The article body's HTML. */
export async function renderArticleHtml(markdown: string): Promise<string> {
  processor ??= createSatteriMarkdownProcessor({
    syntaxHighlight: false,
    // Astro's own processor, with the safe mode among its HTML plugins (before the heading ids).
    hastPlugins: [safeMode as never],
  });
  const { code } = await (await processor).render(markdown);
  return code;
}
