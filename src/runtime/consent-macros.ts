/**
 * Consent macros for ad URLs and the creative frame's consent reply: `${GDPR}`,
 * `${GDPR_CONSENT}`, `${CONSENT_STATE}`, `${US_PRIVACY}`, `${GPP_STRING}`, `${GPP_SID}`.
 */
import { gppSectionIds } from '../wire/gpp-sections.ts';
import type { ConsentSnapshot, MacroResolver } from './types.ts';

/** IAB consent string types (`consentMetadata.consentStringType`) that are not TC strings. */
const US_PRIVACY_TYPE = 3;
const GPP_TYPE = 4;

export const CONSENT_MACROS = ['GDPR', 'GDPR_CONSENT', 'CONSENT_STATE', 'US_PRIVACY', 'GPP_STRING', 'GPP_SID'] as const;

/** Every consent macro's value for one snapshot (null: no consent provider). Pure. */
export function consentMacroValues(current: ConsentSnapshot | null): Record<(typeof CONSENT_MACROS)[number], string> {
  const type = current?.consentMetadata?.consentStringType;
  const string = current?.consentString ?? '';
  const required = current?.isConsentRequired;
  return {
    GDPR: required === undefined ? '' : required ? '1' : '0',
    GDPR_CONSENT: type === US_PRIVACY_TYPE || type === GPP_TYPE ? '' : string,
    CONSENT_STATE: current?.state ?? '',
    US_PRIVACY: type === US_PRIVACY_TYPE ? string : '',
    GPP_STRING: type === GPP_TYPE ? string : '',
    GPP_SID: type === GPP_TYPE ? gppSectionIds(current?.consentMetadata?.gppSectionId).join(',') : '',
  };
}

export function registerConsentMacros(
  register: (name: string, resolver: MacroResolver) => void,
  snapshot: () => ConsentSnapshot | null,
): void {
  for (const name of CONSENT_MACROS) register(name, () => consentMacroValues(snapshot())[name]);
}
