/**
 * A freshly signed start time for a public form (src/server/http/form-stamp.ts): the islands of
 * prerendered pages (home, /contacto) ask for it when their form is first used, since the HTML of
 * those pages was made at build time. Same-origin GET only; never cached; nothing is stored.
 */
import type { APIRoute } from 'astro';
import { newFormStamp } from '../../server/http/index.ts';

export const prerender = false;

// no-store: each form gets its own time; a cached answer would be older than it says (and expire).
export const GET: APIRoute = () =>
  Response.json({ startedAt: newFormStamp() }, { headers: { 'Cache-Control': 'no-store' } });
