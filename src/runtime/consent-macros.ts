/** Consent macros for ad URLs: `${GDPR}`, `${GDPR_CONSENT}`, `${CONSENT_STATE}`, `${US_PRIVACY}`. */
import type { ConsentSnapshot, MacroResolver } from './types.ts';

/** IAB consent string type of a US privacy string. */
const US_PRIVACY_TYPE = 3;

export function registerConsentMacros(
  register: (name: string, resolver: MacroResolver) => void,
  snapshot: () => ConsentSnapshot | null,
): void {
  const isUsPrivacy = (current: ConsentSnapshot | null) =>
    current?.consentMetadata?.consentStringType === US_PRIVACY_TYPE;
  register('GDPR', () => {
    const required = snapshot()?.isConsentRequired;
    return required === undefined ? '' : required ? '1' : '0';
  });
  register('GDPR_CONSENT', () => {
    const current = snapshot();
    return isUsPrivacy(current) ? '' : (current?.consentString ?? '');
  });
  register('CONSENT_STATE', () => snapshot()?.state ?? '');
  register('US_PRIVACY', () => {
    const current = snapshot();
    return isUsPrivacy(current) ? (current?.consentString ?? '') : '';
  });
}
