/**
 * Geo groups (docs/geo.md), the one definition used by `<page-geo>`, the server's instance
 * configs and the validator: the `ISOCountryGroups` map of group names to entries, and the
 * matching of a country against it. A group name is a letter, then letters and digits (it
 * becomes a class name); an entry is a two-letter ISO code, `unknown`, or a known preset, in
 * any case (kept lowercased, presets as written). Every group holding the country matches, in
 * config order; the server answers with the first. Pure.
 */
import { type Diagnostic, diagnostic, type Parsed } from './diagnostic.ts';
import { isRecord } from './values.ts';

export type GeoGroups = Readonly<Record<string, readonly string[]>>;

/** EU 27, Iceland, Liechtenstein, Norway, plus GB, CH and EU regions with their own ISO code. */
const EEA =
  'at be bg hr cy cz dk ee fi fr de gr hu ie it lv lt lu mt nl pl pt ro sk si es se is li no gb ch ax gf gp mq re yt mf';

/** Only countries are known: `preset-us-ca` (California) matches all of the US. */
export const PRESETS: Readonly<Record<string, readonly string[]>> = {
  'preset-eea': EEA.split(' '),
  'preset-us-ca': ['us'],
};

export const isGeoGroupName = (name: string): boolean => /^[a-z][a-z0-9]*$/i.test(name);

/** The entry lowercased; null when it is no two-letter code, `unknown` or preset (presets are own keys: not `constructor`). */
function readEntry(value: unknown): string | null {
  // Strings only (String() throws on `{"toString": 1}`).
  const lower = typeof value === 'string' ? value.toLowerCase() : '';
  return /^([a-z]{2}|unknown)$/.test(lower) || Object.hasOwn(PRESETS, lower) ? lower : null;
}

/**
 * The groups of an `ISOCountryGroups` map (`field` names it in diagnostics): an invalid group
 * or entry is dropped with a diagnostic naming its field, the rest kept.
 */
export function parseGeoGroups(value: unknown, field = 'ISOCountryGroups'): Parsed<GeoGroups> {
  const diagnostics: Diagnostic[] = [];
  const groups: Record<string, string[]> = {};
  if (!isRecord(value)) {
    return { value: groups, diagnostics: [diagnostic('geo-config-invalid', '{"ISOCountryGroups": {...}}', value, field)] };
  }
  for (const [name, list] of Object.entries(value)) {
    if (!isGeoGroupName(name) || !Array.isArray(list)) {
      diagnostics.push(diagnostic('geo-group-invalid', 'a name of letters and digits: [country codes]', { [name]: list }, `${field}.${name}`));
      continue;
    }
    groups[name] = list.flatMap((entry: unknown, index) => {
      const read = readEntry(entry);
      if (read !== null) return [read];
      diagnostics.push(diagnostic('geo-country-invalid', `an ISO country code, unknown or a preset in ${name}`, entry, `${field}.${name}[${index}]`));
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

const holds = (entry: string, country: string) => entry === country || (Object.hasOwn(PRESETS, entry) && PRESETS[entry]!.includes(country));

/** The groups that hold the country (directly or by a preset), in config order; `unknown` matches groups listing "unknown". */
export const matchGroups = (groups: GeoGroups, country: string): string[] =>
  Object.keys(groups).filter((name) => groups[name]?.some((entry) => holds(entry, country)));
