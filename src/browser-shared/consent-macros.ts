/**
 * The consent values that ads get: the URL macros `${GDPR}`, `${GDPR_CONSENT}`, `${CONSENT_STATE}`,
 * `${US_PRIVACY}`, `${GPP_STRING}`, `${GPP_SID}` (registered by the runtime) and the creative
 * frame's reply (answered by the consent extension). Pure.
 */
import type { ConsentSnapshot } from '../wire/consent.ts';
import { gppSectionIds } from '../wire/gpp-sections.ts';

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
