import { describe, expect, it } from 'vitest';
import { allowedIpEntry, ipAllowed } from '#functions/api-keys/api-keys';

describe("an API key's allowed IPs", () => {
  it('takes IPv4 and IPv6 addresses and CIDR blocks, in canonical form, and nothing else', () => {
    expect(allowedIpEntry(' 203.0.113.7 ')).toBe('203.0.113.7');
    expect(allowedIpEntry('203.0.113.0/24')).toBe('203.0.113.0/24');
    expect(allowedIpEntry('2001:db8::/32')).toBe('2001:db8::/32');
    expect(allowedIpEntry('0.0.0.0/0')).toBe('0.0.0.0/0');
    for (const wrong of ['', 'example.com', '203.0.113.0/33', '2001:db8::/129', '203.0.113.0/24/8', '203.0.113.0/x', '300.1.1.1', '203.0.113.0/ 24']) {
      expect(allowedIpEntry(wrong), wrong).toBeNull();
    }
  });

  it('lets through only requests from an allowed address, any address when there is no list', () => {
    const allowed = ['203.0.113.0/24', '198.51.100.7', '2001:db8::/32'];
    expect(ipAllowed(allowed, '203.0.113.200')).toBe(true);
    expect(ipAllowed(allowed, '203.0.114.1')).toBe(false);
    expect(ipAllowed(allowed, '198.51.100.7')).toBe(true);
    expect(ipAllowed(allowed, '198.51.100.8')).toBe(false);
    expect(ipAllowed(allowed, '2001:db8:1::5')).toBe(true);
    expect(ipAllowed(allowed, '2001:db9::5')).toBe(false);
    // An IPv4 client seen through an IPv6 socket is its IPv4 address.
    expect(ipAllowed(allowed, '::ffff:203.0.113.9')).toBe(true);
    expect(ipAllowed(allowed, 'not an address')).toBe(false);
    expect(ipAllowed(null, '192.0.2.1')).toBe(true);
    expect(ipAllowed([], '192.0.2.1')).toBe(true);
  });
});
