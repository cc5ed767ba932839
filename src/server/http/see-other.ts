/**
 * The post/redirect/get answer: 303 to a page of our own, never cached, with the cookies the write set
 * (a sign-in's session, a session Better Auth replaced). The one way a write answers with a redirect.
 */
export function seeOther(location: string, setCookies: readonly string[] = []): Response {
  const headers = new Headers({ Location: location, 'Cache-Control': 'no-store' });
  for (const cookie of setCookies) headers.append('Set-Cookie', cookie);
  return new Response(null, { status: 303, headers });
}
