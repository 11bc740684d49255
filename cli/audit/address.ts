/**
 * Loopback and private addresses (IPv4 and IPv6, IPv4-mapped included), and whether a host name
 * resolves to one: a page address that may only be reached when the reader asked for such an
 * address in the first place (no redirect from a public page to the auditor's own network).
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::1', 128],
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return isPrivateAddress(mapped);
  const family = isIP(address);
  return family !== 0 && PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** true when the host is, or resolves to, a loopback or private address (`localhost` too). */
export async function isPrivateHost(host: string): Promise<boolean> {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare)) return isPrivateAddress(bare);
  try {
    const addresses = await lookup(bare, { all: true });
    return addresses.some(({ address }) => isPrivateAddress(address));
  } catch {
    return false;
  }
}
