/**
 * A freshly signed start time for a public form (src/server/http/form-stamp.ts): the islands of
 * prerendered pages (home, /contacto) ask for it when their form is first used, since the HTML of
 * those pages was made at build time. Same-origin GET only; never cached; nothing is stored. It also
 * says whether the WhatsApp channel is on now (issue 37: 'Escribir por WhatsApp' in the support dialog),
 * which the HTML of a prerendered page could only know as it was at build time.
 */
import type { APIRoute } from 'astro';
import { whatsappSettings } from '../../server/channels/index.ts';
import { getConfig } from '../../server/config.ts';
import { newFormStamp } from '../../server/http/index.ts';

export const prerender = false;

// no-store: each form gets its own time; a cached answer would be older than it says (and expire).
export const GET: APIRoute = () =>
  Response.json(
    { startedAt: newFormStamp(), whatsapp: whatsappSettings(getConfig()) !== null },
    { headers: { 'Cache-Control': 'no-store' } },
  );
