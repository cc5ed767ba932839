import { ADMIN_LINK, NAV_ITEMS, ROUTES } from '../../routes';
import LinkList from './LinkList';
import { GearIcon, MenuIcon } from './icons';
import Logo from './Logo';
import MobileMenu, { MOBILE_MENU_ID } from './MobileMenu';

export interface HeaderProps {
  /** Path of the current page, to mark the active item with `aria-current="page"`. */
  currentPath: string;
  companyName: string;
}

/**
 * Fixed 72 px header: logo to `/`, the navigation bar (desktop) or a popover menu (phones), and
 * the staff link. Rendered on the server; the menu is a native popover, so it needs no island.
 */
export default function Header({ currentPath, companyName }: HeaderProps) {
  return (
    <header className="fixed inset-x-0 top-0 z-40 h-header border-b border-line/80 bg-white/95 backdrop-blur supports-[backdrop-filter]:bg-white/85">
      <div className="mx-auto flex h-full max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <a href={ROUTES.home} className="-m-1 rounded-button p-1">
          <Logo companyName={companyName} label=", ir al inicio" />
        </a>

        <nav aria-label="Principal" className="hidden lg:block">
          <LinkList
            items={NAV_ITEMS}
            currentPath={currentPath}
            listClassName="flex items-center gap-1 text-[0.94rem] font-medium"
            linkClassName="relative rounded-button px-3 py-2 text-muted transition-colors after:absolute after:inset-x-3 after:-bottom-0.5 after:h-0.5 after:scale-x-0 after:rounded-full after:bg-accent-500 after:transition-transform hover:text-brand-900 aria-[current=page]:text-brand-900 aria-[current=page]:after:scale-x-100"
          />
        </nav>

        <div className="flex items-center gap-2">
          <a
            href={ADMIN_LINK.href}
            className="hidden items-center gap-2 rounded-button border border-line px-3.5 py-2 text-sm font-semibold text-brand-900 transition-colors hover:border-brand-500 hover:bg-brand-50 lg:inline-flex"
          >
            <GearIcon />
            {ADMIN_LINK.desktopLabel}
          </a>
          <a
            href={ADMIN_LINK.href}
            className="inline-flex items-center gap-1.5 rounded-button px-2.5 py-2 text-sm font-semibold text-brand-900 hover:bg-brand-50 lg:hidden"
          >
            <GearIcon />
            {ADMIN_LINK.mobileLabel}
          </a>
          <button
            type="button"
            popoverTarget={MOBILE_MENU_ID}
            data-menu-toggle=""
            className="inline-flex size-11 items-center justify-center rounded-button border border-line text-brand-900 hover:bg-brand-50 lg:hidden"
          >
            <MenuIcon />
            <span className="sr-only">Menú</span>
          </button>
        </div>
      </div>
      <MobileMenu currentPath={currentPath} />
    </header>
  );
}
