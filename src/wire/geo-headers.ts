/**
 * The values of the CDN geo headers the reference server trusts (docs/server.md, "Geo headers"):
 * a country header holds an ISO 3166-1 alpha-2 code in any case; a region header the ISO 3166-2
 * subdivision of that country, as its part after the hyphen (`CA`) or whole (`US-CA`). A value
 * repeated (an array, or Node's `a, b` join of a repeated header), a placeholder (`XX` unknown,
 * `T1` Tor, `ZZ`) or anything malformed reads as absent. Pure.
 */
import { subdivisionOf } from './geo-subdivisions.ts';

export type HeaderValue = string | readonly string[] | undefined;

const placeholderCodes = new Set(['xx', 't1', 'zz']);

/** The lowercase country code of a country header, or null. */
export function readCountryHeader(value: HeaderValue): string | null {
  if (typeof value !== 'string') return null;
  const code = value.trim().toLowerCase();
  return /^[a-z]{2}$/.test(code) && !placeholderCodes.has(code) ? code : null;
}

/** The subdivision code (`us-ca`) a region header gives for `country`, or null (absent, malformed, unknown, another country's). */
export function readRegionHeader(country: string, value: HeaderValue): string | null {
  return typeof value === 'string' ? subdivisionOf(country, value) : null;
}
