/**
 * Consent macros for ad URLs and the creative frame's consent reply: `${GDPR}`,
 * `${GDPR_CONSENT}`, `${CONSENT_STATE}`, `${US_PRIVACY}`, `${GPP_STRING}`, `${GPP_SID}`.
 */
import { CONSENT_MACROS, consentMacroValues } from '../wire/consent-macros.ts';
import type { ConsentSnapshot, MacroResolver } from './types.ts';

export { CONSENT_MACROS } from '../wire/consent-macros.ts';

export function registerConsentMacros(
  register: (name: string, resolver: MacroResolver) => void,
  snapshot: () => ConsentSnapshot | null,
): void {
  for (const name of CONSENT_MACROS) register(name, () => consentMacroValues(snapshot())[name]);
}
