/** 'Cerrar sesión': ends the session on the server, then back to the login page. */
import type { APIRoute } from 'astro';
import { getAuth } from '../../../server/auth/index.ts';
import { signOutStaff } from '../../../server/auth/index.ts';
import { getDb } from '../../../server/db/index.ts';
import { clientNetworkOf } from '../../../server/http/index.ts';
import { seeOther } from '../../../server/http/index.ts';
import { ROUTES } from '../../../routes.ts';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  let setCookies: string[] = [];
  try {
    setCookies = await signOutStaff(context.request.headers, getAuth(), {
      db: getDb(),
      network: clientNetworkOf(context),
    });
  } catch {
    // No session (already signed out): nothing to end.
  }
  return seeOther(ROUTES.adminLogin, setCookies);
};
