/**
 * Server-side geo grouping, for check requests that carry no `matchedGeoGroup`: an instance
 * maps group names to lowercase ISO 3166-1 alpha-2 codes or presets, like `<page-geo>`'s
 * `ISOCountryGroups` (PRODUCT 5). The first group in key order that holds the country wins;
 * presets are own keys only (`preset-constructor` names nothing).
 */
import { PRESETS } from '../src/geo/geo-groups.ts';

/** The same presets as `<page-geo>` (one list for client and server). */
export const countryPresets = PRESETS;

export const geoGroupEntryPattern = /^([a-z]{2}(-[a-z0-9]{1,3})?|preset-[a-z0-9-]+)$/;

export function groupForCountry(
  country: string,
  geoGroups: Readonly<Record<string, readonly string[]>>,
): string | null {
  for (const [group, entries] of Object.entries(geoGroups)) {
    const matches = entries.some(
      (entry) => entry === country || (Object.hasOwn(countryPresets, entry) && countryPresets[entry]!.includes(country)),
    );
    if (matches) return group;
  }
  return null;
}
