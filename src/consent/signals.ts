/**
 * Signals for ad tech (PRODUCT 3.9), started by `<page-consent>` once its config is parsed:
 * Consent Mode default first, then `__uspapi`, the `__tcfapi`/`__gpp` stubs and their lazy
 * bundles, fed through the `consent-signals` service.
 */
import type { Diagnostic, PageRuntime } from '../runtime/index.ts';
import type { ConsentConfig } from '../wire/consent-config.ts';
import { installStub } from './api-stub.ts';
import { parseConsentModeMapping, parseConsentModeOptions, startConsentMode } from './consent-mode.ts';
import { diagnose } from './diagnose.ts';
import { detailOf } from './provider.ts';
import { type ConsentSignal, SIGNALS_SERVICE, type SignalSource } from './signal-source.ts';
import { type ConsentModel, isRequiredOf } from './state.ts';
import { installUsPrivacyApi } from './us-privacy.ts';

export const signalOf = (model: ConsentModel): ConsentSignal => ({
  ...detailOf(model),
  isConsentRequired: isRequiredOf(model.state),
  isKnown: model.state.kind !== 'pending',
  isPromptShown: model.isPromptShown,
  tcfPolicyVersion: model.tcfPolicyVersion,
});

const isInteger = (value: unknown, minimum: number) => Number.isInteger(value) && (value as number) >= minimum;

/** Adds `page-consent-<name>-0.1.js` from the directory of the consent script. */
function loadBundle(name: string, scriptUrl: string, report: (d: Diagnostic) => void) {
  const script = document.createElement('script');
  script.async = true;
  script.src = new URL(`page-consent-${name}-0.1.js`, scriptUrl || location.href).href;
  script.onerror = () => report(diagnose('consent-signals-load-failed', 'the script to load', script.src));
  document.head.append(script);
}

const STUBS = {
  tcf: { name: '__tcfapi', callbackIndex: 2, argumentsOf: (call, reply) => [call.command, call.version, reply, call.parameter] },
  gpp: { name: '__gpp', callbackIndex: 1, argumentsOf: (call, reply) => [call.command, reply, call.parameter, call.version] },
} as const satisfies Record<string, Omit<Parameters<typeof installStub>[0], 'ping'>>;

/** Starts every configured signal; returns the function to call with each new model. */
export function startSignals(page: PageRuntime, config: ConsentConfig, report: (d: Diagnostic) => void, scriptUrl: string) {
  const diagnostics: Diagnostic[] = [];
  const mapping = config.consentModeMapping && parseConsentModeMapping(config.consentModeMapping, diagnostics);
  const updateConsentMode = mapping && startConsentMode(mapping, parseConsentModeOptions(config.consentModeOptions ?? {}, diagnostics));
  let signal: ConsentSignal | undefined;
  const listeners: ((signal: ConsentSignal) => void)[] = [];
  const updateUsPrivacy = installUsPrivacyApi(() => signal!);
  const { exposesTcfApi, exposesGppApi, cmpId, cmpVersion } = config;
  // TCF needs the publisher's CMP ids (PRODUCT 3.9); GPP takes them when given, else 0.
  const hasIds = isInteger(cmpId, 2) && isInteger(cmpVersion, 0);
  if (exposesTcfApi && !hasIds) diagnostics.push(diagnose('consent-cmp-id-missing', 'cmpId (an integer of 2 or more) and cmpVersion (an integer) with exposesTcfApi', { cmpId, cmpVersion }));
  const apis = (['tcf', 'gpp'] as const).filter((name) => (name === 'tcf' ? exposesTcfApi && hasIds : exposesGppApi));
  if (apis.length) {
    const ids = hasIds ? { cmpId: cmpId as number, cmpVersion: cmpVersion as number } : { cmpId: 0, cmpVersion: 0 };
    const ping = { ...ids, cmpStatus: 'stub', cmpLoaded: false, signalStatus: 'not ready', gppVersion: '1.1', apiVersion: '2.2' };
    const source: SignalSource = { ...ids, report, current: () => signal!, subscribe: (listener) => listeners.push(listener) };
    page.provideService(SIGNALS_SERVICE, source);
    for (const name of apis) {
      installStub({ ...STUBS[name], ping: () => ping });
      loadBundle(name, scriptUrl, report);
    }
  }
  for (const d of diagnostics) report(d);
  return (model: ConsentModel) => {
    signal = signalOf(model);
    updateConsentMode?.(signal, signal.isKnown);
    updateUsPrivacy(signal);
    for (const listener of listeners) listener(signal);
  };
}
