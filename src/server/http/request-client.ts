/**
 * The client of one request, as every limiter, log line and audit event names it: its IP (the socket,
 * or under TRUST_PROXY the proxy's X-Forwarded-For entry) and its client network (an IPv4 address or an
 * IPv6 /64). The one helper pages, endpoints, actions and the middleware use.
 */
import { getConfig } from '../config.ts';
import { resolveClientIp } from './client-ip.ts';
import { clientNetwork } from './client-network.ts';

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
 * The client network of this request, for limits, logs and the audit log: from the socket, or from
 * X-Forwarded-For only when the operator says a proxy sets it (`TRUST_PROXY`); otherwise anyone could
 * dodge a limit by forging the header.
 */
export function clientNetworkOfRequest(context: RequestClient, trustProxy = getConfig().TRUST_PROXY): string {
  return clientNetwork(clientIpOf(context, trustProxy));
}
