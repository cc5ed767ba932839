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
  contact: '/contacto',
  clients: '/clientes',
  adminLogin: '/admin-login',
  admin: '/admin',
  adminIncidents: '/admin/incidencias',
  adminClients: '/admin/clientes',
  adminLogout: '/api/staff/logout',
  /** Prefix of the staff APIs (CSV export, sign-out). */
  staffApi: '/api/staff',
  beacon: '/api/pv',
  /** A freshly signed form start time for the islands of prerendered pages (GET, JSON `{ startedAt }`). */
  formStamp: '/api/form-stamp',
  supportHub: '/soporte',
  supportNew: '/soporte/nueva',
  supportTracking: '/soporte/seguimiento',
  productAdmcloud: '/producto/admcloud',
  productRestaurantpe: '/producto/restaurantpe',
  productTiendao: '/producto/tiendao',
} as const;

/**
 * Where the public forms post when JavaScript is off: on-demand pages that run the action (Astro's
 * `?_action=` form handling) and show the result, or the errors with the values kept.
 */
export const FORM_ACTIONS = {
  incidentCreate: `${ROUTES.supportNew}?_action=incidents.create`,
  incidentTrack: `${ROUTES.supportTracking}?_action=incidents.track`,
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

export const ADMIN_LINK = {
  href: ROUTES.adminLogin,
  desktopLabel: 'Panel Administrativo',
  mobileLabel: 'Admin',
} as const;

