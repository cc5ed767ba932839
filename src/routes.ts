/**
 * Route paths and navigation: the one place that names them. Company facts come from the server
 * configuration (`src/server/config.ts`) and reach components as props.
 */
export const ROUTES = {
  home: '/',
  about: '/sobrenosotros',
  services: '/servicios',
  products: '/productos',
  blog: '/blog',
  /** The help centre (issue 23): the 'Ayuda' articles by tag, `?q=` searches them (rendered on demand; the plain page from memory). */
  help: '/ayuda',
  /** Up to three help articles for a text (`GET ?q=`, JSON): the support dialog's suggestions. */
  helpSuggestions: '/api/ayuda/sugerencias',
  /** '¿Te resultó útil?' (`POST`, form fields `articulo` and `voto`): back to the article, or JSON. */
  helpVote: '/api/ayuda/util',
  contact: '/contacto',
  clients: '/clientes',
  adminLogin: '/admin-login',
  admin: '/admin',
  adminIncidents: '/admin/incidencias',
  adminClients: '/admin/clientes',
  adminSettings: '/admin/configuracion',
  adminLogout: '/api/staff/logout',
  staffIncidentsCsv: '/api/staff/incidencias.csv',
  staffActivityCsv: '/api/staff/actividad.csv',
  /** The staff area's live updates (issue 22): one Server-Sent Events stream per staff page. */
  staffEvents: '/api/staff/eventos',
  /** Prefix of the staff APIs (CSV export, sign-out). */
  staffApi: '/api/staff',
  /** The article editor's live preview: Markdown in, the public page's HTML out (issue 23). */
  staffMarkdownPreview: '/api/staff/vista-previa',
  beacon: '/api/pv',
  /** Raw mails from an MTA or a provider (issue 21): `POST`, `Authorization: Bearer INBOUND_WEBHOOK_SECRET`. */
  inboundMail: '/api/inbound-mail',
  /** Meta's WhatsApp Cloud API webhook (issue 37): `GET` the subscription check, `POST` signed with WHATSAPP_APP_SECRET. */
  whatsapp: '/api/whatsapp',
  health: '/healthz',
  /** A freshly signed form start time for the islands of prerendered pages (GET, JSON `{ startedAt }`). */
  formStamp: '/api/form-stamp',
  supportHub: '/soporte',
  supportNew: '/soporte/nueva',
  supportTracking: '/soporte/seguimiento',
  /** The customer's rating of a resolution (issue 22), opened from the 'Resuelto' mail with `?token=…&valor=N`. */
  supportRating: '/soporte/valoracion',
  productAdmcloud: '/producto/admcloud',
  productRestaurantpe: '/producto/restaurantpe',
  productTiendao: '/producto/tiendao',
  /** The contact inbox (issue 11) and its CSV export. */
  adminMessages: '/admin/mensajes',
  /** 'Contenido' (issue 23): the articles of the blog and the help centre; `/admin/contenido/nuevo` and `/admin/contenido/{id}` edit one. */
  adminContent: '/admin/contenido',
  /** 'Anuncios' (issue 23): the toast's announcements; `/admin/anuncios/nuevo` and `/admin/anuncios/{id}` edit one. */
  adminAnnouncements: '/admin/anuncios',
  /** 'Logos de clientes' (issue 23): the logo wall; `/admin/logos/nuevo` and `/admin/logos/{id}` edit one. */
  adminLogos: '/admin/logos',
  /** The parts of the public pages that follow the database, rendered by the server for itself only (src/lib/site-fragments.ts). */
  fragments: '/fragmentos',
  /** One search over incidents, messages and clients (issue 22): `?q=`. */
  adminSearch: '/admin/buscar',
  staffMessagesCsv: '/api/staff/mensajes.csv',
  /** 'Exportar CSV' of the client list (same filters as the list). */
  staffClientsCsv: '/api/staff/clientes.csv',
  /** 'Importar CSV': upload, preview and confirmation (multipart POST). */
  adminClientsImport: '/admin/clientes/importar',
  /** An incident's files (issue 21): staff at `/admin/adjuntos/{id}/{nombre}`… */
  adminAttachments: '/admin/adjuntos',
  /** …the customer at `/soporte/adjuntos/{id}/{nombre}?token=…` (the follow-up link's token). */
  supportAttachments: '/soporte/adjuntos',
  /**
   * The page the choke point renders, with status 413, for a browser's form post over its size
   * limit (src/server/http/security.ts); `?volver=` is the refused form's path.
   */
  tooLarge: '/413',
} as const;

/** A path of this site to go back to (`volver`): a local absolute path, without its query; else undefined. */
export function localReturnPath(value: string | null | undefined): string | undefined {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return undefined;
  const path = value.split(/[?#]/)[0]!;
  return /^\/[\w\-./%]*$/.test(path) ? path : undefined;
}

/**
 * Where a file of an incident is served: to staff, or (with the follow-up link's `token`) to the
 * customer; `miniatura` for an image's thumbnail.
 */
export function attachmentPath(
  id: number,
  nombre: string,
  options: { token?: string; miniatura?: boolean } = {},
): string {
  const base = options.token === undefined ? ROUTES.adminAttachments : ROUTES.supportAttachments;
  const query = new URLSearchParams();
  if (options.token !== undefined) query.set('token', options.token);
  if (options.miniatura) query.set('miniatura', '1');
  const search = query.size ? `?${query}` : '';
  return `${base}/${id}/${encodeURIComponent(nombre)}${search}`;
}

/** Prefix of Astro's action endpoints (`/_actions/contact.send`). */
export const ACTIONS_PREFIX = '/_actions/';

/** 'Ver original': a stored inbound mail as plain text, staff only. */
export const inboundOriginalPath = (id: number) => `${ROUTES.staffApi}/correo-original/${id}`;

/** The editor of an article in 'Contenido' (`/admin/contenido/{id}`; `nuevo` for a new one). */
export const adminArticlePath = (id: number | 'nuevo') => `${ROUTES.adminContent}/${id}`;
/** The staff page of one incident (`/admin/incidencias/INC-…`). */
export const incidentPath = (numeroIncidencia: string) =>
  `${ROUTES.adminIncidents}/${encodeURIComponent(numeroIncidencia)}`;

/** The staff page of one client. */
export const adminClientPath = (id: number) => `${ROUTES.adminClients}/${id}`;

/** The 'Reunión' form of one client. */
export const adminClientMeetingPath = (id: number) => `${ROUTES.adminClients}/${id}/reunion`;
/** The fields of the add-client form that `/admin/clientes` pre-fills from its query ('Crear cliente' in the inbox). */
export const CLIENT_PREFILL_FIELDS = ['nombreRepresentante', 'email'] as const;

/** The add-client form of `/admin/clientes`, pre-filled with these values (only a pre-fill: checked on submit). */
export const newClientPath = (prefill: Partial<Record<(typeof CLIENT_PREFILL_FIELDS)[number], string>>) => {
  const params = new URLSearchParams();
  for (const name of CLIENT_PREFILL_FIELDS) if (prefill[name]) params.set(name, prefill[name]);
  return `${ROUTES.adminClients}?${params.toString()}#nuevo-cliente`;
};

/** The path of a blog article. */
export const articlePath = (id: string) => `${ROUTES.blog}/${id}`;

/** A search of the help centre (`/ayuda?q=…`). */
export const helpSearchPath = (query: string) => `${ROUTES.help}?${new URLSearchParams({ q: query })}`;

/**
 * Whether a request is a search of the help centre (`/ayuda?q=…` with words): rendered on demand, so
 * the memory table that answers the plain `/ayuda` lets it through (scripts/start.ts).
 */
export function isHelpSearchUrl(url: string): boolean {
  const query = url.indexOf('?');
  if (query < 0 || url.slice(0, query) !== ROUTES.help) return false;
  return (new URLSearchParams(url.slice(query + 1)).get('q') ?? '').trim() !== '';
}

/**
 * The public pages with a fixed path, in the order of the sitemap: what the sitemap lists and the
 * page-view beacon counts. Blog articles are added by the callers from the content collection. A unit
 * test fails when a page file under src/pages is neither listed here nor a staff, sign-in or error page.
 */
export const PUBLIC_PAGES: readonly string[] = [
  ROUTES.home,
  ROUTES.about,
  ROUTES.services,
  ROUTES.products,
  ROUTES.productAdmcloud,
  ROUTES.productRestaurantpe,
  ROUTES.productTiendao,
  ROUTES.blog,
  ROUTES.help,
  ROUTES.clients,
  ROUTES.contact,
  ROUTES.supportHub,
  ROUTES.supportNew,
  ROUTES.supportTracking,
  ROUTES.supportRating,
];

const within = (pathname: string, base: string) => pathname === base || pathname.startsWith(`${base}/`);

/** A staff page: `/admin` and everything under it. */
export const isStaffPage = (pathname: string): boolean => within(pathname, ROUTES.admin);

/** A staff endpoint by its path (the CSV export); staff actions are told by their definition (src/actions/staff/index.ts). */
export const isStaffEndpoint = (pathname: string): boolean =>
  pathname.startsWith(`${ROUTES.staffApi}/`) && pathname !== ROUTES.adminLogout;

/** Staff area by path alone: pages, sign-in and staff APIs. */
export const isStaffPath = (pathname: string): boolean =>
  isStaffPage(pathname) || within(pathname, ROUTES.adminLogin) || within(pathname, ROUTES.staffApi);

/** Never cached by a browser or a proxy, never counted as a page view: the staff area, APIs, actions, health, the server's own fragments. */
export const isPrivatePath = (pathname: string): boolean =>
  isStaffPath(pathname) ||
  pathname.startsWith('/api/') ||
  pathname.startsWith(ACTIONS_PREFIX) ||
  pathname === ROUTES.health ||
  within(pathname, ROUTES.fragments);

/** A public page: a listed one, a blog or help article (whether the article exists is the caller's business). */
export const isPublicPage = (pathname: string): boolean =>
  PUBLIC_PAGES.includes(pathname) || /^\/(blog|ayuda)\/[a-z0-9-]+$/.test(pathname);

/**
 * Where the public forms post when JavaScript is off: on-demand pages that run the action (Astro's
 * `?_action=` form handling) and show the result, or the errors with the values kept.
 */
export const FORM_ACTIONS = {
  incidentCreate: `${ROUTES.supportNew}?_action=incidents.create`,
  incidentTrack: `${ROUTES.supportTracking}?_action=incidents.track`,
  incidentAnswer: `${ROUTES.supportTracking}?_action=incidents.answer`,
  incidentRate: `${ROUTES.supportRating}?_action=incidents.rate`,
  incidentRateFollowUp: `${ROUTES.supportTracking}?_action=incidents.rateFollowUp`,
  contactSend: `${ROUTES.supportHub}?_action=contact.send#contacto`,
} as const;

export interface NavItem {
  href: string;
  label: string;
}

/** The header navigation of the spec, in order. The admin link is rendered separately (icon + label). */
export const NAV_ITEMS: readonly NavItem[] = [
  { href: ROUTES.home, label: 'Inicio' },
  { href: ROUTES.about, label: 'Sobre Nosotros' },
  { href: ROUTES.services, label: 'Servicios' },
  { href: ROUTES.products, label: 'Productos' },
  { href: ROUTES.blog, label: 'Blog' },
  { href: ROUTES.contact, label: 'Contacto' },
];

/**
 * The support centre (open an incident, follow one, write to us): not in the spec's header list, so it
 * is linked from the footer and the phone menu, where a visitor (and a crawler) finds it from any page.
 */
export const SUPPORT_LINK: NavItem = { href: ROUTES.supportHub, label: 'Centro de soporte' };

/** The help centre's articles (issue 23): linked from the footer and the support hub. */
export const HELP_LINK: NavItem = { href: ROUTES.help, label: 'Centro de ayuda' };

export const ADMIN_LINK = {
  href: ROUTES.adminLogin,
  desktopLabel: 'Panel Administrativo',
  mobileLabel: 'Admin',
} as const;

/** The client list's query string (`?q=…&estado=…&archivados=1&pagina=N`), '' when empty; shared by the list's pages and its CSV link. */
export function clientListQuery(view: {
  search?: string | undefined;
  estado?: string | undefined;
  archived?: boolean;
  page?: number;
}): string {
  const params = new URLSearchParams();
  if (view.search) params.set('q', view.search);
  if (view.estado) params.set('estado', view.estado);
  if (view.archived) params.set('archivados', '1');
  if (view.page && view.page > 1) params.set('pagina', String(view.page));
  const query = params.toString();
  return query ? `?${query}` : '';
}
