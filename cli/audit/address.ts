/**
 * Where a host name leads: its addresses (`localhost` and `*.localhost` are loopback, as in
 * Chromium; an IP literal is itself; anything else is looked up), and whether that is a loopback
 * or private address by the URL mode's ranges (`cli/private-address.ts`). A lookup that fails is
 * never taken for a public address: callers refuse what they cannot resolve.
 */
import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPrivateAddress } from '../private-address.ts';

export type HostKind = 'public' | 'private' | 'unresolved';

export const bareHost = (host: string): string => host.replace(/^\[|\]$/g, '').toLowerCase();

/** The host's addresses, or null when the lookup fails or finds none. */
export async function resolveHost(host: string): Promise<readonly LookupAddress[] | null> {
  const bare = bareHost(host);
  if (bare === 'localhost' || bare.endsWith('.localhost')) return [{ address: '127.0.0.1', family: 4 }];
  const family = isIP(bare);
  if (family) return [{ address: bare, family }];
  try {
    const addresses = await lookup(bare, { all: true });
    return addresses.length ? addresses : null;
  } catch {
    return null;
  }
}

export const kindOfAddresses = (addresses: readonly LookupAddress[] | null): HostKind =>
  addresses === null ? 'unresolved' : addresses.some(({ address }) => isPrivateAddress(address)) ? 'private' : 'public';

export async function classifyHost(host: string): Promise<HostKind> {
  return kindOfAddresses(await resolveHost(host));
}

/** Whether the host is, or resolves to, a loopback or private address; false when it cannot be resolved. */
export async function isPrivateHost(host: string): Promise<boolean> {
  return (await classifyHost(host)) === 'private';
}
