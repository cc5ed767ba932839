/** 'Cerrar sesión': ends the session on the server, then back to the login page. */
import type { APIRoute } from 'astro';
import { getAuth } from '../../../server/auth/index.ts';
import { signOutStaff } from '../../../server/auth/login.ts';
import { getConfig } from '../../../server/config.ts';
import { getDb } from '../../../server/db/index.ts';
import { clientNetworkOf } from '../../../server/http/client-network.ts';
import { ROUTES } from '../../../routes.ts';

export const prerender = false;

export const POST: APIRoute = async ({ request, clientAddress }) => {
  const headers = new Headers({ Location: ROUTES.adminLogin, 'Cache-Control': 'no-store' });
  try {
    const network = clientNetworkOf(request, clientAddress, getConfig().TRUST_PROXY);
    for (const cookie of await signOutStaff(request.headers, getAuth(), { db: getDb(), network })) headers.append('Set-Cookie', cookie);
  } catch {
    // No session (already signed out): nothing to end.
  }
  return new Response(null, { status: 303, headers });
};
