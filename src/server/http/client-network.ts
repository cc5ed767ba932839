/**
 * The "client network" every limiter counts by. An IPv4 address is itself; an IPv6 address is its /64,
 * the block one subscriber line or one server is handed, so cycling through the 2^64 addresses of a
 * single /64 earns no fresh allowance. IPv4-mapped IPv6 (`::ffff:203.0.113.9`, how a dual-stack socket
 * reports an IPv4 client) counts as the IPv4 address.
 */
import ipaddr from 'ipaddr.js';

export function clientNetwork(ip: string): string {
  const trimmed = ip.trim();
  if (!ipaddr.isValid(trimmed)) return trimmed || 'unknown';
  const address = ipaddr.process(trimmed);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}
