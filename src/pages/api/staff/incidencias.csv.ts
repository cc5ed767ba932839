/** CSV export of the filtered incident list, for staff only (checked here and by the middleware). */
import type { APIRoute } from 'astro';
import { requireStaffApi } from '../../../server/auth/index.ts';
import { getDb } from '../../../server/db/index.ts';
import { exportIncidentsCsv } from '../../../server/incidents/index.ts';
import { parseIncidentQuery } from '../../../server/incidents/index.ts';

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const staff = await requireStaffApi(context);
  if (staff instanceof Response) return staff;
  const { url } = context;
  const { filters, invalid } = parseIncidentQuery(url.searchParams);
  if (invalid.length)
    return new Response(`Filtro no válido: ${invalid.join(', ')}.`, {
      status: 400,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
    });
  const csv = await exportIncidentsCsv(getDb(), filters, { staffId: staff.id });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="incidencias-${day}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
};
