/**
 * What our TCData adds to the IAB library's (PRODUCT 3.9): the CMP's own TC string,
 * `gdprApplies` from the metadata, `addtlConsent`, the stored `tcfPolicyVersion`; the decoded
 * sections are left out when the string could not be decoded. Pure.
 */
import { type ConsentSignal, STRING_TYPE, stringOfType } from '../consent/signal-source.ts';

/** The string `CmpApi.update` takes: null when GDPR does not apply, '' without a TC string. */
export function tcfInputOf(signal: ConsentSignal): string | null {
  const gdprApplies = signal.consentMetadata?.gdprApplies ?? signal.isConsentRequired !== false;
  return gdprApplies ? stringOfType(signal, STRING_TYPE.tcfV2) : null;
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
