/**
 * How much of the Internet a TRUST_PROXY list trusts. A client whose address a listed range
 * holds may write its own `X-Forwarded-For`, so ranges that add up to (nearly) every address
 * act like `TRUST_PROXY=true`. The rule (docs/server.md, "TRUST_PROXY"): loopback, link-local
 * and private ranges count for nothing, as nobody reaches the server from them over the
 * Internet; every other range counts its size, and together they may hold at most as many
 * addresses as an IPv4 /8 and as an IPv6 /16.
 */
import { isIPv4, isIPv6 } from 'node:net';

export type AddressFamily = 'IPv4' | 'IPv6';
type Range = { readonly family: AddressFamily; readonly address: bigint; readonly prefix: number };

const bits: Record<AddressFamily, number> = { IPv4: 32, IPv6: 128 };

/** The broadest public range, per family, that the trusted public ranges may add up to. */
export const broadestPublicPrefix: Record<AddressFamily, number> = { IPv4: 8, IPv6: 16 };

function addressValue(text: string): bigint {
  if (isIPv4(text)) return text.split('.').reduce((value, part) => (value << 8n) | BigInt(part), 0n);
  // `::ffff:10.0.0.1`: the IPv4 part becomes the last two groups.
  const embedded = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  const ipv4 = embedded ? addressValue(embedded[2]!) : 0n;
  const hex = embedded ? `${embedded[1]}${(ipv4 >> 16n).toString(16)}:${(ipv4 & 0xffffn).toString(16)}` : text;
  const [head, tail] = hex.split('::').map((part) => (part === '' ? [] : part.split(':')));
  const zeros = tail === undefined ? [] : Array<string>(8 - head!.length - tail.length).fill('0');
  return [...head!, ...zeros, ...(tail ?? [])].reduce((value, group) => (value << 16n) | BigInt(`0x${group}`), 0n);
}

/** `10.0.0.0/8`, `2606:4700::/32` or one address; null when the entry is none of these. */
export function parseRange(entry: string): Range | null {
  const match = /^([0-9a-fA-F.:]+)(?:\/(\d{1,3}))?$/.exec(entry);
  const text = match?.[1] ?? '';
  const family = isIPv4(text) ? 'IPv4' : isIPv6(text) ? 'IPv6' : null;
  if (family === null) return null;
  const prefix = match?.[2] === undefined ? bits[family] : Number(match[2]);
  return prefix > bits[family] ? null : { family, address: addressValue(text), prefix };
}

const contains = (outer: Range, inner: Range) => {
  const shift = BigInt(bits[outer.family] - outer.prefix);
  return (
    outer.family === inner.family && inner.prefix >= outer.prefix && inner.address >> shift === outer.address >> shift
  );
};

const rangesOf = (entries: readonly string[]) => entries.map((entry) => parseRange(entry)!);

/** What proxy-addr names `loopback`, `linklocal` and `uniquelocal`. */
const privateRanges = rangesOf([
  '127.0.0.0/8',
  '::1/128',
  '169.254.0.0/16',
  'fe80::/10',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  'fc00::/7',
]);
const privateNames = ['loopback', 'linklocal', 'uniquelocal'];

/** IPv4 addresses written as IPv6 (`::ffff:10.0.0.1`), which proxy-addr matches as IPv4. */
const ipv4Mapped = parseRange('::ffff:0.0.0.0/96')!;

/** A range within ::ffff:0:0/96 as the IPv4 range it is; any other range as it is. */
const unmapped = (range: Range): Range =>
  contains(ipv4Mapped, range)
    ? { family: 'IPv4', address: range.address & 0xffffffffn, prefix: range.prefix - 96 }
    : range;

/** How many public addresses of each family the entries (all parsed by parseRange, or named) trust. */
export function countPublicAddresses(entries: readonly string[]): Record<AddressFamily, bigint> {
  const count: Record<AddressFamily, bigint> = { IPv4: 0n, IPv6: 0n };
  for (const entry of entries) {
    if (privateNames.includes(entry)) continue;
    const range = unmapped(parseRange(entry)!);
    if (privateRanges.some((outer) => contains(outer, range))) continue;
    count[range.family] += 1n << BigInt(bits[range.family] - range.prefix);
    // An IPv6 range around all of ::ffff:0:0/96 holds every IPv4 address too.
    if (contains(range, ipv4Mapped)) count.IPv4 += 1n << 32n;
  }
  return count;
}

/** `a /7` for 2^25 IPv4 addresses, `more than a /8` for 2^24 + 1. */
function describeSize(count: bigint, family: AddressFamily): string {
  const exponent = count.toString(2).length - 1;
  return `${count === 1n << BigInt(exponent) ? 'a' : 'more than a'} /${bits[family] - exponent}`;
}

/** Why the entries trust too much (`public IPv4 ranges adding up to a /0`), or null. */
export function findBroadTrust(entries: readonly string[]): string | null {
  const count = countPublicAddresses(entries);
  for (const family of ['IPv4', 'IPv6'] as const) {
    if (count[family] > 1n << BigInt(bits[family] - broadestPublicPrefix[family])) {
      return `public ${family} ranges adding up to ${describeSize(count[family], family)}`;
    }
  }
  return null;
}

/** The ranges proxy-addr gives each name. */
const namedRanges: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/**
 * Whether `address` (a peer's socket address) is one the TRUST_PROXY entries (names, addresses or
 * CIDRs, all valid) trust; an IPv4 address written as IPv6 (`::ffff:10.0.0.1`) counts as IPv4.
 */
export function isTrustedAddress(entries: readonly string[], address: string): boolean {
  const peer = parseRange(address);
  if (peer === null || peer.prefix !== bits[peer.family]) return false;
  const inner = unmapped(peer);
  return entries
    .flatMap((entry) => (Object.hasOwn(namedRanges, entry) ? namedRanges[entry]! : [entry]))
    .some((entry) => {
      const range = unmapped(parseRange(entry)!);
      return contains(range, inner);
    });
}
