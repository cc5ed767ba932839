import type { NavItem } from '../../routes';
import { isActive } from './nav';

export interface LinkListProps {
  items: readonly NavItem[];
  listClassName: string;
  linkClassName: string;
  /** When given, the link of this page (or of the section holding it) is marked `aria-current="page"`. */
  currentPath?: string;
}

/** A list of site links: the header and phone navigation, and the footer's columns. */
export default function LinkList({ items, listClassName, linkClassName, currentPath }: LinkListProps) {
  return (
    <ul className={listClassName}>
      {items.map((item) => (
        <li key={item.href}>
          <a
            href={item.href}
            aria-current={currentPath !== undefined && isActive(item.href, currentPath) ? 'page' : undefined}
            className={linkClassName}
          >
            {item.label}
          </a>
        </li>
      ))}
    </ul>
  );
}
