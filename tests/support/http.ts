/**
 * Plain HTTP requests for the security tests, on node:http rather than fetch: each can leave from its
 * own loopback address (127.0.0.0/8 is all ours on Linux), so rate limits keyed on the socket address
 * can be exercised without trusting X-Forwarded-For, and a body can be streamed without a length.
 */
import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** `name=value` of every Set-Cookie, joined for a Cookie header. */
  cookies: string;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Send the body in chunks of 1 KiB without a Content-Length. */
  chunked?: boolean;
  /** The loopback address the connection leaves from, e.g. `127.0.0.7`. */
  from?: string;
}

export function send(url: string, options: RawRequest = {}): Promise<RawResponse> {
  const { method = 'GET', headers = {}, body, chunked = false, from } = options;
  return new Promise((resolve, reject) => {
    let answered = false;
    const outgoing = { ...headers };
    if (body !== undefined && !chunked) outgoing['content-length'] = String(Buffer.byteLength(body));
    // agent: false — a fresh connection each time, so a connection the server closed is never reused.
    const req = request(url, { method, headers: outgoing, localAddress: from, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const setCookies = res.headers['set-cookie'] ?? [];
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          cookies: setCookies.map((line) => line.split(';')[0]).join('; '),
        });
      });
      res.on('error', reject);
    });
    // A server may answer (e.g. 413) and cut the connection while the body is still being sent.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (body !== undefined && chunked) {
      for (let offset = 0; offset < body.length; offset += 1024) req.write(body.slice(offset, offset + 1024));
    } else if (body !== undefined) {
      req.write(body);
    }
    req.end();
  });
}

/** A form post as the site's own pages send it (same-origin `Origin`). */
export function postForm(
  base: string,
  path: string,
  fields: Record<string, string>,
  options: Omit<RawRequest, 'body' | 'method'> = {},
): Promise<RawResponse> {
  return send(`${base}${path}`, {
    ...options,
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/** A JSON action call (the staff islands call their actions this way). */
export function postJson(
  base: string,
  path: string,
  payload: unknown,
  options: Omit<RawRequest, 'body' | 'method'> = {},
): Promise<RawResponse> {
  return send(`${base}${path}`, {
    ...options,
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/json', ...options.headers },
    body: JSON.stringify(payload),
  });
}
