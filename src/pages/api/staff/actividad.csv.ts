/** CSV export of the staff area's audit log ('Actividad' in /admin/configuracion), for staff only. */
import type { APIRoute } from 'astro';
import { exportEventsCsv } from '../../../server/audit/index.ts';
import { requireStaffApi } from '../../../server/auth/index.ts';
import { getDb } from '../../../server/db/index.ts';

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const staff = await requireStaffApi(context);
  if (staff instanceof Response) return staff;
  const csv = await exportEventsCsv(getDb());
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="actividad-${day}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
};
