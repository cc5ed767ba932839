/**
 * 'Exportar CSV' of the client list, for staff only (checked here and by the middleware): every client
 * the list's filters select (search, state, archived), not only the first page, with every field.
 */
import type { APIRoute } from 'astro';
import { isProjectState } from '../../../domain/forms/client.ts';
import { requireStaffApi } from '../../../server/auth/index.ts';
import { listClients } from '../../../server/clients/index.ts';
import { clientsCsv } from '../../../server/clients/index.ts';
import { getDb } from '../../../server/db/index.ts';

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const staff = await requireStaffApi(context);
  if (staff instanceof Response) return staff;
  const params = context.url.searchParams;
  const search = params.get('q')?.trim().slice(0, 100) || undefined;
  const estadoParam = params.get('estado');
  const estado = isProjectState(estadoParam) ? estadoParam : undefined;
  const archived = params.get('archivados') === '1';
  const clients = await listClients(getDb(), { search, estado, archived, limit: null });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(clientsCsv(clients), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="clientes-${day}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
};
