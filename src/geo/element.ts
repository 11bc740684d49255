/**
 * `<page-geo>`: resolves the country and subdivision, matches the configured groups, sets the
 * classes on `<html>` and provides `geo` ({country, subdivision, matchedGroups}) to `<page-consent>`.
 */
import type { Diagnostic, Layout, PageRuntime } from '../runtime/index.ts';
import { readConfigScript } from '../browser-shared/config-script.ts';
import { countryOf } from './country.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import { matchGroups, parseGeoConfig, parseSubdivisionFallback } from '../wire/geo-groups.ts';
import { readSubdivision } from '../wire/geo-subdivisions.ts';

/** `subdivision`: a known ISO 3166-2 code (`us-ca`) or `unknown`. */
export type GeoService = {
  readonly country: string;
  readonly subdivision: string;
  readonly matchedGroups: readonly string[];
};

export function createGeoElement(page: PageRuntime, patched: string) {
  return class PageGeoElement extends page.PageElement {
    override isBlockable() {
      return false;
    }

    override isLayoutSupported(layout: Layout) {
      return layout === 'nodisplay' || layout === 'container';
    }

    override async buildCallback() {
      const { element } = this;
      // The config child may not be parsed yet when the script runs first (cached scripts).
      if (document.readyState === 'loading')
        await new Promise((resolve) => addEventListener('DOMContentLoaded', resolve));
      const report = (d: Diagnostic) => page.report(element, d, 'warn');
      const { hash, hostname } = location;
      const allowDebug = element.hasAttribute('data-allow-debug-override');
      const place = countryOf({ hash, hostname, allowDebug, patched });
      const { country, isDebugIgnored } = place;
      if (isDebugIgnored)
        report(diagnostic('geo-debug-ignored', 'a loopback host or data-allow-debug-override', hostname));
      const json = readConfigScript(element);
      const groups = parseGeoConfig(json);
      const fallback = parseSubdivisionFallback(json);
      const known = readSubdivision(place.subdivision);
      for (const parsed of [groups, fallback, known]) parsed.diagnostics.forEach(report);
      const subdivision = known.value;
      const matchedGroups = matchGroups(groups.value, country, subdivision, fallback.value);
      const names = matchedGroups.map((name) => `page-geo-group-${name}`);
      if (!names.length) names.push('page-geo-no-group');
      if (subdivision !== 'unknown') names.push(`page-iso-subdivision-${subdivision}`);
      element.ownerDocument.documentElement.classList.add(`page-iso-country-${country}`, ...names);
      page.provideService('geo', { country, subdivision, matchedGroups } satisfies GeoService);
    }
  };
}
