/**
 * Signals for ad tech (docs/consent.md, "Signals for ad tech"), started by `<page-consent>` once
 * its config is parsed: Consent Mode default first, then `__uspapi`, the `__tcfapi`/`__gpp`
 * stubs and their lazy parts, fed through the `consent-signals` service. The parts hand back
 * what they build: the TC string of a decision (stored with it) and the TC string inside a GPP
 * string (for `__tcfapi`).
 */
import type { Diagnostic, PageRuntime } from '../runtime/index.ts';
import type { DecisionData } from '../wire/consent.ts';
import type { ConsentConfig } from '../wire/consent-config.ts';
import { installStub } from './api-stub.ts';
import { parseConsentModeMapping, parseConsentModeOptions, startConsentMode } from './consent-mode.ts';
import { diagnose } from './diagnose.ts';
import { detailOf } from './provider.ts';
import { GPP_API, TCF_API, TCF_API_VERSION } from './signal-apis.ts';
import { type ConsentSignal, SIGNALS_SERVICE, type SignalSource, STRING_TYPE, stringOfType } from './signal-source.ts';
import { type ConsentEvent, type ConsentModel, decisionKeyOf, isRequiredOf, isTcStringPendingOf } from './state.ts';
import { installUsPrivacyApi } from './us-privacy.ts';

export const signalOf = (model: ConsentModel, tcfFromGpp?: string | null): ConsentSignal => ({
  ...detailOf(model),
  isConsentRequired: isRequiredOf(model.state),
  isKnown: model.state.kind !== 'pending',
  isPromptShown: model.isPromptShown,
  hasTimedOut: model.state.kind === 'unknown' && model.state.hasTimedOut,
  tcfPolicyVersion: model.tcfPolicyVersion,
  isStringPending: isTcStringPendingOf(model),
  decisionKey: decisionKeyOf(model),
  tcfFromGpp,
});

/** The longest wait for a part's string (the GVL fetch has its own, shorter time-out): the decision then goes on without. */
export const STRING_WAIT_MS = 8000;

const isInteger = (value: unknown, minimum: number) => Number.isInteger(value) && (value as number) >= minimum;

/** Adds `page-consent-<name>-0.1.js` from the directory of the consent script. */
function loadBundle(name: string, scriptUrl: string, report: (d: Diagnostic) => void) {
  const script = document.createElement('script');
  script.async = true;
  script.src = new URL(`page-consent-${name}-0.1.js`, scriptUrl || location.href).href;
  script.onerror = () => report(diagnose('consent-signals-load-failed', 'the script to load', script.src));
  document.head.append(script);
}

/** The config's mistakes about TCF: missing CMP ids (no API then), or no way for a TC string to arrive. */
function checkTcfConfig(config: ConsentConfig, hasIds: boolean, diagnostics: Diagnostic[]) {
  const { exposesTcfApi, cmpId, cmpVersion } = config;
  if (exposesTcfApi && !hasIds) diagnostics.push(diagnose('consent-cmp-id-missing', 'cmpId (an integer of 2 or more) and cmpVersion (an integer) with exposesTcfApi', { cmpId, cmpVersion }));
  if (exposesTcfApi && !config.tcf && !config.promptUiSrc && !config.checkConsentHref) {
    diagnostics.push(diagnose('consent-tcf-string-source-missing', 'a tcf object, a promptUiSrc or a checkConsentHref with exposesTcfApi', 'none of them'));
  }
}

/** Starts every configured signal; returns the function to call with each new model. */
export function startSignals(page: PageRuntime, config: ConsentConfig, report: (d: Diagnostic) => void, scriptUrl: string, dispatch: (event: ConsentEvent) => void) {
  const diagnostics: Diagnostic[] = [];
  const mapping = config.consentModeMapping && parseConsentModeMapping(config.consentModeMapping, diagnostics);
  const updateConsentMode = mapping && startConsentMode(mapping, parseConsentModeOptions(config.consentModeOptions ?? {}, diagnostics));
  let model: ConsentModel | undefined;
  let signal: ConsentSignal | undefined;
  const listeners: ((signal: ConsentSignal) => void)[] = [];
  const updateUsPrivacy = installUsPrivacyApi(() => signal);
  const { exposesTcfApi, exposesGppApi, cmpId, cmpVersion } = config;
  // TCF needs the publisher's CMP ids; GPP takes them when given, else 0.
  const hasIds = isInteger(cmpId, 2) && isInteger(cmpVersion, 0);
  checkTcfConfig(config, hasIds, diagnostics);
  const apis = [exposesTcfApi && hasIds && TCF_API, exposesGppApi && GPP_API].filter((api) => !!api);
  const hasBoth = apis.length === 2;
  const addString = (decisionKey: string, data: DecisionData | null) => dispatch({ type: 'add-string', decisionKey, ...data });
  let fromGpp: { gppString: string; tcString: string | null } | undefined;
  const shareTcfFromGpp = (gppString: string, tcString: string | null) => {
    fromGpp = { gppString, tcString };
    if (model) update(model);
  };
  if (apis.length) {
    const ids = hasIds ? { cmpId: cmpId as number, cmpVersion: cmpVersion as number } : { cmpId: 0, cmpVersion: 0 };
    const { tcf, gpp } = config;
    const source: SignalSource = {
      ...ids, report, tcf, gpp, baseUrl: location.href, hasGpp: !!exposesGppApi, hasTcf: !!(exposesTcfApi && hasIds), addString, shareTcfFromGpp,
      current: () => signal!,
      subscribe: (listener) => listeners.push(listener),
    };
    if (exposesTcfApi && hasIds && tcf) dispatch({ type: 'expect-tc-string' });
    page.provideService(SIGNALS_SERVICE, source);
    for (const api of apis) {
      const stubPing = api.stubPing!();
      installStub(api, () => (api === TCF_API ? { ...stubPing, ...ids, apiVersion: TCF_API_VERSION } : { ...stubPing, cmpId: ids.cmpId }));
      loadBundle(api === TCF_API ? 'tcf' : 'gpp', scriptUrl, report);
    }
  }
  for (const d of diagnostics) report(d);
  let waited = '';
  const update = (next: ConsentModel) => {
    model = next;
    const gppString = hasBoth ? stringOfType(signalOf(next), STRING_TYPE.gpp) : '';
    signal = signalOf(next, gppString && fromGpp?.gppString === gppString ? fromGpp.tcString : undefined);
    const { decisionKey } = signal;
    // If a part never answers (it did not load), the decision goes on without its string.
    if (signal.isStringPending && waited !== (waited = decisionKey)) setTimeout(() => addString(decisionKey, null), STRING_WAIT_MS);
    if (gppString && signal.tcfFromGpp === undefined) setTimeout(() => fromGpp?.gppString !== gppString && shareTcfFromGpp(gppString, null), STRING_WAIT_MS);
    updateConsentMode?.(signal, signal.isKnown);
    updateUsPrivacy(signal);
    for (const listener of listeners) listener(signal);
  };
  return update;
}
