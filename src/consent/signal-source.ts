/**
 * The internal channel from `<page-consent>` to the lazily loaded TCF and GPP bundles
 * (service `consent-signals`, through the bounds part): the CMP ids and the consent as a signal,
 * now and on every change.
 */
import type { ConsentSnapshot, Diagnostic, DiagnosticLevel } from '../runtime/index.ts';
import type { DecisionData } from '../wire/consent.ts';
import type { Json } from '../wire/values.ts';

export const SIGNALS_SERVICE = 'consent-signals';

/**
 * The source as `<page-consent>` provides it (service `consent-signals-unchecked`), before the
 * bounds part (src/consent-bounds/page-consent-bounds.ts) provides it as `consent-signals`, without the TC or
 * GPP strings its check refuses. The TCF and GPP parts read only `consent-signals`.
 */
export const UNCHECKED_SIGNALS_SERVICE = 'consent-signals-unchecked';

/** IAB consent string types (AMP's `consentStringType`). */
export const STRING_TYPE = { tcfV2: 2, usPrivacy: 3, gpp: 4 } as const;

export type ConsentSignal = ConsentSnapshot & {
  /** false while the cache or the server is still being read. */
  readonly isKnown: boolean;
  readonly isPromptShown: boolean;
  /** An undecided consent outlived the policy timeout. */
  readonly hasTimedOut: boolean;
  readonly tcfPolicyVersion: number | undefined;
  /** The decision waits for the TC string the TCF part builds: the APIs answer once it is there (or failed). */
  readonly isStringPending: boolean;
  /** Which decision this is (its state and purposes), for `addString`. */
  readonly decisionKey: string;
};

export type SignalSource = {
  readonly cmpId: number;
  readonly cmpVersion: number;
  readonly report: (d: Diagnostic, level?: DiagnosticLevel) => void;
  readonly current: () => ConsentSignal;
  readonly subscribe: (listener: (signal: ConsentSignal) => void) => void;
  /** The config's `tcf` and `gpp` objects, unparsed: the parts read them. */
  readonly tcf: Json | undefined;
  readonly gpp: Json | undefined;
  /** A TC string can arrive: a `tcf` object, a `promptUiSrc` or a `checkConsentHref`. */
  readonly hasStringSource: boolean;
  /** Adds a string built for the decision `decisionKey`; null: none could be built (the decision goes on without). */
  readonly addString: (decisionKey: string, data: DecisionData | null) => void;
  /** Whether the GPP part runs too (it then shares the TC string of a GPP string). */
  readonly hasGpp: boolean;
  /** Whether the TCF part runs too (the GPP API then carries its TC string as `tcfeuv2`). */
  readonly hasTcf: boolean;
  /** `consentModeOptions.enableAdvertiserConsentMode`: TCData says Google's tags may read consent from it. */
  readonly enableAdvertiserConsentMode: boolean;
};

/** Service `consent-gpp-tcf` of the GPP part, for the TCF part: the TC string in a GPP string's `tcfeuv2` section. */
export const GPP_TCF_SERVICE = 'consent-gpp-tcf';
export type TcfFromGpp = {
  /** The TC string in `gppString`; null: it holds none (or does not decode); undefined: not decoded yet. */
  readonly tcStringOf: (gppString: string) => string | null | undefined;
  readonly subscribe: (listener: () => void) => void;
};

/** The consent string when the CMP says it is of `type`, else ''. */
export const stringOfType = (signal: ConsentSignal, type: number): string =>
  signal.consentMetadata?.consentStringType === type ? (signal.consentString ?? '') : '';
