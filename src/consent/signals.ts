/**
 * Signals for ad tech (docs/consent.md, "Signals for ad tech"), started by `<page-consent>` once
 * its config is parsed: Consent Mode default first, then `__uspapi`, the `__tcfapi`/`__gpp`
 * stubs and their lazy parts, fed through the `consent-signals` service. The TCF part hands back
 * the TC string it builds for a decision (without one, the GPP part its GPP string), which is
 * stored with it.
 */
import type { Diagnostic, PageRuntime } from '../runtime/index.ts';
import { partFile } from '../browser-shared/parts.ts';
import type { ConsentCoreConfig } from '../wire/consent-config.ts';
import { installStub } from './api-stub.ts';
import { parseConsentModeMapping, parseConsentModeOptions, startConsentMode } from './consent-mode.ts';
import { diagnostic } from '../wire/diagnostic.ts';
import { detailOf } from './provider.ts';
import { GPP_API, TCF_API } from './signal-apis.ts';
import { type ConsentSignal, type SignalSource, UNCHECKED_SIGNALS_SERVICE } from './signal-source.ts';
import type { ConsentController } from './controller.ts';
import { type ConsentModel, isRequiredOf } from './state.ts';
import { decisionKeyOf, withTcStrings } from './tc-string-state.ts';
import { installUsPrivacyApi } from './us-privacy.ts';
import { usPrivacyFieldsOf } from '../wire/us-opt-outs.ts';

export const signalOf = (model: ConsentModel): ConsentSignal => ({
  ...detailOf(model),
  isConsentRequired: isRequiredOf(model.state),
  isKnown: model.state.kind !== 'pending',
  isPromptShown: model.isPromptShown,
  hasTimedOut: model.state.kind === 'unknown' && model.state.hasTimedOut,
  tcfPolicyVersion: model.tcfPolicyVersion,
  isStringPending: !!model.isStringPending,
  decisionKey: decisionKeyOf(model),
});

/** The longest wait for the TCF part's string (the GVL fetch has its own, shorter time-out): the decision then goes on without. */
export const STRING_WAIT_MS = 8000;

/** A TC string holds `cmpId` and `cmpVersion` in 12 bits each. */
const isInteger = (value: unknown, minimum: number) =>
  Number.isInteger(value) && (value as number) >= minimum && (value as number) < 4096;

/** Adds `{file}.js` from the directory of the consent script. */
function loadBundle(file: string, scriptUrl: string, report: (d: Diagnostic) => void) {
  const script = document.createElement('script');
  script.async = true;
  script.src = new URL(`${file}.js`, scriptUrl || location.href).href;
  script.onerror = () => report(diagnostic('consent-signals-load-failed', 'the script to load', script.src));
  document.head.append(script);
}

/** Starts every configured signal; returns the function to call with each new model. */
export function startSignals(
  page: PageRuntime,
  config: ConsentCoreConfig,
  report: (d: Diagnostic) => void,
  scriptUrl: string,
  { dispatch, extend }: Pick<ConsentController, 'dispatch' | 'extend'>,
) {
  const diagnostics: Diagnostic[] = [];
  const mapping = config.consentModeMapping && parseConsentModeMapping(config.consentModeMapping, diagnostics);
  const modeOptions = parseConsentModeOptions(config.consentModeOptions ?? {}, diagnostics);
  const updateConsentMode = mapping && startConsentMode(mapping, modeOptions);
  let signal: ConsentSignal | undefined;
  const listeners: ((signal: ConsentSignal) => void)[] = [];
  const { exposesTcfApi, exposesGppApi, cmpId, cmpVersion, tcf, gpp } = config;
  // A `gpp` config marks a page set up for US readers: its decisions get US privacy strings.
  const updateUsPrivacy = installUsPrivacyApi(gpp === undefined ? null : usPrivacyFieldsOf(gpp));
  // TCF needs the publisher's CMP ids; GPP takes them when given, else 0.
  const hasIds = isInteger(cmpId, 2) && isInteger(cmpVersion, 0);
  if (exposesTcfApi && !hasIds)
    diagnostics.push(
      diagnostic(
        'consent-cmp-id-missing',
        'cmpId (an integer of 2 to 4095) and cmpVersion (an integer of 0 to 4095) with exposesTcfApi',
        { cmpId, cmpVersion },
      ),
    );
  const hasTcf = !!exposesTcfApi && hasIds;
  const addString: SignalSource['addString'] = (decisionKey, data) =>
    dispatch({ type: 'add-string', decisionKey, ...data });
  if (hasTcf || exposesGppApi) {
    const ids = hasIds ? { cmpId: cmpId as number, cmpVersion: cmpVersion as number } : { cmpId: 0, cmpVersion: 0 };
    const hasStringSource = !!(tcf || config.promptUiSrc || config.checkConsentHref);
    const source: SignalSource = {
      ...ids,
      report,
      tcf,
      gpp,
      hasTcf,
      hasGpp: !!exposesGppApi,
      enableAdvertiserConsentMode: modeOptions.enableAdvertiserConsentMode === true,
      hasStringSource,
      addString,
      current: () => signal!,
      subscribe: (listener) => listeners.push(listener),
    };
    // The decision waits for its string: the TCF part's TC string, else the GPP part's US section.
    if ((hasTcf && tcf) || (exposesGppApi && gpp)) {
      extend(withTcStrings);
      dispatch({ type: 'expect-tc-string' });
    }
    page.provideService(UNCHECKED_SIGNALS_SERVICE, source);
    for (const [api, name] of [
      [hasTcf && TCF_API, 'tcf'],
      [exposesGppApi && GPP_API, 'gpp'],
    ] as const) {
      if (!api) continue;
      installStub(api, () => ({ ...api.stubPing!(), ...ids }));
      loadBundle(`page-consent-${name}-0.1`, scriptUrl, report);
    }
    // The parts read the signal through the bounds part (docs/consent.md, "Bounded consent strings"),
    // whose file is named after its content (docs/decisions/part-names.md).
    loadBundle(partFile('bounds'), scriptUrl, report);
  }
  for (const d of diagnostics) report(d);
  let waited = '';
  return (model: ConsentModel) => {
    signal = signalOf(model);
    const { decisionKey } = signal;
    // If the TCF part never answers (it did not load), the decision goes on without a string.
    if (signal.isStringPending && waited !== (waited = decisionKey))
      setTimeout(() => addString(decisionKey, null), STRING_WAIT_MS);
    updateConsentMode?.(signal, signal.isKnown);
    for (const listener of listeners) listener(signal);
    updateUsPrivacy(signal);
  };
}
