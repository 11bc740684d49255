/**
 * Server-side geo grouping, for check requests that carry no `matchedGeoGroup`: an instance
 * maps group names to lowercase ISO 3166-1 alpha-2 codes or presets, like `<page-geo>`'s
 * `ISOCountryGroups` (PRODUCT 5). The first group in key order that holds the country wins.
 */

/** EEA + UK + CH and their territories, as `<page-geo>`'s `preset-eea`. */
const eea = [
  'at', 'ax', 'be', 'bg', 'bl', 'ch', 'cy', 'cz', 'de', 'dk', 'ee', 'es', 'fi', 'fr', 'gb', 'gf', 'gi', 'gp',
  'gr', 'hr', 'hu', 'ie', 'is', 'it', 'li', 'lt', 'lu', 'lv', 'mf', 'mq', 'mt', 'nl', 'no', 'pl', 'pt', 're',
  'ro', 'se', 'si', 'sk', 'yt',
];

/**
 * `preset-us-ca` needs a region, which a country lookup cannot give, so on the server it
 * matches nothing; pages that need it send `matchedGeoGroup` from `<page-geo>`.
 */
export const countryPresets: Readonly<Record<string, readonly string[]>> = {
  'preset-eea': eea,
  'preset-us-ca': [],
};

export const geoGroupEntryPattern = /^([a-z]{2}(-[a-z0-9]{1,3})?|preset-[a-z0-9-]+)$/;

export function groupForCountry(
  country: string,
  geoGroups: Readonly<Record<string, readonly string[]>>,
): string | null {
  for (const [group, entries] of Object.entries(geoGroups)) {
    const matches = entries.some((entry) => entry === country || countryPresets[entry]?.includes(country));
    if (matches) return group;
  }
  return null;
}
