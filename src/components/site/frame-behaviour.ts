/**
 * The frame's only script (bundled by SiteLayout, a few hundred bytes): reveals the what's-new toast
 * and closes the mobile menu when an item is chosen. Everything else in the frame is HTML and CSS.
 */
const toast = document.getElementById('whatsnew');
if (toast) {
  for (const item of toast.querySelectorAll<HTMLElement>('[data-whatsnew]')) {
    const key = `whatsnew-${item.dataset.whatsnew}`;
    try {
      if (localStorage.getItem(key)) continue;
      localStorage.setItem(key, new Date().toISOString());
    } catch {
      // Storage blocked: showing the same news on every page would nag, so show none.
      break;
    }
    item.hidden = false;
    toast.hidden = false;
    break;
  }
  toast.querySelector('[data-whatsnew-close]')?.addEventListener('click', () => {
    toast.hidden = true;
  });
}

const menu = document.getElementById('menu-movil');
if (menu) {
  // Choosing an item closes the menu at once, even before the next page arrives.
  menu.addEventListener('click', (event) => {
    if ((event.target as Element).closest('a')) menu.hidePopover();
  });
}

// Cookie-less page-view count for the staff dashboard: only the path is sent, nothing about the visitor.
// The path is ROUTES.beacon, written out: importing routes.ts here makes Vite split a shared chunk that
// every page would download before the first interaction (a unit test keeps the two equal).
navigator.sendBeacon?.('/api/pv', location.pathname);
