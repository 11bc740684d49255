/**
 * The requester's country and subdivision: from the first configured CDN header pair that holds a
 * country, when the request came through a proxy TRUST_PROXY trusts (docs/server.md, "Geo
 * headers"); else the country from an IP lookup, with the subdivision unknown. Loopback, private
 * and unknown addresses give `unknown`.
 */
import type { FastifyRequest } from 'fastify';
import { readCountryHeader, readRegionHeader } from '../src/wire/geo-headers.ts';
import type { GeoHeaderPair } from './geo-headers.ts';

/** Returns a lowercase ISO 3166-1 alpha-2 code, or null when the address is not known. */
export type CountryLookup = (ip: string) => string | null;

export const unknownCountry = 'unknown';

export type PlaceSources = {
  readonly geoHeaders: readonly GeoHeaderPair[];
  readonly isTrustedPeer: (address: string) => boolean;
  readonly countryLookup: CountryLookup;
};

/** `source`: the header pair's source (`cloudflare`...) when the place came from headers, else null. */
export type Place = { readonly country: string; readonly subdivision: string; readonly source: string | null };

export function isLoopbackAddress(ip: string): boolean {
  return ip === '::1' || /^(::ffff:)?127\./.test(ip);
}

/** The place the trusted headers give: the first pair with a valid country, its region when valid for that country; null when none. */
function headerPlace(request: FastifyRequest, sources: PlaceSources): Place | null {
  if (sources.geoHeaders.length === 0 || !sources.isTrustedPeer(request.socket.remoteAddress ?? '')) return null;
  for (const pair of sources.geoHeaders) {
    const country = readCountryHeader(request.headers[pair.country]);
    if (country === null) continue;
    const region = pair.region === null ? null : readRegionHeader(country, request.headers[pair.region]);
    return { country, subdivision: region ?? 'unknown', source: pair.source };
  }
  return null;
}

export function requestPlace(request: FastifyRequest, sources: PlaceSources): Place {
  const fromHeaders = headerPlace(request, sources);
  if (fromHeaders) return fromHeaders;
  // The lookup's answer goes through the same parser as a header's value.
  const country = isLoopbackAddress(request.ip)
    ? null
    : readCountryHeader(sources.countryLookup(request.ip) ?? undefined);
  return { country: country ?? unknownCountry, subdivision: 'unknown', source: null };
}

/** The embedded IP database (geoip-country), loaded on demand because it takes ~8 MB of memory. */
export async function createGeoipLookup(): Promise<CountryLookup> {
  const { default: geoip } = await import('geoip-country');
  return (ip) => geoip.lookup(ip)?.country ?? null;
}
