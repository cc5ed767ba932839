import type { APIRoute } from 'astro';
import { getDb, ping } from '../server/db/index.ts';

export const prerender = false;

/** 200 `{"status":"ok"}` when the database answers `select 1`, 503 otherwise. */
export const GET: APIRoute = async () => {
  const healthy = await ping(getDb());
  return new Response(JSON.stringify({ status: healthy ? 'ok' : 'unavailable' }), {
    status: healthy ? 200 : 503,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
};
