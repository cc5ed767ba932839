/** CSV export of the filtered incident list (the middleware has checked the staff session). */
import type { APIRoute } from 'astro';
import { getDb } from '../../../server/db/index.ts';
import { exportIncidentsCsv, parseIncidentQuery } from '../../../server/incidents/staff.ts';

export const prerender = false;

export const GET: APIRoute = async ({ url }) => {
  const { filters } = parseIncidentQuery(url.searchParams);
  const csv = await exportIncidentsCsv(getDb(), filters);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="incidencias-${day}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
};
