/**
 * Where the public forms post when JavaScript is off: on-demand pages that run the action (Astro's
 * `?_action=` form handling) and show the result, or the errors with the values kept.
 */
export const SUPPORT_PAGES = {
  hub: '/soporte',
  newIncident: '/soporte/nueva',
  tracking: '/soporte/seguimiento',
} as const;

export const FORM_ACTIONS = {
  incidentCreate: `${SUPPORT_PAGES.newIncident}?_action=incidents.create`,
  incidentTrack: `${SUPPORT_PAGES.tracking}?_action=incidents.track`,
  contactSend: `${SUPPORT_PAGES.hub}?_action=contact.send#contacto`,
} as const;

/** Remote-desktop tools staff use to help (spec §2); official download pages. */
export const REMOTE_TOOLS = [
  { name: 'AnyDesk', href: 'https://anydesk.com/es/downloads' },
  { name: 'TeamViewer', href: 'https://www.teamviewer.com/es/descarga/' },
] as const;
