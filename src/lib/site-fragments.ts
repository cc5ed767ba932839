/**
 * The parts of prerendered pages that follow the database (issue 23, docs/decisions/0019): the
 * what's-new toast of every public page, the client logo wall of the home page and /clientes, and the
 * opening hours ('horario', from 'Tiempos de respuesta': issue 39 §12) of the home page and /contacto. The
 * build writes each between two comments; the memory table of the built files puts the current
 * rendering in their place at every change of the content (src/server/content/public-pages.ts), and
 * an on-demand page's layout writes the current one itself ({@link currentFragment}). Each current
 * rendering comes from this site's own on-demand route (`/fragmentos/{name}`), through the same
 * components as the built page.
 */

export const FRAGMENT_NAMES = ['novedades', 'logos-inicio', 'logos-clientes', 'horario'] as const;
export type FragmentName = (typeof FRAGMENT_NAMES)[number];

/** The route that renders a fragment. */
/** ROUTES.fragments (src/routes.ts), written out: this module is also read by the layout of every public page. */
export const FRAGMENTS_PREFIX = '/fragmentos';
export const fragmentPath = (name: FragmentName) => `${FRAGMENTS_PREFIX}/${name}`;

export const fragmentStart = (name: FragmentName) => `<!--fragmento:${name}-->`;
export const fragmentEnd = (name: FragmentName) => `<!--/fragmento:${name}-->`;

/** True when the page has any replaceable part. */
export function hasFragments(html: string): boolean {
  return html.includes('<!--fragmento:');
}

/** The page with each marked part replaced by its current rendering (parts with none are left as built). */
export function substituteFragments(html: string, fragments: ReadonlyMap<FragmentName, string>): string {
  let out = html;
  for (const [name, content] of fragments) {
    const start = fragmentStart(name);
    const end = fragmentEnd(name);
    let from = 0;
    for (;;) {
      const open = out.indexOf(start, from);
      if (open < 0) break;
      const close = out.indexOf(end, open + start.length);
      if (close < 0) break;
      out = out.slice(0, open + start.length) + content + out.slice(close);
      from = open + start.length + content.length + end.length;
    }
  }
  return out;
}

interface FragmentsHolder {
  __verticeFragments?: Map<FragmentName, string>;
  __verticeRenderSecret?: string;
}

/** The current rendering of a fragment in this process (null before the first render: the page keeps its own). */
export function currentFragment(name: FragmentName): string | null {
  return (globalThis as FragmentsHolder).__verticeFragments?.get(name) ?? null;
}

/** Set by the renderer after each render (on `globalThis`: the bundled server and the start script share it). */
export function setCurrentFragments(fragments: ReadonlyMap<FragmentName, string>): void {
  (globalThis as FragmentsHolder).__verticeFragments = new Map(fragments);
}

/** The per-process secret of the server's requests to itself (scripts/start.ts). */
export function setRenderSecret(secret: string): void {
  (globalThis as FragmentsHolder).__verticeRenderSecret = secret;
}

/** True for this server's own render request (the fragment routes answer nobody else). */
export function isRenderRequest(headers: Headers): boolean {
  const secret = (globalThis as FragmentsHolder).__verticeRenderSecret;
  return Boolean(secret) && headers.get('x-vertice-render') === secret;
}
