/**
 * Outcome messages show once (issue 25 §15). A write redirects (303) to its page with the outcome in
 * the address (`?hecho=…` on staff pages, `?creado=…` on the client list, `?respuesta=enviada` on the
 * follow-up page), which the page renders as a message. Once the page has rendered it, this drops
 * the parameter from the address with `history.replaceState`, so a reload, a bookmark or a copied
 * link shows the page without it; the rest of the address (filters, token, fragment) stays.
 *
 * Chosen over a one-time cookie set by the action: no state on the server or in the browser that a
 * second tab, a failed render or a cached response could consume or show on the wrong page, and
 * back/forward keeps working. Without JavaScript the parameter stays, and a reload shows the message
 * again (harmless: it only repeats what happened, it never posts again).
 */
const OUTCOME_PARAMS = ['hecho', 'creado', 'respuesta'] as const;

const url = new URL(window.location.href);
const present = OUTCOME_PARAMS.filter((name) => url.searchParams.has(name));
if (present.length > 0) {
  for (const name of present) url.searchParams.delete(name);
  window.history.replaceState(window.history.state, '', url);
}
