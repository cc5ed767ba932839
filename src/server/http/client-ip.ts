/**
 * The client IP that rate limits are keyed on, for every limiter of the site (sign-in and public forms).
 */

/**
 * The socket address, or — only when TRUST_PROXY says a proxy in front sets it — the last
 * X-Forwarded-For entry (the one our proxy appended; entries to its left come from the visitor and
 * can be forged).
 */
export function resolveClientIp(
  headers: Headers,
  socketAddress: string | undefined,
  trustProxy: boolean,
): string {
  if (trustProxy) {
    const forwarded = headers.get('x-forwarded-for');
    const last = forwarded
      ?.split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .at(-1);
    if (last) return last;
  }
  return socketAddress || 'unknown';
}
