/**
 * The requester's country: from a trusted CDN header when configured and present, else an
 * IP lookup; loopback, private and unknown addresses give `unknown`.
 */
import type { FastifyRequest } from 'fastify';

/** Returns a lowercase ISO 3166-1 alpha-2 code, or null when the address is not known. */
export type CountryLookup = (ip: string) => string | null;

export const unknownCountry = 'unknown';

const placeholderCodes = new Set(['xx', 't1', 'zz']);

export function normalizeCountry(value: string | null | undefined): string | null {
  const code = value?.trim().toLowerCase();
  return code && /^[a-z]{2}$/.test(code) && !placeholderCodes.has(code) ? code : null;
}

export function isLoopbackAddress(ip: string): boolean {
  return ip === '::1' || /^(::ffff:)?127\./.test(ip);
}

export function requestCountry(
  request: FastifyRequest,
  options: { readonly trustedCountryHeader: string | null; readonly countryLookup: CountryLookup },
): string {
  if (options.trustedCountryHeader) {
    const header = request.headers[options.trustedCountryHeader];
    const fromHeader = normalizeCountry(Array.isArray(header) ? header[0] : header);
    if (fromHeader) return fromHeader;
  }
  if (isLoopbackAddress(request.ip)) return unknownCountry;
  return normalizeCountry(options.countryLookup(request.ip)) ?? unknownCountry;
}

/** The embedded IP database (geoip-country), loaded on demand because it takes ~8 MB of memory. */
export async function createGeoipLookup(): Promise<CountryLookup> {
  const { default: geoip } = await import('geoip-country');
  return (ip) => geoip.lookup(ip)?.country ?? null;
}
