/**
 * Consent macros for ad URLs: `${GDPR}`, `${GDPR_CONSENT}`, `${CONSENT_STATE}`, `${US_PRIVACY}`,
 * `${GPP_STRING}`, `${GPP_SID}`. A decision whose TC string is still being built is expanded
 * once the string is in (or the TCF part gave up on it, which it does within a bounded wait):
 * an ad unblocked by an accept must not get `gdpr=1` with an empty consent string.
 */
import { CONSENT_MACROS, consentMacroValues } from '../browser-shared/consent-macros.ts';
import type { ConsentSnapshot, MacroResolver } from './types.ts';

/** Where the consent values come from (the consent gate). */
export type ConsentSource = { snapshot(): ConsentSnapshot | null; subscribe(listener: () => void): () => void };

/** The snapshot once no TC string is on its way. */
const settledSnapshot = (consent: ConsentSource) =>
  new Promise<ConsentSnapshot | null>((resolve) => {
    const check = () => {
      const snapshot = consent.snapshot();
      if (snapshot?.isStringPending) return;
      stop();
      resolve(snapshot);
    };
    const stop = consent.subscribe(check);
    check();
  });

export function registerConsentMacros(register: (name: string, resolver: MacroResolver) => void, consent: ConsentSource): void {
  for (const name of CONSENT_MACROS) register(name, async () => consentMacroValues(await settledSnapshot(consent))[name]);
}
