/**
 * Outcome messages show once (issue 25 §15). A write redirects (303) to its page with the outcome in
 * the address (`?hecho=…` on staff pages, `?creado=…` on the client list, `?respuesta=enviada` and
 * `?valoracion=enviada` on the follow-up page), which the page renders as a status message. When that same address is loaded
 * again (a reload, or back/forward without the page cache), this removes those messages: what
 * happened was already said.
 *
 * Why not drop the parameter with `history.replaceState`: the address is what scripts and the e2e
 * suite wait on after a write (`waitForURL(/hecho=…/)`), and rewriting it a few milliseconds after
 * load raced them (seven suites timed out). Why not a one-time cookie set by the action: every action,
 * the middleware and each page's reading would change, and a second tab or a cached response could
 * consume it or show it on the wrong page. Without JavaScript a reload shows the message again
 * (harmless: it only repeats what happened, nothing is posted again).
 */
const OUTCOME_PARAMS = ['hecho', 'creado', 'respuesta', 'valoracion'];

const params = new URLSearchParams(window.location.search);
const loaded = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
if (loaded && loaded.type !== 'navigate' && OUTCOME_PARAMS.some((name) => params.has(name))) {
  for (const message of document.querySelectorAll('main [role="status"]')) message.remove();
}

export {};
