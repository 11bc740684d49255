import { describe, expect, it } from 'vitest';
import { countPublicAddresses, findBroadTrust, isTrustedAddress, parseRange } from '../../server/trust-proxy-ranges.ts';

describe('trust-proxy-ranges', () => {
  it.each([
    ['10.0.0.1', { family: 'IPv4', address: 0x0a000001n, prefix: 32 }],
    ['10.0.0.0/8', { family: 'IPv4', address: 0x0a000000n, prefix: 8 }],
    ['2606:4700::/32', { family: 'IPv6', address: 0x26064700n << 96n, prefix: 32 }],
    ['::1', { family: 'IPv6', address: 1n, prefix: 128 }],
    ['::ffff:10.0.0.1', { family: 'IPv6', address: (0xffffn << 32n) | 0x0a000001n, prefix: 128 }],
  ])('parses %s', (entry, range) => {
    expect(parseRange(entry)).toEqual(range);
  });

  it.each([
    ['1.2.3'],
    ['10.0.0.0/33'],
    ['::/129'],
    ['10.0.0.0/'],
    ['10.0.0.0/8/8'],
    ['loopback'],
    ['fe80::1%eth0'],
    [''],
  ])('refuses %j', (entry) => {
    expect(parseRange(entry)).toBeNull();
  });

  it.each([
    [['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7', 'fe80::/10', 'loopback', 'uniquelocal'], 0n, 0n],
    [['203.0.113.0/24', '198.51.100.7'], 257n, 0n],
    [['::ffff:203.0.113.0/120'], 256n, 0n],
    [['::ffff:10.0.0.0/104'], 0n, 0n],
    [['10.0.0.0/7'], 2n ** 25n, 0n],
    [['2606:4700::/32'], 0n, 2n ** 96n],
    [['::/64'], 2n ** 32n, 2n ** 64n],
  ])('counts the public addresses of %j: %s IPv4, %s IPv6', (entries, ipv4, ipv6) => {
    expect(countPublicAddresses(entries)).toEqual({ IPv4: ipv4, IPv6: ipv6 });
  });

  it('names what is too broad, summing the entries', () => {
    expect(findBroadTrust(['11.0.0.0/8'])).toBeNull();
    expect(findBroadTrust(['11.0.0.0/8', '12.0.0.1'])).toBe('public IPv4 ranges adding up to more than a /8');
    // All of IPv4 as /8s, 10/8 and 127/8 private.
    expect(findBroadTrust(Array.from({ length: 256 }, (_, index) => `${index}.0.0.0/8`))).toBe(
      'public IPv4 ranges adding up to more than a /1',
    );
    expect(findBroadTrust(['2001::/16', '2002::/16'])).toBe('public IPv6 ranges adding up to a /15');
  });

  it.each([
    [['loopback'], '127.0.0.1', true],
    [['loopback'], '::1', true],
    [['loopback'], '::ffff:127.0.0.1', true],
    [['loopback'], '203.0.113.7', false],
    [['uniquelocal'], '10.1.2.3', true],
    [['uniquelocal'], '192.168.0.9', true],
    [['linklocal'], 'fe80::1', true],
    [['203.0.113.0/24'], '203.0.113.7', true],
    [['203.0.113.0/24'], '::ffff:203.0.113.7', true],
    [['203.0.113.0/24'], '203.0.114.1', false],
    [['198.51.100.9'], '198.51.100.9', true],
    [['2606:4700::/32'], '2606:4700::6810:1', true],
    [['2606:4700::/32'], '2606:4701::1', false],
    [['10.0.0.0/8', 'loopback'], '', false],
    [['10.0.0.0/8'], 'not an address', false],
  ])('with %j trusts the peer %j: %s', (entries, address, expected) => {
    expect(isTrustedAddress(entries, address)).toBe(expected);
  });
});
