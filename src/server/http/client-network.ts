/**
 * The client of one request, as every limiter, log line and audit event names it: its IP (the socket,
 * or under TRUST_PROXY the proxy's X-Forwarded-For entry) and its "client network". An IPv4 address is
 * itself; an IPv6 address is its /64, the block one subscriber line or one server is handed, so cycling
 * through the 2^64 addresses of a single /64 earns no fresh allowance. IPv4-mapped IPv6
 * (`::ffff:203.0.113.9`, how a dual-stack socket reports an IPv4 client) counts as the IPv4 address.
 * The one helper pages, endpoints, actions and the middleware use.
 */
import ipaddr from 'ipaddr.js';
import { getConfig } from '../config.ts';
import { resolveClientIp } from './client-ip.ts';

export function clientNetwork(ip: string): string {
  const trimmed = ip.trim();
  if (!ipaddr.isValid(trimmed)) return trimmed || 'unknown';
  const address = ipaddr.process(trimmed);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}

/** What Astro's contexts (`Astro`, an endpoint's or an action's context) give about the request. */
export interface RequestClient {
  request: Request;
  /** Astro's socket address; its getter throws where there is no socket (prerendering). */
  readonly clientAddress?: string;
}

function socketAddressOf(context: RequestClient): string | undefined {
  try {
    return context.clientAddress;
  } catch {
    return undefined;
  }
}

/** The client IP of this request. */
export function clientIpOf(context: RequestClient, trustProxy = getConfig().TRUST_PROXY): string {
  return resolveClientIp(context.request.headers, socketAddressOf(context), trustProxy);
}

/**
 * The client network a limit, a log line or the audit log is keyed on: the address (IPv4) or its /64
 * (IPv6), from the socket, or from X-Forwarded-For only when the operator says a proxy sets it
 * (`TRUST_PROXY`); otherwise anyone could dodge a limit by forging the header.
 */
export function clientNetworkOf(context: RequestClient, trustProxy = getConfig().TRUST_PROXY): string {
  return clientNetwork(clientIpOf(context, trustProxy));
}
