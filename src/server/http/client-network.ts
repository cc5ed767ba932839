/**
 * The "client network" every limiter counts by. An IPv4 address is itself; an IPv6 address is its /64,
 * the block one subscriber line or one server is handed, so cycling through the 2^64 addresses of a
 * single /64 earns no fresh allowance. IPv4-mapped IPv6 (`::ffff:203.0.113.9`, how a dual-stack socket
 * reports an IPv4 client) counts as the IPv4 address.
 */
import ipaddr from 'ipaddr.js';
import { resolveClientIp } from './client-ip.ts';

export function clientNetwork(ip: string): string {
  const trimmed = ip.trim();
  if (!ipaddr.isValid(trimmed)) return trimmed || 'unknown';
  const address = ipaddr.process(trimmed);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}

/**
 * The client network a limit is keyed on: the address (IPv4) or its /64 (IPv6), from the socket, or
 * from X-Forwarded-For only when the operator says a proxy sets it (`TRUST_PROXY`); otherwise anyone
 * could dodge the limit by forging the header.
 */
export function clientNetworkOf(request: Request, socketAddress: string | undefined, trustProxy: boolean): string {
  return clientNetwork(resolveClientIp(request.headers, socketAddress, trustProxy));
}
