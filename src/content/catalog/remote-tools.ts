/** Remote-desktop tools staff use to help (spec §2); official download pages. */
export const REMOTE_TOOLS = [
  { name: 'AnyDesk', href: 'https://anydesk.com/es/downloads' },
  { name: 'TeamViewer', href: 'https://www.teamviewer.com/es/descarga/' },
] as const;
