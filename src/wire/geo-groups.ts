/**
 * Geo groups (docs/geo.md), the one definition used by `<page-geo>`, the server's instance
 * configs and the validator: the `ISOCountryGroups` map of group names to entries, and the
 * matching of a country and subdivision against it. A group name is a letter, then letters and
 * digits (it becomes a class name); an entry is a two-letter ISO code, an ISO 3166-2 subdivision
 * code (`us-ca`, geo-subdivisions.ts), `unknown`, or a known preset, in any case (kept
 * lowercased, presets as written). Every group holding the reader matches, in config order; the
 * server answers with the first. Pure.
 */
import { type Diagnostic, diagnostic, type Parsed } from './diagnostic.ts';
import { isSubdivision, subdivisionPattern } from './geo-subdivisions.ts';
import { isRecord } from './values.ts';

export type GeoGroups = Readonly<Record<string, readonly string[]>>;

/** EU 27, Iceland, Liechtenstein, Norway, plus GB, CH and EU regions with their own ISO code. */
const EEA =
  'at be bg hr cy cz dk ee fi fr de gr hu ie it lv lt lu mt nl pl pt ro sk si es se is li no gb ch ax gf gp mq re yt mf';

/**
 * The states with a comprehensive consumer privacy law in force, dated in docs/geo.md
 * ("preset-us-privacy-states"); docs/decisions/geo-subdivisions.md says which laws count.
 */
const US_PRIVACY_STATES = 'ca va co ct ut tx or mt ia de ne nh nj tn mn md in ky ri';

export const PRESETS: Readonly<Record<string, readonly string[]>> = {
  'preset-eea': EEA.split(' '),
  'preset-us-ca': ['us-ca'],
  'preset-us-privacy-states': US_PRIVACY_STATES.split(' ').map((state) => `us-${state}`),
};

/**
 * Where a reader whose country is known but whose subdivision is not falls: `strictest`, in every
 * group naming a subdivision of that country; `national`, in none of them (docs/geo.md).
 */
export type SubdivisionFallback = 'strictest' | 'national';

export const isGeoGroupName = (name: string): boolean => /^[a-z][a-z0-9]*$/i.test(name);

/** The entry lowercased; null when it is no two-letter code, known subdivision, `unknown` or preset (presets are own keys: not `constructor`). */
function readEntry(value: unknown): string | null {
  // Strings only (String() throws on `{"toString": 1}`).
  const lower = typeof value === 'string' ? value.toLowerCase() : '';
  return /^([a-z]{2}|unknown)$/.test(lower) || isSubdivision(lower) || Object.hasOwn(PRESETS, lower) ? lower : null;
}

/** The diagnostic of a dropped entry: a subdivision code of an unknown US state or area has its own code. */
function entryDiagnostic(entry: unknown, name: string, field: string): Diagnostic {
  if (typeof entry === 'string' && subdivisionPattern.test(entry.toLowerCase())) {
    return diagnostic(
      'geo-subdivision-invalid',
      `a US state or area (us-ca) or another country's subdivision in ${name}`,
      entry,
      field,
    );
  }
  return diagnostic('geo-country-invalid', `an ISO country code, unknown or a preset in ${name}`, entry, field);
}

/**
 * The groups of an `ISOCountryGroups` map (`field` names it in diagnostics): an invalid group
 * or entry is dropped with a diagnostic naming its field, the rest kept.
 */
export function parseGeoGroups(value: unknown, field = 'ISOCountryGroups'): Parsed<GeoGroups> {
  const diagnostics: Diagnostic[] = [];
  const groups: Record<string, string[]> = {};
  if (!isRecord(value)) {
    return {
      value: groups,
      diagnostics: [diagnostic('geo-config-invalid', '{"ISOCountryGroups": {...}}', value, field)],
    };
  }
  for (const [name, list] of Object.entries(value)) {
    if (!isGeoGroupName(name) || !Array.isArray(list)) {
      diagnostics.push(
        diagnostic(
          'geo-group-invalid',
          'a name of letters and digits: [country codes]',
          { [name]: list },
          `${field}.${name}`,
        ),
      );
      continue;
    }
    groups[name] = list.flatMap((entry: unknown, index) => {
      const read = readEntry(entry);
      if (read !== null) return [read];
      diagnostics.push(entryDiagnostic(entry, name, `${field}.${name}[${index}]`));
      return [];
    });
  }
  return { value: groups, diagnostics };
}

/** `<page-geo>`'s JSON config: `{"ISOCountryGroups": {...}}`. */
export function parseGeoConfig(json: unknown): Parsed<GeoGroups> {
  const entries = isRecord(json) && Object.hasOwn(json, 'ISOCountryGroups') ? json['ISOCountryGroups'] : undefined;
  if (isRecord(entries)) return parseGeoGroups(entries);
  return { value: {}, diagnostics: [diagnostic('geo-config-invalid', '{"ISOCountryGroups": {...}}', json)] };
}

/** `<page-geo>`'s `subdivisionUnknown` (absent: `strictest`); any other value is reported and `strictest` kept. */
export function parseSubdivisionFallback(json: unknown): Parsed<SubdivisionFallback> {
  const value = isRecord(json) && Object.hasOwn(json, 'subdivisionUnknown') ? json['subdivisionUnknown'] : 'strictest';
  if (value === 'strictest' || value === 'national') return { value, diagnostics: [] };
  return {
    value: 'strictest',
    diagnostics: [diagnostic('geo-fallback-invalid', '"strictest" or "national"', value, 'subdivisionUnknown')],
  };
}

/** A code (`us`, `us-ca`, `unknown`) holds the reader by country, by subdivision, or under `strictest` as a subdivision of the reader's country when theirs is unknown. */
function holdsCode(code: string, country: string, subdivision: string, fallback: SubdivisionFallback): boolean {
  if (!subdivisionPattern.test(code)) return code === country;
  return (
    code === subdivision || (subdivision === 'unknown' && fallback === 'strictest' && code.startsWith(`${country}-`))
  );
}

/**
 * The groups that hold the reader (directly or by a preset), in config order; `unknown` matches
 * groups listing "unknown". `subdivision` is a known code or `unknown` (the default: the server
 * and the validator know countries only).
 */
export function matchGroups(
  groups: GeoGroups,
  country: string,
  subdivision = 'unknown',
  fallback: SubdivisionFallback = 'strictest',
): string[] {
  const holds = (entry: string) =>
    (Object.hasOwn(PRESETS, entry) ? PRESETS[entry]! : [entry]).some((code) =>
      holdsCode(code, country, subdivision, fallback),
    );
  return Object.keys(groups).filter((name) => groups[name]?.some(holds));
}
