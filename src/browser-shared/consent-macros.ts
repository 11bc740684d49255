/**
 * The consent values that ads get: the URL macros `${GDPR}`, `${GDPR_CONSENT}`, `${CONSENT_STATE}`,
 * `${US_PRIVACY}`, `${GPP_STRING}`, `${GPP_SID}`, `${ADDTL_CONSENT}` (registered by the runtime) and the creative
 * frame's reply (answered by the consent extension). Both wait for a decision's TC string that is
 * still being built (docs/consent.md, "TC strings from our own prompts"): an ad unblocked by an
 * accept must not get `gdpr=1` with an empty consent string.
 */
import type { ConsentSnapshot } from '../wire/consent.ts';
import { gppSectionIds } from '../wire/gpp-sections.ts';
import { isAdditionalConsent } from '../wire/additional-consent.ts';

/** IAB consent string types (`consentMetadata.consentStringType`) that are not TC strings. */
const US_PRIVACY_TYPE = 3;
const GPP_TYPE = 4;

/** Where the consent values come from: the consent gate, or the provider itself. */
export type ConsentSource = { snapshot(): ConsentSnapshot | null; subscribe(listener: () => void): () => void };

/** The snapshot once no TC string is on its way (the TCF part gives up on one within a bounded wait). */
export const settledSnapshot = (consent: ConsentSource) =>
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

export const CONSENT_MACROS = [
  'GDPR',
  'GDPR_CONSENT',
  'CONSENT_STATE',
  'US_PRIVACY',
  'GPP_STRING',
  'GPP_SID',
  'ADDTL_CONSENT',
] as const;

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
    // Google's Additional Consent string, when it reads as one (the bounds part reports a malformed one).
    ADDTL_CONSENT: isAdditionalConsent(current?.consentMetadata?.additionalConsent)
      ? current!.consentMetadata!.additionalConsent!
      : '',
  };
}
