/**
 * `<page-geo>` config (PRODUCT 5): `{"ISOCountryGroups": {"eea": ["preset-eea"], ...}}` and the
 * matching of a country against its groups. Pure.
 */
import type { Diagnostic, Parsed } from '../runtime/index.ts';
import { diagnostic as problem } from '../wire/diagnostic.ts';

export type GeoGroups = Readonly<Record<string, readonly string[]>>;

/** EU 27, Iceland, Liechtenstein, Norway, plus GB, CH and EU regions with their own ISO code. */
const EEA =
  'at be bg hr cy cz dk ee fi fr de gr hu ie it lv lt lu mt nl pl pt ro sk si es se is li no gb ch ax gf gp mq re yt mf';

/** Only countries are known: `preset-us-ca` (California) matches all of the US. */
export const PRESETS: Readonly<Record<string, readonly string[]>> = {
  'preset-eea': EEA.split(' '),
  'preset-us-ca': ['us'],
};


/** Group names become class names: a letter, then letters and digits. */
export function parseGeoConfig(json: unknown): Parsed<GeoGroups> {
  const diagnostics: Diagnostic[] = [];
  const groups: Record<string, string[]> = {};
  const config = json as { ISOCountryGroups?: unknown } | null;
  const entries = config?.ISOCountryGroups;
  if (typeof entries !== 'object' || !entries || Array.isArray(entries)) {
    diagnostics.push(problem('geo-config-invalid', '{"ISOCountryGroups": {...}}', json));
    return { value: groups, diagnostics };
  }
  for (const [name, list] of Object.entries(entries)) {
    if (!/^[a-z][a-z0-9]*$/i.test(name) || !Array.isArray(list)) {
      diagnostics.push(problem('geo-group-invalid', 'a name of letters and digits: [country codes]', { [name]: list }));
      continue;
    }
    groups[name] = list.flatMap((code: unknown) => {
      // Strings only (String() throws on `{"toString": 1}`), and presets as own keys (not `constructor`).
      const lower = typeof code === 'string' ? code.toLowerCase() : '';
      if (/^([a-z]{2}|unknown)$/.test(lower)) return [lower];
      if (Object.hasOwn(PRESETS, lower)) return PRESETS[lower]!;
      diagnostics.push(problem('geo-country-invalid', `an ISO country code, unknown or a preset in ${name}`, code));
      return [];
    });
  }
  return { value: groups, diagnostics };
}

/** The groups that list the country, in config order; `unknown` matches groups listing "unknown". */
export const matchGroups = (groups: GeoGroups, country: string): string[] =>
  Object.keys(groups).filter((name) => groups[name]?.includes(country));
