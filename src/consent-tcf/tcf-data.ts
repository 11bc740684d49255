/**
 * What our TCData adds to the IAB library's (PRODUCT 3.9): the CMP's own TC string,
 * `gdprApplies` from the metadata, `addtlConsent`, the stored `tcfPolicyVersion`; the decoded
 * sections are left out when the string could not be decoded. Pure.
 */
import { type ConsentSignal, STRING_TYPE } from '../consent/signal-source.ts';

/**
 * The string `CmpApi.update` takes: null when GDPR does not apply, '' without a TC string. A
 * string without a `consentStringType` counts as a TC string, as for `${GDPR_CONSENT}`: the page
 * exposes the TCF API, so its CMP speaks TCF unless it says otherwise.
 */
export function tcfInputOf(signal: ConsentSignal): string | null {
  const { gdprApplies = signal.isConsentRequired !== false, consentStringType = STRING_TYPE.tcfV2 } = signal.consentMetadata ?? {};
  if (!gdprApplies) return null;
  return consentStringType === STRING_TYPE.tcfV2 ? (signal.consentString ?? '') : '';
}

const DECODED_SECTIONS = ['purpose', 'vendor', 'specialFeatureOptins', 'publisher', 'outOfBand'];

/** The library's answer (TCData, or a boolean for removeEventListener) completed from `signal`. */
export function completeTcData(data: unknown, signal: ConsentSignal, isDecoded: boolean): unknown {
  if (!data || typeof data !== 'object') return data;
  const input = tcfInputOf(signal);
  const library = data as Record<string, unknown>;
  const { additionalConsent } = signal.consentMetadata ?? {};
  const result: Record<string, unknown> = {
    ...library,
    gdprApplies: input !== null,
    tcfPolicyVersion: signal.tcfPolicyVersion ?? library.tcfPolicyVersion,
    ...(input === null ? {} : { tcString: input }),
    ...(additionalConsent === undefined ? {} : { addtlConsent: additionalConsent }),
  };
  for (const section of isDecoded ? [] : DECODED_SECTIONS) delete result[section];
  return result;
}
