import { lookup } from 'node:dns/promises';
import type { Resolver } from '#functions/webhooks/webhook-url';

const RESOLVE_TIMEOUT_MS = 5_000;

/** Every address the system resolver gives for a host (IPv4 and IPv6), as a connection would see them. */
export const systemResolver: Resolver = async (hostname) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`resolving ${hostname} took over ${RESOLVE_TIMEOUT_MS} ms`)), RESOLVE_TIMEOUT_MS);
  });
  try {
    const found = await Promise.race([lookup(hostname, { all: true, verbatim: true }), timeout]);
    return found.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
  } finally {
    clearTimeout(timer);
  }
};
