/**
 * TC strings for the decisions of our own prompts (docs/consent.md, "TC strings from our own
 * prompts"): every decision that waits for one gets the string of `src/tcf/tc-string.ts`, built
 * on the GVL of `tcf.vendorListHref` under the publisher's CMP ids, and handed back to
 * `<page-consent>`, which stores it with the decision and posts it to `onUpdateHref`. Without a
 * usable `tcf` config or GVL: one diagnostic, and the decision goes on without a string. With
 * `tcf.googleAtps`, the decision's Additional Consent string goes into its metadata
 * (`additionalConsent`): the ATPs are disclosed, and consented when the TC string consents to
 * purpose 1 (docs/decisions/additional-consent.md). A publisher restriction the GVL does not
 * allow for some of its vendors is reported once per page (`consent-tcf-restriction-unused`)
 * and left out for them (docs/decisions/tcf-publisher-restrictions.md).
 */
import type { ConsentSignal, SignalSource } from '../consent/signal-source.ts';
import { STRING_TYPE } from '../consent/signal-source.ts';
import { encodeTcString } from '../tcf/tc-string.ts';
import { choicesOfDecision, type TcfSettings } from '../tcf/tc-choices.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import { parseTcfConfig } from '../wire/tcf-settings.ts';
import { loadAtpIds, loadVendorList } from './vendor-list.ts';
import { formatAdditionalConsent } from '../wire/additional-consent.ts';
import type { TcfConfig } from '../wire/tcf-settings.ts';
import type { TcfChoices } from '../tcf/tc-choices.ts';
import { USABLE_FOR, unusableRestrictions } from '../tcf/restrictions.ts';
import type { GvlJson } from '../wire/gvl.ts';

/** One diagnostic per restriction that some of its vendors cannot take under `gvl` (a warning: the rest applies). */
function reportUnusable(config: TcfConfig, gvl: GvlJson, report: SignalSource['report']): void {
  const restrictions = config.publisherRestrictions ?? [];
  for (const { index, vendors } of unusableRestrictions(gvl, restrictions)) {
    // Named by its purpose and type: a bad entry before it was dropped, so its index is not the config's.
    const { purpose, type } = restrictions[index]!;
    const expected = `tcf.publisherRestrictions (${type} on purpose ${purpose}): ${USABLE_FOR[type]}`;
    report(diagnostic('consent-tcf-restriction-unused', expected, vendors, 'tcf.publisherRestrictions'), 'warn');
  }
}

/** The AC string of `choices` (undefined: no `googleAtps`, or "all" without a list that loads). */
async function additionalConsentOf(
  config: TcfConfig,
  choices: TcfChoices,
  report: SignalSource['report'],
): Promise<string | undefined> {
  const { googleAtps, googleAtpListHref } = config;
  if (!googleAtps) return undefined;
  const { value: ids, diagnostics } =
    googleAtps === 'all' ? await loadAtpIds(googleAtpListHref!) : { value: googleAtps, diagnostics: [] };
  for (const d of diagnostics) report(d, d.code === 'remote-answer-too-large' ? 'error' : 'warn');
  const isConsented = choices.purposeConsents.includes(1);
  return ids ? formatAdditionalConsent(ids, () => isConsented) : undefined;
}

/** Builds the string for each waiting decision; reports once per failing decision. */
export function startTcStrings(source: SignalSource): void {
  const { value: config, diagnostics } = parseTcfConfig(source.tcf, location.href);
  for (const d of diagnostics) source.report(d, 'warn');
  let building = '';
  let isRestrictionChecked = false;
  const build = async (signal: ConsentSignal) => {
    const { decisionKey, state } = signal;
    if (!config || (state !== 'accepted' && state !== 'rejected')) return source.addString(decisionKey, null);
    const { value: gvl, diagnostics: failures } = await loadVendorList(config.vendorListHref);
    for (const d of failures) source.report(d, d.code === 'remote-answer-too-large' ? 'error' : 'warn');
    if (!gvl) return source.addString(decisionKey, null);
    if (!isRestrictionChecked) {
      isRestrictionChecked = true;
      reportUnusable(config, gvl, source.report);
    }
    const settings: TcfSettings = { ...config, cmpId: source.cmpId, cmpVersion: source.cmpVersion };
    try {
      const choices = choicesOfDecision(gvl, settings, { state, purposeConsents: signal.purposeConsents });
      const consentString = encodeTcString(gvl, settings, choices);
      const additionalConsent = await additionalConsentOf(config, choices, source.report);
      const consentMetadata = {
        ...signal.consentMetadata,
        consentStringType: STRING_TYPE.tcfV2,
        ...(additionalConsent ? { additionalConsent } : {}),
      };
      source.addString(decisionKey, { consentString, consentMetadata, tcfPolicyVersion: gvl.tcfPolicyVersion });
    } catch (error) {
      source.report(diagnostic('consent-tcf-string-failed', 'a TC string the IAB library encodes', String(error)));
      source.addString(decisionKey, null);
    }
  };
  const update = (signal: ConsentSignal) => {
    if (signal.isStringPending && building !== (building = signal.decisionKey)) build(signal);
  };
  source.subscribe(update);
  update(source.current());
}
