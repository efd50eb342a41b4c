import { isIP } from 'node:net';
import { validationFailed } from '../shared/errors.ts';

/**
 * Which webhook URLs Cambio will call (../shared/api-contract.md, Webhooks): `https://` to public
 * addresses only. A webhook is a request Cambio makes on a customer's behalf, so a URL naming a
 * private, loopback, link-local or metadata address would let anyone with an API key probe our
 * network (SSRF). The same check runs at registration and again before every delivery, against
 * the addresses the host resolves to at that moment (DNS rebinding), and the delivery then
 * connects to the very address that was checked.
 */
export interface UrlPolicy {
  /** The local runtime alone: `http://` and `https://` to loopback (127.0.0.0/8, ::1, localhost). */
  allowLoopbackHttp: boolean;
}

/** node:dns lookup({all: true}) in production; tests inject their own (no real DNS there). */
export type Resolver = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

export interface CheckedTarget {
  url: URL;
  /** Every address the host resolved to; each one passed the check. Connect to these only, in turn. */
  addresses: { address: string; family: 4 | 6 }[];
}

export class UrlRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UrlRefusedError';
  }
}

export const MAX_URL_LENGTH = 2048;

/** The syntactic part, shared by the request schema: no DNS. Returns the refusal or null. */
export function urlSyntaxProblem(value: string): string | null {
  if (value.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute https:// URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https:// URL';
  if (url.username !== '' || url.password !== '') return 'must not carry credentials (user:password@)';
  if (url.hostname === '') return 'must name a host';
  return null;
}

/**
 * Resolves the URL's host and refuses it unless every address is allowed: a host with one public
 * and one private address is refused, since either could be the one connected to.
 */
export async function checkWebhookUrl(value: string, policy: UrlPolicy, resolve: Resolver): Promise<CheckedTarget> {
  const problem = urlSyntaxProblem(value);
  if (problem) throw new UrlRefusedError(problem);
  const url = new URL(value);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const literal = isIP(host);
  let addresses: { address: string; family: 4 | 6 }[];
  if (literal) {
    addresses = [{ address: host, family: literal as 4 | 6 }];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new UrlRefusedError(`host ${host} could not be resolved`);
    }
    if (addresses.length === 0) throw new UrlRefusedError(`host ${host} could not be resolved`);
  }
  const loopbackAllowed = policy.allowLoopbackHttp;
  for (const { address } of addresses) {
    const kind = classifyAddress(address);
    if (kind === 'public') continue;
    if (kind === 'loopback' && loopbackAllowed) continue;
    throw new UrlRefusedError(`${literal ? 'address' : `host ${host} resolves to`} ${address}, a ${kind} address: only public addresses are allowed`);
  }
  const allLoopback = addresses.every(({ address }) => classifyAddress(address) === 'loopback');
  if (url.protocol === 'http:' && !(loopbackAllowed && allLoopback)) {
    throw new UrlRefusedError(loopbackAllowed ? 'must be an https:// URL (http:// only to a loopback address)' : 'must be an https:// URL');
  }
  return { url, addresses };
}

/** For the API: a refused URL is a VALIDATION_FAILED on `url`. */
export async function requireWebhookUrl(value: string, policy: UrlPolicy, resolve: Resolver): Promise<URL> {
  try {
    return (await checkWebhookUrl(value, policy, resolve)).url;
  } catch (error) {
    if (error instanceof UrlRefusedError) throw validationFailed([{ path: 'url', message: error.message }]);
    throw error;
  }
}

export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'unspecified'
  | 'shared (CGNAT)'
  | 'multicast'
  | 'reserved'
  | 'documentation'
  | 'unique-local'
  | 'invalid';

type Range4 = [base: number, bits: number, kind: AddressKind];

/** IANA IPv4 special-purpose registry (RFC 6890 and successors): everything that is not the public internet. */
const IPV4_RANGES: Range4[] = [
  [ipv4('0.0.0.0'), 8, 'unspecified'],
  [ipv4('10.0.0.0'), 8, 'private'],
  [ipv4('100.64.0.0'), 10, 'shared (CGNAT)'],
  [ipv4('127.0.0.0'), 8, 'loopback'],
  // 169.254.169.254 is the cloud metadata service (EC2, ECS, Lambda's own is elsewhere but alike).
  [ipv4('169.254.0.0'), 16, 'link-local'],
  [ipv4('172.16.0.0'), 12, 'private'],
  [ipv4('192.0.0.0'), 24, 'reserved'],
  [ipv4('192.0.2.0'), 24, 'documentation'],
  [ipv4('192.88.99.0'), 24, 'reserved'],
  [ipv4('192.168.0.0'), 16, 'private'],
  [ipv4('198.18.0.0'), 15, 'reserved'],
  [ipv4('198.51.100.0'), 24, 'documentation'],
  [ipv4('203.0.113.0'), 24, 'documentation'],
  [ipv4('224.0.0.0'), 4, 'multicast'],
  [ipv4('240.0.0.0'), 4, 'reserved'],
];

export function classifyAddress(address: string): AddressKind {
  const version = isIP(address);
  if (version === 4) return classifyIpv4(ipv4(address));
  if (version === 6) return classifyIpv6(address);
  return 'invalid';
}

function classifyIpv4(value: number): AddressKind {
  for (const [base, bits, kind] of IPV4_RANGES) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if ((value & mask) >>> 0 === base) return kind;
  }
  return 'public';
}

/**
 * IPv6: only global unicast (2000::/3) can be public, less its special blocks; addresses that
 * embed an IPv4 address (mapped, NAT64, 6to4) are judged by that address, so `::ffff:10.0.0.1`
 * is as private as 10.0.0.1.
 */
function classifyIpv6(address: string): AddressKind {
  const words = ipv6Words(address);
  if (!words) return 'invalid';
  const [w0, w1, w2, w3, w4, w5, w6, w7] = words as [number, number, number, number, number, number, number, number];
  const embedded = () => ((w6 << 16) >>> 0) + w7;
  if (words.every((w) => w === 0)) return 'unspecified';
  if (words.slice(0, 7).every((w) => w === 0) && w7 === 1) return 'loopback';
  if (w0 === 0 && w1 === 0 && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0xffff) return classifyIpv4(embedded());
  if (w0 === 0x64 && w1 === 0xff9b && w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0) return classifyIpv4(embedded());
  if (w0 === 0x2002) return classifyIpv4(((w1 << 16) >>> 0) + w2);
  if ((w0 & 0xfe00) === 0xfc00) return 'unique-local';
  if ((w0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((w0 & 0xffc0) === 0xfec0) return 'private';
  if ((w0 & 0xff00) === 0xff00) return 'multicast';
  if (w0 === 0x2001 && w1 === 0x0db8) return 'documentation';
  // 2001::/23: IETF protocol assignments (Teredo, ORCHID, benchmarking…).
  if (w0 === 0x2001 && w1 < 0x0200) return 'reserved';
  if ((w0 & 0xe000) !== 0x2000) return 'reserved';
  return 'public';
}

function ipv4(address: string): number {
  return address.split('.').reduce((value, octet) => ((value << 8) >>> 0) + Number(octet), 0) >>> 0;
}

function ipv6Words(address: string): number[] | null {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  // A dotted IPv4 tail (`::ffff:10.0.0.1`) becomes its two 16-bit words.
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    if (isIP(last) !== 4) return null;
    const value = ipv4(last);
    text = `${text.slice(0, lastColon + 1)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((word) => (/^[0-9a-f]{1,4}$/.test(word) ? parseInt(word, 16) : NaN)));
  const left = parse(halves[0]!);
  const right = halves.length === 2 ? parse(halves[1]!) : [];
  const words = halves.length === 2 ? [...left, ...new Array<number>(Math.max(8 - left.length - right.length, 0)).fill(0), ...right] : left;
  if (words.length !== 8 || words.some((w) => Number.isNaN(w))) return null;
  return words;
}
