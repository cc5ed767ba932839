/**
 * The frame's only script (bundled by SiteLayout, about a kilobyte): reveals the what's-new toast where
 * it covers no form and no outcome, and closes the mobile menu when an item is chosen. Everything else
 * in the frame is HTML and CSS.
 */
const toast = document.getElementById('whatsnew');
if (toast) {
  let pending: HTMLElement | undefined;
  for (const item of toast.querySelectorAll<HTMLElement>('[data-whatsnew]')) {
    try {
      if (localStorage.getItem(`whatsnew-${item.dataset.whatsnew}`)) continue;
    } catch {
      // Storage blocked: showing the same news on every page would nag, so show none.
      break;
    }
    pending = item;
    break;
  }
  if (pending) {
    const shown = pending;
    // What the toast never covers: a form (its fields, its buttons, its outcome), an outcome announced
    // outside one, each block of an article's text (a help article's, a blog post's: issue 39 §12), and
    // whatever a page marks (a primary call to action: `data-keep-clear`). While one is under it the
    // toast steps aside (invisible, out of the reading order) and comes back once the visitor scrolls
    // on; the announcement counts as seen only once it was visible.
    const KEEP_CLEAR =
      'main form, main [role="status"], main [role="alert"], main .article-body > *, [data-keep-clear]';
    let closed = false;
    let seen = false;
    let queued = false;
    const place = () => {
      queued = false;
      if (closed) return;
      const box = toast.getBoundingClientRect();
      const covers = [...document.querySelectorAll(KEEP_CLEAR)].some((element) => {
        const other = element.getBoundingClientRect();
        return (
          other.width > 0 &&
          other.height > 0 &&
          other.left < box.right &&
          box.left < other.right &&
          other.top < box.bottom &&
          box.top < other.bottom
        );
      });
      toast.style.visibility = covers ? 'hidden' : '';
      if (covers || seen) return;
      seen = true;
      try {
        localStorage.setItem(`whatsnew-${shown.dataset.whatsnew}`, new Date().toISOString());
      } catch {
        // Storage refused after all: the visitor simply sees it again later.
      }
    };
    const schedule = () => {
      if (queued || closed) return;
      queued = true;
      requestAnimationFrame(place);
    };
    shown.hidden = false;
    toast.style.visibility = 'hidden';
    toast.hidden = false;
    place();
    addEventListener('scroll', schedule, { passive: true });
    addEventListener('resize', schedule);
    // A form's outcome appears without a scroll; islands render after load.
    const main = document.querySelector('main');
    if (main)
      new MutationObserver(schedule).observe(main, { childList: true, subtree: true, attributes: true });
    toast.querySelector('[data-whatsnew-close]')?.addEventListener('click', () => {
      closed = true;
      toast.hidden = true;
    });
  }
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
