/**
 * The contact inbox's vocabulary (`/admin/mensajes`, issue 11): its two filters, their Spanish labels
 * and how the list's view (filter, search, page) travels in the URL. Free of server code, so the page,
 * the CSV endpoint and the panel share it.
 */

/** 'Pendientes' (not handled yet, the default) or 'Atendidos'. */
export const MESSAGE_FILTERS = ['pendientes', 'atendidos'] as const;
export type MessageFilter = (typeof MESSAGE_FILTERS)[number];

export const MESSAGE_FILTER_LABELS: Record<MessageFilter, string> = {
  pendientes: 'Pendientes',
  atendidos: 'Atendidos',
};

export const DEFAULT_MESSAGE_FILTER: MessageFilter = 'pendientes';

export function isMessageFilter(value: unknown): value is MessageFilter {
  return typeof value === 'string' && (MESSAGE_FILTERS as readonly string[]).includes(value);
}

/** The list's view: which messages, an optional search (name, e-mail or text) and the page. */
export interface MessageView {
  estado: MessageFilter;
  q?: string | undefined;
  pagina: number;
}

const MAX_SEARCH_LENGTH = 100;
const MAX_PAGE = 100_000;

/** The view from a URL's query (`?estado=&q=&pagina=`); anything else falls back to the default. */
export function parseMessageView(params: URLSearchParams): MessageView {
  const estado = params.get('estado');
  const q = params.get('q')?.trim().slice(0, MAX_SEARCH_LENGTH);
  const page = Number.parseInt(params.get('pagina') ?? '1', 10);
  return {
    estado: isMessageFilter(estado) ? estado : DEFAULT_MESSAGE_FILTER,
    q: q ? q : undefined,
    pagina: Number.isFinite(page) && page >= 1 && page <= MAX_PAGE ? page : 1,
  };
}

/** The query string of a view (`?…` or ''), the default filter and the first page left out. */
export function messageViewQuery(view: Partial<MessageView>): string {
  const params = new URLSearchParams();
  if (view.estado && view.estado !== DEFAULT_MESSAGE_FILTER) params.set('estado', view.estado);
  if (view.q) params.set('q', view.q);
  if (view.pagina && view.pagina > 1) params.set('pagina', String(view.pagina));
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** The most pending messages `countPendingMessages` counts: beyond it the count reads "999+". */
export const PENDING_COUNT_CAP = 1000;

/** A pending count as the sidebar (and the dashboard) shows it: "999+" from the cap on. */
export function formatPendingCount(count: number): string {
  return count >= PENDING_COUNT_CAP ? `${PENDING_COUNT_CAP - 1}+` : String(count);
}
