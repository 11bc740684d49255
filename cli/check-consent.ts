/**
 * `<page-consent>` (docs/consent.md, "Config"): one per page, an `id`, `layout="nodisplay"`, one JSON config
 * that `parseConsentConfig` accepts for the base config and for every `geoOverride` group,
 * `promptUI`/`postPromptUI` ids that exist, the blocking meta tag with a CMP `type`.
 */
import { type ConsentConfig, parseConsentConfig } from '../src/wire/consent-config.ts';
import { parseConfigScripts } from '../src/wire/config-script.ts';
import { CMP_PRESETS } from '../src/wire/consent-presets.ts';
import { isPurposeId, PURPOSE_ID_EXPECTED } from '../src/wire/purpose-id.ts';
import { find, type Finding, toFinding } from './finding.ts';
import { getAttribute, type HtmlElement, isDescendantOf, locate, readText } from './html-tree.ts';
import { findById, findByTag, findJsonScripts, type Page, readMetaBlocking } from './page.ts';

/** What the other checks need to know about the page's consent element. */
export type ConsentSummary = {
  readonly element: HtmlElement;
  /** Every variant of the config (base, then one per `geoOverride` group) that parsed. */
  readonly configs: readonly ConsentConfig[];
  /** The group names `geoOverride` refers to. */
  readonly geoGroups: readonly string[];
};

export type ConsentCheck = { readonly findings: Finding[]; readonly consent: ConsentSummary | null };

/** The config script's JSON by the components' rule (src/wire/config-script.ts), or a finding saying why there is none. */
function readConfigJson(element: HtmlElement): { json?: unknown; finding?: Finding } {
  const scripts = findJsonScripts(element);
  const [script] = scripts;
  const json = parseConfigScripts(scripts.map(readText));
  if (json !== undefined) return { json };
  if (scripts.length !== 1) {
    return {
      finding: find(
        'consent-config-invalid',
        'exactly one <script type="application/json"> child',
        `${scripts.length} scripts`,
        locate(script ?? element),
      ),
    };
  }
  return { finding: find('consent-config-invalid', 'valid JSON', readText(script!), locate(script!)) };
}

function readGeoOverrideGroups(json: unknown): string[] {
  const override =
    typeof json === 'object' && json !== null ? Object.getOwnPropertyDescriptor(json, 'geoOverride')?.value : undefined;
  return typeof override === 'object' && override !== null && !Array.isArray(override) ? Object.keys(override) : [];
}

function checkElement(element: HtmlElement, page: Page, findings: Finding[]): void {
  if (!getAttribute(element, 'id')) findings.push(find('consent-id-missing', 'an id', null, locate(element)));
  const layout = getAttribute(element, 'layout');
  if (layout !== 'nodisplay')
    findings.push(
      find('validate-consent-layout', 'layout="nodisplay"', layout ?? undefined, locate(element, 'layout')),
    );
  const type = getAttribute(element, 'type');
  if (type !== null && !readMetaBlocking(page)) {
    findings.push(
      find(
        'validate-blocking-meta-missing',
        '<meta name="page-consent-blocking" content="..."> with a CMP type',
        'no meta tag',
        locate(element, 'type'),
      ),
    );
  }
}

function checkUiIds(element: HtmlElement, config: ConsentConfig, page: Page, findings: Finding[]): void {
  const at = locate(element);
  const prompt = config.promptUI === undefined ? undefined : findById(page.elements, config.promptUI);
  if (config.promptUI !== undefined && !(prompt && isDescendantOf(prompt, element))) {
    findings.push(
      find('consent-prompt-missing', 'a descendant of <page-consent> with the promptUI id', config.promptUI, at),
    );
  }
  if (config.postPromptUI !== undefined && !findById(page.elements, config.postPromptUI)) {
    findings.push(find('consent-post-prompt-missing', 'an element with the postPromptUI id', config.postPromptUI, at));
  }
}

export function checkConsent(page: Page): ConsentCheck {
  const [element, ...duplicates] = findByTag(page, 'page-consent');
  if (!element) return { findings: [], consent: null };
  const findings = duplicates.map((duplicate) =>
    find('consent-duplicate', 'one per page', getAttribute(duplicate, 'id'), locate(duplicate)),
  );
  checkElement(element, page, findings);
  const { json, finding } = readConfigJson(element);
  if (finding) return { findings: [...findings, finding], consent: { element, configs: [], geoGroups: [] } };
  const geoGroups = readGeoOverrideGroups(json);
  const at = locate(findJsonScripts(element)[0] ?? element);
  const configs: ConsentConfig[] = [];
  const seen = new Set<string>();
  for (const group of [null, ...geoGroups]) {
    const parsed = parseConsentConfig(json, {
      geoGroups: group === null ? [] : [group],
      type: getAttribute(element, 'type'),
      baseUrl: page.baseUrl,
      presets: CMP_PRESETS,
    });
    // A problem only the group's merge shows is reported with the group's name.
    for (const d of parsed.diagnostics.filter((d) => !seen.has(JSON.stringify(d)))) {
      seen.add(JSON.stringify(d));
      findings.push(
        toFinding(group === null ? d : { ...d, expected: `${d.expected} (geoOverride group ${group})` }, at),
      );
    }
    if (parsed.value) configs.push(parsed.value);
  }
  for (const config of configs) checkUiIds(element, config, page, findings);
  // The components read these as they are; no answer, stored decision or prompt can choose an id outside the rule.
  for (const id of new Set(configs.flatMap((config) => config.purposeConsentRequired))) {
    if (!isPurposeId(id))
      findings.push(find('validate-purpose-id-invalid', `purposeConsentRequired: ${PURPOSE_ID_EXPECTED}`, id, at));
  }
  if (geoGroups.length && !findByTag(page, 'page-geo').length)
    findings.push(find('consent-geo-missing', '<page-geo>', null, at));
  return { findings, consent: { element, configs, geoGroups } };
}
