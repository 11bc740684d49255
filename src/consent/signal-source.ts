/**
 * The internal channel from `<page-consent>` to the lazily loaded TCF and GPP bundles
 * (service `consent-signals`): the CMP ids and the consent as a signal, now and on every change.
 */
import type { ConsentSnapshot, Diagnostic } from '../runtime/index.ts';

export const SIGNALS_SERVICE = 'consent-signals';

/** IAB consent string types (AMP's `consentStringType`). */
export const STRING_TYPE = { tcfV2: 2, usPrivacy: 3, gpp: 4 } as const;

export type ConsentSignal = ConsentSnapshot & {
  /** false while the cache or the server is still being read. */
  readonly isKnown: boolean;
  readonly isPromptShown: boolean;
  readonly tcfPolicyVersion: number | undefined;
};

export type SignalSource = {
  readonly cmpId: number;
  readonly cmpVersion: number;
  readonly report: (d: Diagnostic) => void;
  readonly current: () => ConsentSignal;
  readonly subscribe: (listener: (signal: ConsentSignal) => void) => void;
};

/** The consent string when the CMP says it is of `type`, else ''. */
export const stringOfType = (signal: ConsentSignal, type: number): string =>
  signal.consentMetadata?.consentStringType === type ? (signal.consentString ?? '') : '';
