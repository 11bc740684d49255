/**
 * Addresses a fetched page may not redirect to: loopback, private (RFC 1918, unique local),
 * link-local, carrier-grade NAT and unspecified ranges, IPv4 and IPv6, IPv4-mapped IPv6 by its
 * IPv4 part.
 */
import { BlockList, isIPv4 } from 'node:net';

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  blocked.addSubnet(network, prefix, 'ipv6');

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const ip = mapped ?? address;
  return blocked.check(ip, isIPv4(ip) ? 'ipv4' : 'ipv6');
}
