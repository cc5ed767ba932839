import { ADMIN_LINK, NAV_ITEMS, ROUTES } from '../../consts';

export interface HeaderProps {
  /** Path of the current page, to mark the active item with `aria-current="page"`. */
  currentPath: string;
  companyName: string;
}

function isActive(href: string, currentPath: string): boolean {
  if (href === ROUTES.home) return currentPath === ROUTES.home;
  return currentPath === href || currentPath.startsWith(`${href}/`);
}

/** Fixed 72 px header: logo to `/`, navigation, admin link. Rendered on the server, no JavaScript. */
export default function Header({ currentPath, companyName }: HeaderProps) {
  return (
    <header className="fixed inset-x-0 top-0 z-40 h-header border-b border-line bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-full max-w-7xl items-center justify-between gap-6 px-4 sm:px-6">
        <a href={ROUTES.home} className="flex items-center gap-2 font-bold text-brand-900" aria-label={`${companyName}: Inicio`}>
          <span aria-hidden="true" className="grid size-9 place-items-center rounded-button bg-brand-900 text-white">V</span>
          <span className="text-lg">{companyName}</span>
        </a>
        <nav aria-label="Principal">
          <ul className="flex flex-wrap items-center gap-4 text-sm font-medium">
            {NAV_ITEMS.map((item) => (
              <li key={item.href}>
                <a
                  href={item.href}
                  aria-current={isActive(item.href, currentPath) ? 'page' : undefined}
                  className="text-muted hover:text-brand-700 aria-[current=page]:text-brand-700"
                >
                  {item.label}
                </a>
              </li>
            ))}
            <li>
              <a href={ADMIN_LINK.href} className="text-muted hover:text-brand-700">
                {ADMIN_LINK.desktopLabel}
              </a>
            </li>
          </ul>
        </nav>
      </div>
    </header>
  );
}
