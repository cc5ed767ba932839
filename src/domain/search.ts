/**
 * The staff search's vocabulary (`/admin/buscar`, issue 22): its address, the labels of its groups and
 * of the conversation entries a result quotes. Free of server code, so the page and the frame share it.
 */
/** The longest query read from the address (longer ones are cut). */
export const SEARCH_MAX_LENGTH = 200;

/** The query of `?q=`, trimmed and cut; empty when absent. */
export function parseSearchQuery(params: URLSearchParams): string {
  return (params.get('q') ?? '').trim().slice(0, SEARCH_MAX_LENGTH);
}

/** The kinds of record searched, in the order the results show them. */
export const SEARCH_KINDS = ['incidents', 'messages', 'clients'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export const SEARCH_GROUP_LABELS: Record<SearchKind, string> = {
  incidents: 'Incidencias',
  messages: 'Mensajes',
  clients: 'Clientes',
};

/** What a quoted conversation entry is, by its kind. */
export const INCIDENT_ENTRY_LABELS = {
  reply: 'Respuesta al cliente',
  answer: 'Respuesta del cliente',
  note: 'Nota interna',
} as const;
