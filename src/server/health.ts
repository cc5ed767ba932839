/** `GET /healthz`: 200 `{"status":"ok"}` when the database answers `select 1`, 503 otherwise. */
import { getDb, ping } from './db/index.ts';

export async function healthResponse(): Promise<Response> {
  const healthy = await ping(getDb());
  return new Response(JSON.stringify({ status: healthy ? 'ok' : 'unavailable' }), {
    status: healthy ? 200 : 503,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}
