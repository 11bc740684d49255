/**
 * What our TCData adds to the IAB library's (docs/consent.md, "Signals for ad tech"): the
 * decision's TC string (its own, the one we built, or the `tcfeuv2` section of its GPP string),
 * `gdprApplies` from the metadata, `addtlConsent`, the stored `tcfPolicyVersion`; the decoded
 * sections are left out when the string could not be decoded, and so is a `listenerId` that is
 * not one (getTCData). Pure.
 */
import { type ConsentSignal, STRING_TYPE, type TcfFromGpp } from '../consent/signal-source.ts';

/**
 * The string `CmpApi.update` takes: null when GDPR does not apply, '' without a TC string. A
 * string without a `consentStringType` counts as a TC string, as for `${GDPR_CONSENT}`: the page
 * exposes the TCF API, so its CMP speaks TCF unless it says otherwise.
 */
export function tcfInputOf(signal: ConsentSignal, fromGpp?: TcfFromGpp | null): string | null {
  const { gdprApplies = signal.isConsentRequired !== false, consentStringType = STRING_TYPE.tcfV2 } =
    signal.consentMetadata ?? {};
  if (!gdprApplies) return null;
  if (consentStringType === STRING_TYPE.gpp) return fromGpp?.tcStringOf(signal.consentString ?? '') ?? '';
  return consentStringType === STRING_TYPE.tcfV2 ? (signal.consentString ?? '') : '';
}

/**
 * Whether the TC string is still on its way: being built, or inside a GPP string that the GPP
 * part (`fromGpp`: undefined while it loads, null without it) has not decoded yet.
 */
export const isTcStringWaiting = (signal: ConsentSignal, fromGpp: TcfFromGpp | null | undefined): boolean =>
  signal.isStringPending ||
  (signal.consentMetadata?.consentStringType === STRING_TYPE.gpp &&
    fromGpp !== null &&
    fromGpp?.tcStringOf(signal.consentString ?? '') === undefined);

const DECODED_SECTIONS = ['purpose', 'vendor', 'specialFeatureOptins', 'publisher'];

/** The library's answer (TCData, or a boolean for removeEventListener) completed from `signal`. */
export function completeTcData(
  data: unknown,
  signal: ConsentSignal,
  isDecoded: boolean,
  fromGpp?: TcfFromGpp | null,
): unknown {
  if (!data || typeof data !== 'object') return data;
  const input = tcfInputOf(signal, fromGpp);
  const library = data as Record<string, unknown>;
  const { additionalConsent } = signal.consentMetadata ?? {};
  const result: Record<string, unknown> = {
    ...library,
    gdprApplies: input !== null,
    tcfPolicyVersion: signal.tcfPolicyVersion ?? library.tcfPolicyVersion,
    ...(input === null ? {} : { tcString: input }),
    ...(additionalConsent === undefined ? {} : { addtlConsent: additionalConsent }),
  };
  delete result.outOfBand;
  // The library answers getTCData with `listenerId: null`; the spec gives undefined there.
  if (result.listenerId === null) delete result.listenerId;
  for (const section of isDecoded ? [] : DECODED_SECTIONS) delete result[section];
  return result;
}
