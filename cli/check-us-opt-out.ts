/**
 * The Do-Not-Sell/Share control (docs/us-privacy.md, "The Do-Not-Sell/Share control"): a page
 * set up for US readers (us-readers.ts: a `gpp` object in the consent config or one of its
 * `geoOverride` groups, or a `geoOverride` group of `<page-geo>` that holds the US or a US state)
 * should offer `consent.optOut`; and every `optOut` call on the page names a category the action knows.
 */
import { parseOptOutArguments } from '../src/wire/us-opt-outs.ts';
import type { ConsentSummary } from './check-consent.ts';
import { find, type Finding, toFinding } from './finding.ts';
import { getAttribute, locate } from './html-tree.ts';
import type { Page } from './page.ts';
import { isSetUpForUsReaders, optOutCalls } from './us-readers.ts';

export function checkUsOptOut(page: Page, consent: ConsentSummary | null): Finding[] {
  const consentId = consent && getAttribute(consent.element, 'id');
  if (!consent || !consentId) return [];
  const calls = optOutCalls(page, consentId);
  const findings = calls.flatMap(({ element, call }) =>
    parseOptOutArguments(call.args).diagnostics.map((d) => toFinding(d, locate(element, 'on'))),
  );
  if (!calls.length && isSetUpForUsReaders(page, consent))
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
