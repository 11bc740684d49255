/**
 * `<page-geo>`: resolves the country, matches the configured groups, sets the classes on
 * `<html>` and provides `geo` ({country, matchedGroups}) to `<page-consent>`.
 */
import type { Diagnostic, Layout, PageRuntime } from '../runtime/index.ts';
import { readConfigScript } from '../browser-shared/config-script.ts';
import { countryOf } from './country.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import { matchGroups, parseGeoConfig } from '../wire/geo-groups.ts';

export type GeoService = { readonly country: string; readonly matchedGroups: readonly string[] };

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
      if (document.readyState === 'loading') await new Promise((resolve) => addEventListener('DOMContentLoaded', resolve));
      const report = (d: Diagnostic) => page.report(element, d, 'warn');
      const { hash, hostname } = location;
      const allowDebug = element.hasAttribute('data-allow-debug-override');
      const { country, isDebugIgnored } = countryOf({ hash, hostname, allowDebug, patched });
      if (isDebugIgnored) report(diagnostic('geo-debug-ignored', 'a loopback host or data-allow-debug-override', hostname));
      const { value: groups, diagnostics } = parseGeoConfig(readConfigScript(element));
      diagnostics.forEach(report);
      const matchedGroups = matchGroups(groups, country);
      const names = matchedGroups.map((name) => `page-geo-group-${name}`);
      element.ownerDocument.documentElement.classList.add(`page-iso-country-${country}`, ...(names.length ? names : ['page-geo-no-group']));
      page.provideService('geo', { country, matchedGroups } satisfies GeoService);
    }
  };
}
