/**
 * Attributes of inserted ads: the merge order of every layer, and the consent markers they take
 * from the page, never from a config (docs/auto-ads.md, "Config format"). Config attributes are parsed in
 * src/wire/auto-ads-attributes.ts.
 */
import type { Attributes } from '../wire/auto-ads-attributes.ts';

const MARKERS = ['data-block-on-consent', 'data-block-on-consent-purposes'];

/** Later layers win: defaults < network < config `attributes` < placement `attributes`. */
export function mergeAttributes(...layers: readonly Attributes[]): Attributes {
  return Object.assign({}, ...layers);
}

/** The blocking markers of `<page-auto-ads>` itself, for every ad it inserts. */
export function readConsentMarkers(element: Element): Attributes {
  const markers: Record<string, string> = {};
  for (const name of MARKERS) {
    const value = element.getAttribute(name);
    if (value !== null) markers[name] = value;
  }
  return markers;
}
