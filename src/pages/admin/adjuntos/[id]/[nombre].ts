/**
 * A file of an incident, for staff (issue 21): the middleware and this route check the session. The
 * name in the path is for the browser's download; the id decides. `?miniatura=1`: an image's thumbnail.
 */
import type { APIRoute } from 'astro';
import { requireStaffApi } from '../../../../server/auth/index.ts';
import { staffAttachmentResponse } from '../../../../server/views/index.ts';

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const staff = await requireStaffApi(context);
  if (staff instanceof Response) return staff;
  return staffAttachmentResponse(context.params.id, context.url.searchParams.has('miniatura'));
};
