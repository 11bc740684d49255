/**
 * Whether a page is set up for US readers (docs/us-privacy.md), read from its markup. The
 * validator's rule (`validate-us-opt-out-missing`): a `gpp` object in the consent config or one
 * of its `geoOverride` groups, or a `geoOverride` group of `<page-geo>` that holds the US or a US
 * state. The page audit's GPC visit (docs/validator.md, "Global Privacy Control") also takes two
 * signs of the page's own: a `consent.optOut` control, and `"gpc": "reject"` in any variant of the
 * config (docs/decisions/page-audit-gpc.md).
 */
import { parseActions } from '../src/wire/actions.ts';
import { parseConfigScripts } from '../src/wire/config-script.ts';
import { parseGeoConfig, PRESETS } from '../src/wire/geo-groups.ts';
import type { ConsentSummary } from './check-consent.ts';
import { getAttribute, readText } from './html-tree.ts';
import { findByTag, findJsonScripts, type Page } from './page.ts';

const isUsCode = (code: string) => code === 'us' || code.startsWith('us-') || code.startsWith('preset-us-');

/** The groups of the page's `<page-geo>` elements that hold a US code (a preset's codes included). */
function usGroupsOf(page: Page): Set<string> {
  const groups = new Set<string>();
  for (const element of findByTag(page, 'page-geo')) {
    const json = parseConfigScripts(findJsonScripts(element).map(readText));
    for (const [name, codes] of Object.entries(parseGeoConfig(json).value))
      if (codes.some((code) => isUsCode(code) || (PRESETS[code] ?? []).some(isUsCode))) groups.add(name);
  }
  return groups;
}

/** The validator's rule: a `gpp` object in a variant of the config, or a `geoOverride` group that `<page-geo>` fills with US codes. */
export function isSetUpForUsReaders(page: Page, consent: ConsentSummary): boolean {
  if (consent.configs.some((config) => config.gpp !== undefined)) return true;
  const usGroups = usGroupsOf(page);
  return consent.geoGroups.some((group) => usGroups.has(group));
}

/** Each `consent.optOut` call of the page (the consent element's id as the target), with the element that holds it. */
export function optOutCalls(page: Page, consentId: string) {
  return page.elements.flatMap((element) => {
    const on = getAttribute(element, 'on');
    const calls = on === null ? [] : [...parseActions(on).value.values()].flat();
    return calls
      .filter((call) => call.target === consentId && call.action === 'optOut')
      .map((call) => ({ element, call }));
  });
}

/** The audit's rule for its GPC visit: the validator's rule, a `consent.optOut` control, or `"gpc": "reject"`. */
export function isGpcVisitDue(page: Page, consent: ConsentSummary): boolean {
  const consentId = getAttribute(consent.element, 'id');
  return (
    isSetUpForUsReaders(page, consent) ||
    consent.configs.some((config) => config.gpc === 'reject') ||
    (consentId !== null && optOutCalls(page, consentId).length > 0)
  );
}
