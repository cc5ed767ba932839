/** 'Cerrar sesión': ends the session on the server, then back to the login page. */
import type { APIRoute } from 'astro';
import { signOutStaff } from '../../../server/auth/login.ts';
import { ROUTES } from '../../../routes.ts';

export const prerender = false;

export const POST: APIRoute = async ({ request }) => {
  const headers = new Headers({ Location: ROUTES.adminLogin, 'Cache-Control': 'no-store' });
  try {
    for (const cookie of await signOutStaff(request.headers)) headers.append('Set-Cookie', cookie);
  } catch {
    // No session (already signed out): nothing to end.
  }
  return new Response(null, { status: 303, headers });
};
