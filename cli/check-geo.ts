/**
 * `<page-geo>` (docs/geo.md): a config `parseGeoConfig` accepts, and every group the consent
 * config's `geoOverride` names defined in it.
 */
import { parseConfigScripts } from '../src/wire/config-script.ts';
import { parseGeoConfig } from '../src/wire/geo-groups.ts';
import type { ConsentSummary } from './check-consent.ts';
import { find, type Finding, toFinding } from './finding.ts';
import { type HtmlElement, locate, readText } from './html-tree.ts';
import { findByTag, findJsonScripts, type Page } from './page.ts';

/** The config script's JSON by the components' rule; undefined (which the parser refuses) without one. */
const readConfigJson = (element: HtmlElement): unknown => parseConfigScripts(findJsonScripts(element).map(readText));

export function checkGeo(page: Page, consent: ConsentSummary | null): Finding[] {
  const findings: Finding[] = [];
  const groups = new Set<string>();
  const elements = findByTag(page, 'page-geo');
  for (const element of elements) {
    const at = locate(findJsonScripts(element)[0] ?? element);
    const parsed = parseGeoConfig(readConfigJson(element));
    findings.push(...parsed.diagnostics.map((d) => toFinding(d, at)));
    for (const name of Object.keys(parsed.value)) groups.add(name);
  }
  // Without <page-geo>, check-consent reports consent-geo-missing instead.
  if (!elements.length || !consent) return findings;
  for (const name of consent.geoGroups.filter((group) => !groups.has(group))) {
    findings.push(
      find(
        'validate-geo-group-unknown',
        `a group of <page-geo> (${[...groups].join(', ')})`,
        name,
        locate(consent.element),
      ),
    );
  }
  return findings;
}
