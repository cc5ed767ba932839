import { NAV_ITEMS, SUPPORT_LINK } from '../../routes';
import LinkList from './LinkList';

export const MOBILE_MENU_ID = 'menu-movil';

/**
 * The phone navigation: a native `popover` (top layer, Escape and outside click close it) toggled
 * by the header's menu button, whose open or closed state the browser announces from the popover (no
 * `aria-expanded`: the standard forbids it beside `popovertarget`). `frame-behaviour.ts` closes the
 * menu as soon as an item is chosen.
 */
export default function MobileMenu({ currentPath }: { currentPath: string }) {
  return (
    <nav id={MOBILE_MENU_ID} popover="auto" aria-label="Menú principal" className="mobile-menu lg:hidden">
      <LinkList
        items={[...NAV_ITEMS, SUPPORT_LINK]}
        currentPath={currentPath}
        listClassName="mx-auto flex max-w-7xl flex-col gap-1 px-4 py-4 sm:px-6"
        linkClassName="flex items-center justify-between rounded-button px-4 py-3 text-lg font-semibold text-brand-900 hover:bg-brand-50 aria-[current=page]:bg-brand-50 aria-[current=page]:text-accent-700 after:text-xl after:text-accent-600 after:content-['›']"
      />
    </nav>
  );
}
