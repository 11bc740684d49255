/**
 * The address guard's rule, one place: a request may reach a public address. It may reach a
 * loopback or private address only when that is the audited page's own host and port (the
 * reader asked for a local page), or a host named by `--allow-private` (a host covers its
 * subdomains, on any port). A host that cannot be resolved is refused, never taken for public.
 */
import type { LookupAddress } from 'node:dns';
import { bareHost, kindOfAddresses } from './address.ts';

export type DestinationPolicy = {
  /** `host:port` of the audited page, or null for a local file. */
  readonly ownHost: string | null;
  readonly allowPrivate: readonly string[];
};

export type Destination = {
  readonly host: string;
  readonly port: number;
  readonly addresses: readonly LookupAddress[] | null;
};

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

export function policyFor(start: URL, allowPrivate: readonly string[]): DestinationPolicy {
  const port = Number(start.port || DEFAULT_PORTS[start.protocol] || 0);
  return { ownHost: start.protocol === 'file:' ? null : `${bareHost(start.hostname)}:${port}`, allowPrivate };
}

/** Why the request may not go to `destination`, or null when it may. */
export function refusalOf(destination: Destination, policy: DestinationPolicy): string | null {
  const host = bareHost(destination.host);
  const kind = kindOfAddresses(destination.addresses);
  if (kind === 'public') return null;
  if (kind === 'unresolved') return `the address of ${host} could not be resolved`;
  if (policy.ownHost === `${host}:${destination.port}`) return null;
  if (policy.allowPrivate.some((allowed) => host === allowed || host.endsWith(`.${allowed}`))) return null;
  const address =
    destination.addresses?.find(({ address }) => kindOfAddresses([{ address, family: 0 }]) === 'private')?.address ??
    host;
  return `${host}:${destination.port} is a loopback or private address (${address})`;
}
