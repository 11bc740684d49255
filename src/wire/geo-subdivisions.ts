/**
 * ISO 3166-2 subdivisions (docs/geo.md, "Subdivisions"), the one definition used by `<page-geo>`,
 * its groups and the server's geo headers: a code is the country's two letters, a hyphen and the
 * subdivision's one to three letters or digits, lowercased (`us-ca`). A United States code must
 * name a state, the District of Columbia or an outlying area; other countries' codes are checked
 * by their form only. Pure.
 */
import { diagnostic, type Parsed } from './diagnostic.ts';

/** The 50 states, DC and the outlying areas (ISO 3166-2:US). */
const US_CODES =
  'al ak az ar ca co ct de dc fl ga hi id il in ia ks ky la me md ma mi mn ms mo mt ne nv nh nj nm ny nc nd oh ok or pa ri sc sd tn tx ut vt va wa wv wi wy as gu mp pr um vi';
export const US_SUBDIVISIONS: readonly string[] = US_CODES.split(' ').map((code) => `us-${code}`);

/** A subdivision code's form: `xx-y`, `xx-yy` or `xx-yyy` (lowercase). */
export const subdivisionPattern = /^[a-z]{2}-[a-z0-9]{1,3}$/;

/** True when `code` (lowercase) is a subdivision code of a known form and, in the United States, a known state or area. */
export const isSubdivision = (code: string): boolean =>
  subdivisionPattern.test(code) && (!code.startsWith('us-') || US_SUBDIVISIONS.includes(code));

/**
 * The subdivision a region value names for `country` (lowercase ISO 3166-1), in either form CDNs
 * send: the part after the hyphen (`CA`, `ca`) or the whole code (`US-CA`). null when the value
 * is malformed, names a subdivision of another country, or is no known US state or area.
 */
export function subdivisionOf(country: string, region: string): string | null {
  const lower = region.trim().toLowerCase();
  const code = lower.includes('-') ? lower : `${country}-${lower}`;
  return code.startsWith(`${country}-`) && isSubdivision(code) ? code : null;
}

/** The subdivision `<page-geo>` found (`unknown` or `xx-yyy`): an unknown US state or area is reported and read as `unknown`. */
export function readSubdivision(code: string): Parsed<string> {
  if (code === 'unknown' || isSubdivision(code)) return { value: code, diagnostics: [] };
  return {
    value: 'unknown',
    diagnostics: [diagnostic('geo-subdivision-invalid', `a state or area of ${code.slice(0, 2)} (us-ca)`, code)],
  };
}
