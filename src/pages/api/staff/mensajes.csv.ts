/** CSV export of the filtered contact inbox ('Exportar CSV' in /admin/mensajes), for staff only. */
import type { APIRoute } from 'astro';
import { parseMessageView } from '../../../domain/messages.ts';
import { requireStaffApi } from '../../../server/auth/index.ts';
import { exportMessagesCsv } from '../../../server/contact/index.ts';
import { getDb } from '../../../server/db/index.ts';

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const staff = await requireStaffApi(context);
  if (staff instanceof Response) return staff;
  const { estado, q } = parseMessageView(context.url.searchParams);
  const csv = await exportMessagesCsv(getDb(), { estado, q });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="mensajes-${estado}-${day}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
};
