/**
 * Signals for ad tech (docs/consent.md, "Signals for ad tech"): a config that exposes the TCF API
 * needs a way for a TC string to arrive (`tcf`, `promptUiSrc` or `checkConsentHref`); the `tcf`
 * and `gpp` objects are read with the components' parsers; and a page that exposes TCF or GPP
 * should run the head stub (`v0/page-consent-stub-0.1.js`, or its text inline) before any other
 * script in `<head>`, else an ad tag there finds no CMP.
 */
import type { ConsentConfig } from '../src/wire/consent-config.ts';
import { parseGppConfig } from '../src/wire/gpp-config.ts';
import { parseTcfConfig } from '../src/wire/tcf-settings.ts';
import { find, type Finding, toFinding } from './finding.ts';
import { getAttribute, type HtmlElement, isDescendantOf, locate, readText } from './html-tree.ts';
import { findJsonScripts, type Page } from './page.ts';
import type { ConsentSummary } from './check-consent.ts';

/** The stub's file name, or a marker of its text inlined. */
const isStub = (script: HtmlElement) =>
  /(^|\/)page-consent-stub-0\.1\.js(\?|$)/.test(getAttribute(script, 'src') ?? '') ||
  readText(script).includes('__pageConsentStub');

function checkConfig(config: ConsentConfig, page: Page, at: ReturnType<typeof locate>, findings: Finding[]) {
  const { exposesTcfApi, tcf, gpp, promptUiSrc, checkConsentHref } = config;
  if (exposesTcfApi && !tcf && !promptUiSrc && !checkConsentHref) {
    findings.push(
      find(
        'consent-tcf-string-source-missing',
        'a tcf object, a promptUiSrc or a checkConsentHref with exposesTcfApi',
        'none of them',
        at,
      ),
    );
  }
  const diagnostics = [
    ...(tcf ? parseTcfConfig(tcf, page.baseUrl).diagnostics : []),
    ...(gpp ? parseGppConfig(gpp).diagnostics : []),
  ];
  for (const d of diagnostics) findings.push(toFinding(d, at));
}

function checkHeadStub(page: Page, findings: Finding[]) {
  const head = page.elements.find((element) => element.tagName === 'head');
  const scripts = page.elements.filter(
    (element) => element.tagName === 'script' && head && isDescendantOf(element, head),
  );
  const code = scripts.filter((script) => !/^application\/(ld\+)?json$/.test(getAttribute(script, 'type') ?? ''));
  const stubAt = code.findIndex(isStub);
  const before = stubAt === -1 ? code : code.slice(0, stubAt);
  const first = before[0];
  if (stubAt === -1 || !first) return;
  findings.push(
    find(
      'validate-stub-not-first',
      'the head stub (v0/page-consent-stub-0.1.js) before any other script in <head>',
      getAttribute(first, 'src') ?? 'an inline script',
      locate(first),
    ),
  );
}

export function checkSignals(page: Page, consent: ConsentSummary | null): Finding[] {
  if (!consent) return [];
  const findings: Finding[] = [];
  const at = locate(findJsonScripts(consent.element)[0] ?? consent.element);
  const seen = new Set<string>();
  for (const config of consent.configs) {
    const own: Finding[] = [];
    checkConfig(config, page, at, own);
    for (const finding of own)
      if (!seen.has(JSON.stringify(finding)) && seen.add(JSON.stringify(finding))) findings.push(finding);
  }
  if (consent.configs.some((config) => config.exposesTcfApi || config.exposesGppApi)) checkHeadStub(page, findings);
  return findings;
}
