/**
 * A file of an incident, for the customer holding the follow-up link (`?token=`, issue 21): only the
 * files of that token's incident that the follow-up page shows (never an internal note's).
 * `?miniatura=1`: an image's thumbnail.
 */
import type { APIRoute } from 'astro';
import { customerAttachmentResponse } from '../../../../server/views/index.ts';

export const prerender = false;

export const GET: APIRoute = ({ params, url }) =>
  customerAttachmentResponse(
    params.id,
    url.searchParams.get('token') ?? '',
    url.searchParams.has('miniatura'),
  );
