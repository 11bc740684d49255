/**
 * Which CDN headers give the reader's country and region, in which order (docs/server.md, "Geo
 * headers"): GEO_HEADERS names the sources, TRUSTED_COUNTRY_HEADER and TRUSTED_REGION_HEADER the
 * custom pair. The headers are read only from a request whose peer is a proxy TRUST_PROXY
 * trusts (routes/context.ts), so a client reaching the server directly cannot choose its place.
 */
import { ConfigError } from './errors.ts';

/** A source: the header of the country and, when the source has one, of the region (lowercase names). */
export type GeoHeaderPair = { readonly source: string; readonly country: string; readonly region: string | null };

export const geoHeaderSources = ['cloudflare', 'cloudfront', 'vercel', 'appengine', 'custom'] as const;
export type GeoHeaderSource = (typeof geoHeaderSources)[number];

/** The pairs each CDN sets (Cloudflare's region needs its "Add visitor location headers" managed transform). */
const cdnPairs: Readonly<Record<Exclude<GeoHeaderSource, 'custom'>, GeoHeaderPair>> = {
  cloudflare: { source: 'cloudflare', country: 'cf-ipcountry', region: 'cf-region-code' },
  cloudfront: {
    source: 'cloudfront',
    country: 'cloudfront-viewer-country',
    region: 'cloudfront-viewer-country-region',
  },
  vercel: { source: 'vercel', country: 'x-vercel-ip-country', region: 'x-vercel-ip-country-region' },
  appengine: { source: 'appengine', country: 'x-appengine-country', region: 'x-appengine-region' },
};

/** An HTTP field name (RFC 9110 token). */
const headerNamePattern = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** A header name variable, lowercased; null when unset or empty. */
export function readHeaderName(value: string | undefined, name: string): string | null {
  const header = value?.trim().toLowerCase() ?? '';
  if (header === '') return null;
  if (!headerNamePattern.test(header))
    throw new ConfigError('geo-headers-invalid', `${name}: expected an HTTP header name, got "${value}"`);
  return header;
}

/**
 * GEO_HEADERS: a comma list of sources, first first; unset or empty, `custom` when
 * TRUSTED_COUNTRY_HEADER is set, else none. An unknown or repeated source, or `custom` without
 * TRUSTED_COUNTRY_HEADER, is refused.
 */
export function readGeoHeaderSources(value: string | undefined, customCountry: string | null): GeoHeaderSource[] {
  const text = value?.trim().toLowerCase() ?? '';
  if (text === '') return customCountry === null ? [] : ['custom'];
  const names = text.split(',').map((name) => name.trim());
  const known = (name: string): name is GeoHeaderSource => (geoHeaderSources as readonly string[]).includes(name);
  const isValid = names.every((name, index) => known(name) && names.indexOf(name) === index);
  if (!isValid || (names.includes('custom') && customCountry === null)) {
    throw new ConfigError(
      'geo-headers-invalid',
      `GEO_HEADERS: expected a comma list of distinct sources among ${geoHeaderSources.join(', ')} (custom needs TRUSTED_COUNTRY_HEADER), got "${value}"`,
    );
  }
  return names.filter(known);
}

/** The header pairs of the sources, in their order. */
export function geoHeaderPairs(
  sources: readonly GeoHeaderSource[],
  custom: { readonly country: string | null; readonly region: string | null },
): GeoHeaderPair[] {
  return sources.flatMap((source) => {
    if (source !== 'custom') return [cdnPairs[source]];
    return custom.country === null ? [] : [{ source, country: custom.country, region: custom.region }];
  });
}
