import { ROUTES } from '../../routes';

/** True when `href` is the current page or a section containing it (`/blog` for `/blog/x`). */
export function isActive(href: string, currentPath: string): boolean {
  const path = currentPath.length > 1 ? currentPath.replace(/\/+$/, '') : currentPath;
  if (href === ROUTES.home) return path === ROUTES.home;
  return path === href || path.startsWith(`${href}/`);
}
