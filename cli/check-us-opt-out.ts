/**
 * The Do-Not-Sell/Share control (docs/us-privacy.md, "The Do-Not-Sell/Share control"): a page
 * set up for US readers (a `gpp` object in the consent config or one of its `geoOverride`
 * groups, or a `geoOverride` group of `<page-geo>` that holds the US or a US state) should offer
 * `consent.optOut`; and every `optOut` call on the page names a category the action knows.
 */
import { parseActions } from '../src/wire/actions.ts';
import { parseConfigScripts } from '../src/wire/config-script.ts';
import { parseGeoConfig, PRESETS } from '../src/wire/geo-groups.ts';
import { parseOptOutArguments } from '../src/wire/us-opt-outs.ts';
import type { ConsentSummary } from './check-consent.ts';
import { find, type Finding, toFinding } from './finding.ts';
import { getAttribute, locate, readText } from './html-tree.ts';
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

export function checkUsOptOut(page: Page, consent: ConsentSummary | null): Finding[] {
  const consentId = consent && getAttribute(consent.element, 'id');
  if (!consent || !consentId) return [];
  const findings: Finding[] = [];
  let hasControl = false;
  for (const element of page.elements) {
    const on = getAttribute(element, 'on');
    for (const calls of on === null ? [] : parseActions(on).value.values())
      for (const call of calls) {
        if (call.target !== consentId || call.action !== 'optOut') continue;
        hasControl = true;
        for (const d of parseOptOutArguments(call.args).diagnostics) findings.push(toFinding(d, locate(element, 'on')));
      }
  }
  const usGroups = usGroupsOf(page);
  const isForUs =
    consent.configs.some((config) => config.gpp !== undefined) ||
    consent.geoGroups.some((group) => usGroups.has(group));
  if (isForUs && !hasControl)
    findings.push(
      find(
        'validate-us-opt-out-missing',
        `a "Do Not Sell or Share My Personal Information" control (on="tap:${consentId}.optOut") on a page set up for US readers`,
        'none',
        locate(consent.element),
      ),
    );
  return findings;
}
