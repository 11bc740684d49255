/**
 * Consent macros for ad URLs: `${GDPR}`, `${GDPR_CONSENT}`, `${CONSENT_STATE}`, `${US_PRIVACY}`,
 * `${GPP_STRING}`, `${GPP_SID}`, `${ADDTL_CONSENT}`, each expanded once no TC string is on its way
 * (src/browser-shared/consent-macros.ts).
 */
import {
  CONSENT_MACROS,
  type ConsentSource,
  consentMacroValues,
  settledSnapshot,
} from '../browser-shared/consent-macros.ts';
import type { MacroResolver } from './types.ts';

export function registerConsentMacros(
  register: (name: string, resolver: MacroResolver) => void,
  consent: ConsentSource,
): void {
  for (const name of CONSENT_MACROS)
    register(name, async () => consentMacroValues(await settledSnapshot(consent))[name]);
}
