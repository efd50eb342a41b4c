import { Resolver as DnsResolver } from 'node:dns/promises';
import type { Resolver } from '#functions/webhooks/webhook-url';

/** How long one name may take, all its queries together. */
const RESOLVE_TIMEOUT_MS = 5_000;
/** Per query: c-ares waits this long for a name server's answer, and asks each this many times. */
const QUERY_TIMEOUT_MS = 2_000;
const QUERY_TRIES = 2;

/**
 * Every address DNS gives for a host (its A and AAAA records), asked of the system's name servers
 * (or `servers`) by c-ares, not by the system's getaddrinfo: that one runs on libuv's pool of four
 * threads, and a lookup held by one company's slow or silent name servers keeps its thread after we
 * stop waiting, so four of them held every other company's lookups (and the process's file reads
 * and crypto) behind them, failing deliveries that had nothing to do with it. c-ares queries are
 * sockets, each timed out, and cancelled with the name. `localhost` names are loopback (RFC 6761),
 * answered without DNS: the local runtime's allowance, refused as loopback everywhere else.
 */
export function dnsResolver(servers?: string[]): Resolver {
  return async (hostname) => {
    if (/(^|\.)localhost\.?$/i.test(hostname)) return [{ address: '127.0.0.1', family: 4 }, { address: '::1', family: 6 }];
    const dns = new DnsResolver({ timeout: QUERY_TIMEOUT_MS, tries: QUERY_TRIES });
    if (servers) dns.setServers(servers);
    const timer = setTimeout(() => dns.cancel(), RESOLVE_TIMEOUT_MS);
    try {
      const [v4, v6] = await Promise.allSettled([dns.resolve4(hostname), dns.resolve6(hostname)]);
      const addresses = [
        ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
        ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
      ];
      if (addresses.length > 0) return addresses;
      const cause = v4.status === 'rejected' ? (v4.reason as NodeJS.ErrnoException) : null;
      throw new Error(`resolving ${hostname}: ${cause?.code ?? 'no address'}`);
    } finally {
      clearTimeout(timer);
    }
  };
}

export const systemResolver: Resolver = dnsResolver();
