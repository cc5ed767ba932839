import type { ReactNode } from 'react';
import { formatPendingCount } from '../../domain/messages';
import { ROUTES } from '../../routes';
import { CollapseIcon, GearIcon, HomeIcon, InboxIcon, LogoutIcon, MenuIcon, TicketIcon, UsersIcon } from './icons';

export interface AdminShellProps {
  /** Path of the current page, to mark the active item. */
  currentPath: string;
  companyName: string;
  /** E-mail of the signed-in staff member. */
  userEmail: string;
  /** Contact messages nobody has marked 'atendido' yet ('Mensajes' badge); unknown when undefined. */
  pendingMessages?: number | undefined;
  children?: ReactNode;
}

const ITEMS = [
  { href: ROUTES.admin, label: 'Inicio', Icon: HomeIcon },
  { href: ROUTES.adminIncidents, label: 'Incidencias', Icon: TicketIcon },
  { href: ROUTES.adminClients, label: 'Clientes', Icon: UsersIcon },
  { href: ROUTES.adminMessages, label: 'Mensajes', Icon: InboxIcon },
  { href: ROUTES.adminSettings, label: 'Configuración', Icon: GearIcon },
] as const;

/** "1 pendiente", "22 pendientes", "999+ pendientes". */
const pendingPhrase = (count: number) => `${formatPendingCount(count)} ${count === 1 ? 'pendiente' : 'pendientes'}`;

/** The 'Mensajes' badge: the pending count, read by screen readers as a phrase. */
function PendingBadge({ count }: { count: number }) {
  const shown = formatPendingCount(count);
  return (
    <span className="nav-label ml-auto">
      <span aria-hidden="true" data-testid="mensajes-pendientes" className="rounded-full bg-accent-500 px-2 py-0.5 text-xs font-semibold text-brand-950">
        {shown}
      </span>
      <span className="sr-only">{` (${pendingPhrase(count)})`}</span>
    </span>
  );
}

function NavList({ currentPath, idPrefix, pendingMessages }: { currentPath: string; idPrefix: string; pendingMessages?: number | undefined }) {
  return (
    <ul className="flex flex-col gap-1" id={`${idPrefix}-lista`}>
      {ITEMS.map(({ href, label, Icon }) => {
        const active = href === ROUTES.admin ? currentPath === href : currentPath.startsWith(href);
        const badge = href === ROUTES.adminMessages && pendingMessages ? pendingMessages : 0;
        return (
          <li key={href}>
            <a
              href={href}
              aria-current={active ? 'page' : undefined}
              title={badge ? `${label} (${pendingPhrase(badge)})` : label}
              className="flex items-center gap-3 rounded-button px-3 py-2.5 text-sm font-medium text-brand-100 transition-colors hover:bg-white/10 hover:text-white aria-[current=page]:bg-white aria-[current=page]:text-brand-900"
            >
              <Icon className="size-5 shrink-0" />
              <span className="nav-label">{label}</span>
              {badge ? <PendingBadge count={badge} /> : null}
            </a>
          </li>
        );
      })}
    </ul>
  );
}

function Brand({ companyName }: { companyName: string }) {
  return (
    <a href={ROUTES.admin} className="flex items-center gap-2.5 font-semibold text-white">
      <span aria-hidden="true" className="grid size-9 shrink-0 place-items-center rounded-button bg-accent-500 text-base font-bold text-brand-950">
        V
      </span>
      <span className="nav-label leading-tight">
        {companyName}
        <span className="block text-xs font-normal text-brand-100/80">Panel Administrativo</span>
      </span>
    </a>
  );
}

function LogoutButton({ compact = false }: { compact?: boolean }) {
  return (
    <form method="post" action={ROUTES.adminLogout}>
      <button
        type="submit"
        className={
          compact
            ? 'inline-flex shrink-0 items-center gap-2 rounded-button border border-line px-3 py-2 text-sm font-medium whitespace-nowrap text-brand-900 hover:bg-brand-50'
            : 'flex w-full items-center gap-3 rounded-button px-3 py-2.5 text-sm font-medium text-brand-100 hover:bg-white/10 hover:text-white'
        }
      >
        <LogoutIcon className="size-5 shrink-0" />
        <span className={compact ? 'sr-only sm:not-sr-only' : 'nav-label'}>Cerrar sesión</span>
      </button>
    </form>
  );
}

/**
 * Frame of the staff pages, without JavaScript: on a desktop the sidebar collapses to icons with a
 * checkbox (CSS `:has(:checked)`); on a phone it is a `popover` opened from the top bar.
 */
export default function AdminShell({ currentPath, companyName, userEmail, pendingMessages, children }: AdminShellProps) {
  return (
    <div className="admin-shell min-h-dvh bg-surface lg:flex">
      <aside className="admin-sidebar sticky top-0 hidden h-dvh w-64 shrink-0 flex-col gap-6 bg-brand-900 p-4 transition-[width] duration-200 lg:flex">
        <div className="flex items-center justify-between gap-2">
          <Brand companyName={companyName} />
        </div>
        <nav aria-label="Panel administrativo" className="flex-1">
          <NavList currentPath={currentPath} idPrefix="lateral" pendingMessages={pendingMessages} />
        </nav>
        <div className="flex flex-col gap-2 border-t border-white/10 pt-4">
          <label className="flex cursor-pointer items-center gap-3 rounded-button px-3 py-2.5 text-sm text-brand-100 hover:bg-white/10 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent-500">
            <input type="checkbox" id="colapsar-menu" className="sr-only" />
            <CollapseIcon className="size-5 shrink-0" />
            <span className="nav-label">Contraer menú</span>
          </label>
          <LogoutButton />
        </div>
      </aside>

      <div className="min-w-0 flex-1">
        <header className="sticky top-0 z-30 flex h-header items-center justify-between gap-3 border-b border-line bg-white/95 px-4 backdrop-blur sm:px-6">
          <div className="flex min-w-0 items-center gap-3">
            <button
              type="button"
              popoverTarget="menu-admin"
              className="inline-flex size-10 items-center justify-center rounded-button border border-line text-brand-900 lg:hidden"
              aria-label="Abrir menú"
            >
              <MenuIcon />
            </button>
            <span className="min-w-0 truncate text-sm text-muted">
              <span className="hidden sm:inline">Sesión: </span>
              <strong className="font-medium text-ink">{userEmail}</strong>
            </span>
          </div>
          <div className="shrink-0 lg:hidden">
            <LogoutButton compact />
          </div>
        </header>
        <main id="contenido" className="mx-auto max-w-6xl p-4 sm:p-6 lg:p-8">
          {children}
        </main>
      </div>

      <nav
        id="menu-admin"
        popover="auto"
        aria-label="Panel administrativo (móvil)"
        className="admin-drawer m-0 h-dvh max-h-none w-72 max-w-[85vw] flex-col gap-6 bg-brand-900 p-4 backdrop:bg-brand-950/50 open:flex"
      >
        <div className="flex items-center justify-between">
          <Brand companyName={companyName} />
          <button type="button" popoverTarget="menu-admin" popoverTargetAction="hide" className="rounded-button px-2 py-1 text-sm text-brand-100 hover:bg-white/10">
            Cerrar
          </button>
        </div>
        <NavList currentPath={currentPath} idPrefix="movil" pendingMessages={pendingMessages} />
      </nav>
    </div>
  );
}
