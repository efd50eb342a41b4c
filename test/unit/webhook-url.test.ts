import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, classifyAddress, UrlRefusedError, type Resolver } from '#functions/webhooks/webhook-url';
import { parseRetrySchedule } from '#functions/webhooks/webhook-delivery';
import { parseRetryAfter } from '#functions/shared/retry';
import { signWebhook } from '#functions/webhooks/webhooks';
import { Webhook } from 'standardwebhooks';

/** No real DNS in tests: each name resolves to what this table says. */
const resolver =
  (table: Record<string, string[]>): Resolver =>
  async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

const dns = resolver({
  'hooks.example.com': ['93.184.216.34'],
  'dual.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'internal.example.com': ['10.1.2.3'],
  'sneaky.example.com': ['93.184.216.34', '192.168.0.10'],
  'metadata.example.com': ['169.254.169.254'],
  localhost: ['127.0.0.1', '::1'],
});
const production = { allowLoopbackHttp: false };
const local = { allowLoopbackHttp: true };

async function refusal(url: string, policy = production): Promise<string> {
  try {
    await checkWebhookUrl(url, policy, dns);
  } catch (error) {
    if (error instanceof UrlRefusedError) return error.message;
    throw error;
  }
  throw new Error(`${url} was accepted`);
}

describe('webhook URLs on a deployed stage', () => {
  it('accepts https:// to a host whose every address is public, and names the addresses to connect to', async () => {
    const target = await checkWebhookUrl('https://dual.example.com/hooks?x=1', production, dns);

    expect(target.url.hostname).toBe('dual.example.com');
    expect(target.addresses.map((a) => a.address)).toEqual(['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
  });

  it.each([
    ['http://hooks.example.com/x', 'https://'],
    ['https://127.0.0.1/x', 'loopback'],
    ['https://10.0.0.1/x', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'link-local'],
    ['https://[::1]/x', 'loopback'],
    ['https://internal.example.com/x', 'resolves to 10.1.2.3, a private address'],
    ['https://sneaky.example.com/x', 'resolves to 192.168.0.10'],
    ['https://metadata.example.com/', 'link-local'],
    ['https://localhost/x', 'loopback'],
    ['https://0.0.0.0/x', 'unspecified'],
    ['https://100.64.0.1/x', 'CGNAT'],
    ['https://172.16.5.4/x', 'private'],
    ['https://192.168.1.1/x', 'private'],
    ['https://224.0.0.1/x', 'multicast'],
    ['https://[fe80::1]/x', 'link-local'],
    ['https://[fc00::1]/x', 'unique-local'],
    ['https://[fd00:ec2::254]/x', 'unique-local'],
    ['https://[::ffff:10.0.0.1]/x', 'private'],
    ['https://[::ffff:127.0.0.1]/x', 'loopback'],
    ['https://[64:ff9b::a9fe:a9fe]/x', 'link-local'],
    ['https://[2002:a00:1::]/x', 'private'],
    // WHATWG URL parsing turns these spellings into 127.0.0.1 before the check sees them.
    ['https://2130706433/x', 'loopback'],
    ['https://0x7f.1/x', 'loopback'],
    ['https://nowhere.example.com/x', 'could not be resolved'],
    ['ftp://hooks.example.com/x', 'https://'],
    ['https://user:pw@hooks.example.com/x', 'credentials'],
  ])('refuses %s (%s)', async (url, reason) => {
    expect(await refusal(url)).toContain(reason);
  });
});

describe('webhook URLs on the local runtime', () => {
  it.each(['http://127.0.0.1:4000/x', 'http://127.9.9.9/x', 'http://[::1]:4000/x', 'http://localhost:4000/x', 'https://localhost/x'])(
    'accepts loopback %s',
    async (url) => {
      await expect(checkWebhookUrl(url, local, dns)).resolves.toMatchObject({ url: new URL(url) });
    },
  );

  it.each([
    ['https://10.0.0.1/x', 'private'],
    ['https://169.254.169.254/', 'link-local'],
    ['http://hooks.example.com/x', 'http:// only to a loopback address'],
  ])('still refuses %s (%s)', async (url, reason) => {
    expect(await refusal(url, local)).toContain(reason);
  });
});

describe('address classification', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::', 'unspecified'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'reserved'],
    ['not-an-ip', 'invalid'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('Standard Webhooks signature', () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const body = '{"id":"evt_1","type":"deposit.completed","createdAt":"2026-01-01T00:00:00.000Z","data":{"a":1}}';

  it('is what the standardwebhooks package verifies; a tampered body or an old timestamp is refused', () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = (timestamp: number) => ({
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signWebhook(secret, 'evt_1', timestamp, body),
    });
    const verifier = new Webhook(secret);

    expect(verifier.verify(body, headers(now))).toEqual(JSON.parse(body));
    expect(() => verifier.verify(body.replace('"a":1', '"a":2'), headers(now))).toThrow(/No matching signature/);
    expect(() => verifier.verify(body, headers(now - 600))).toThrow(/too old/);
  });

  it("matches the package's own signer byte for byte", () => {
    const at = new Date('2026-01-01T00:00:00Z');
    expect(signWebhook(secret, 'msg_1', at.getTime() / 1000, body)).toBe(new Webhook(secret).sign('msg_1', at, body));
  });
});

describe('retry settings', () => {
  it("parses the contract's schedule and shortened test schedules", () => {
    expect(parseRetrySchedule('5s,5m,30m,2h,5h,10h,14h,20h,24h')).toEqual(
      [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400].map((seconds) => seconds * 1000),
    );
    expect(parseRetrySchedule('50ms, 1s')).toEqual([50, 1000]);
    expect(() => parseRetrySchedule('5 minutes')).toThrow(/ms, s, m or h/);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
