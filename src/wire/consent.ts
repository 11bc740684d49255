/**
 * Wire shapes of consent (docs/consent.md, "How the decision is made", "Remote check" and "Update notification") that the page reads: the `checkConsentHref` answer
 * and the stored decision (lenient: a mistyped field is dropped with a diagnostic). A dropped
 * purpose value leaves that purpose undecided. The request bodies are in consent-bodies.ts.
 */
import { diagnostic, type Parsed } from './diagnostic.ts';
import { readPurposeMap } from './purpose-id.ts';
import {
  collector,
  drop,
  isPlainText,
  type Json,
  parseJsonText,
  type Read,
  readBoolean,
  readFields,
  readMap,
  readNumber,
  readOneOf,
  readText,
  type Schema,
} from './values.ts';

export type ConsentStateValue = 'accepted' | 'rejected' | 'unknown';
export type PurposeConsents = Readonly<Record<string, boolean>>;
export type SharedData = Readonly<Record<string, string | number | boolean>>;

/** `consentMetadata`: what a CMP says about the consent string. */
export type ConsentMetadata = {
  readonly consentStringType?: number;
  readonly additionalConsent?: string;
  readonly gdprApplies?: boolean;
  readonly purposeOne?: boolean;
  readonly gppSectionId?: string;
  /** Set by the page (never read from a CMP): a GPC rejection (docs/consent.md, "Global Privacy Control"), not a stored choice. */
  readonly gpc?: boolean;
  /** The US opt-outs `consent.optOut` recorded (docs/us-privacy.md): categories, comma-separated in their canonical order. */
  readonly usOptOuts?: string;
};

/** What a decision carries besides its state. */
export type DecisionData = {
  readonly consentString?: string | undefined;
  readonly purposeConsents?: PurposeConsents | undefined;
  readonly consentMetadata?: ConsentMetadata | undefined;
  readonly tcfPolicyVersion?: number | undefined;
};

/** The cached record (one per consent instance), format version 2: version 1 plus `time`. */
export type StoredConsent = DecisionData & {
  readonly version: 2;
  readonly state: 'accepted' | 'rejected';
  /** When the reader made (or last confirmed) the decision, ms since the epoch (docs/consent.md, "Consent lifetime"). */
  readonly time: number;
};

/** A `checkConsentHref` answer after the defaults of docs/consent.md, "Remote check". */
export type CheckResult = DecisionData & {
  readonly consentRequired: boolean;
  readonly consentStateValue: ConsentStateValue | null;
  readonly expireCache?: boolean | undefined;
  readonly sharedData?: SharedData | undefined;
};

export type ConsentChangeState = 'accepted' | 'rejected' | 'dismissed' | 'not-required' | 'unknown';

/** Snapshot of the page's consent, used by macros and the vendor API. */
export type ConsentSnapshot = {
  readonly state: ConsentChangeState;
  readonly consentString: string | undefined;
  readonly purposeConsents: PurposeConsents;
  readonly consentMetadata: ConsentMetadata | undefined;
  readonly sharedData: SharedData | undefined;
  /** true when the page's consent config says consent is required (GDPR applies). */
  readonly isConsentRequired: boolean | undefined;
  /** The stored decision expired (docs/consent.md, "Consent lifetime"): `purposeConsents` are the earlier choices. */
  readonly expired?: boolean;
  /** The decision's TC string is still being built (docs/consent.md, "TC strings from our own prompts"). */
  readonly isStringPending?: boolean | undefined;
  /** The decision in force is the opt-out of a Global Privacy Control signal (docs/consent.md, "Global Privacy Control"). */
  readonly gpcHonored?: true;
};

export const CONSENT_STATES: readonly ConsentStateValue[] = ['accepted', 'rejected', 'unknown'];

export const readPurposeConsents: Read<Record<string, boolean>> = readPurposeMap(readBoolean);

/** A string of plain text, a finite number or a boolean. */
const readScalar: Read<string | number | boolean> = (into, value, field) =>
  (typeof value === 'string' && isPlainText(value)) ||
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value))
    ? value
    : drop(into, field, 'a string, number or boolean', value);

/** `sharedData`: the same reader for the page (a check answer) and the server (an instance config). */
export const readSharedData: Read<Record<string, string | number | boolean>> = readMap(readScalar);

const readString = readText(4096);

export const readConsentMetadata: Read<ConsentMetadata> = readFields<Omit<ConsentMetadata, 'gpc'>>({
  consentStringType: readNumber(0, 99),
  additionalConsent: readString,
  gdprApplies: readBoolean,
  purposeOne: readBoolean,
  gppSectionId: readText(100),
  usOptOuts: readText(100),
});

export const DECISION: Schema<DecisionData> = {
  consentString: readText(8192),
  purposeConsents: readPurposeConsents,
  consentMetadata: readConsentMetadata,
  tcfPolicyVersion: readNumber(0, 2 ** 31 - 1),
};

/** An answer's fields before the defaults of docs/consent.md, "Remote check" (legacy spellings included). */
type AnswerFields = Omit<CheckResult, 'consentRequired' | 'consentStateValue'> & {
  readonly consentRequired?: boolean;
  readonly promptIfUnknown?: boolean;
  readonly consentStateValue?: ConsentStateValue;
  readonly purposeConsent?: PurposeConsents;
};

const readAnswer = readFields<AnswerFields>({
  ...DECISION,
  consentRequired: readBoolean,
  promptIfUnknown: readBoolean,
  consentStateValue: readOneOf(CONSENT_STATES),
  expireCache: readBoolean,
  sharedData: readSharedData,
  purposeConsent: readPurposeConsents,
});

const failed = (got: unknown): Parsed<null> => ({
  value: null,
  diagnostics: [diagnostic('consent-check-failed', 'a JSON object with a boolean consentRequired', got)],
});

/**
 * A checkConsentHref answer. Fails (null) on text that is not a JSON object and on a present but
 * non-boolean `consentRequired` (fail closed); every other mistyped field is dropped. An empty
 * consent string is none.
 */
export function parseCheckAnswer(text: string, xssiPrefix = ''): Parsed<CheckResult | null> {
  const json = parseJsonText(text.startsWith(xssiPrefix) ? text.slice(xssiPrefix.length) : text);
  const into = collector('consent-answer-field-invalid');
  const answer = readAnswer(into, json, '');
  if (!answer) return failed(json === undefined ? 'invalid JSON' : json);
  const { consentRequired = answer.promptIfUnknown, promptIfUnknown, purposeConsent, consentString, ...rest } = answer;
  // A mistyped consentRequired fails even when the legacy promptIfUnknown is there to fall back on.
  if (answer.consentRequired === undefined && (json as Json).consentRequired != null)
    return failed((json as Json).consentRequired);
  const value: CheckResult = {
    ...rest,
    consentRequired: consentRequired ?? false,
    consentStateValue: rest.consentStateValue ?? null,
  };
  const purposes = rest.purposeConsents ?? purposeConsent;
  return {
    value: {
      ...value,
      ...(consentString ? { consentString } : {}),
      ...(purposes ? { purposeConsents: purposes } : {}),
    },
    diagnostics: into.diagnostics,
  };
}

/** Built when first used, so a bundle that reads no stored decision (the remote part) leaves it out. */
const readStored = (): Read<Omit<StoredConsent, 'version'> & { version: number }> =>
  readFields({
    ...DECISION,
    version: readNumber(1, 2),
    state: readOneOf(['accepted', 'rejected'] as const),
    time: readNumber(0, 8.64e15),
  });

/**
 * A cached decision read back: null when absent or of another format; mistyped fields dropped.
 * A version 1 record (no time) reads as made `now`: never expired, never new consent.
 */
export function parseStoredConsent(json: unknown, now: number): Parsed<StoredConsent | null> {
  const into = collector('consent-stored-invalid');
  if (json == null) return { value: null, diagnostics: [] };
  const stored = readStored()(into, json, 'stored');
  const time = stored?.version === 1 ? now : stored?.time;
  const value =
    stored?.version && stored.state && time !== undefined ? ({ ...stored, version: 2, time } as StoredConsent) : null;
  if (!value && !into.diagnostics.length)
    into.diagnostics.push(diagnostic(into.code, 'stored: a version 2 decision with a time', json));
  return { value, diagnostics: into.diagnostics };
}

/** The `onUpdateHref` answer's receipt id (docs/server.md, "Proving consent"); anything else (or none) is no receipt. */
export function parseUpdateAnswer(text: string): string | null {
  const json = parseJsonText(text);
  const receiptId = json && typeof json === 'object' ? (json as Json).receiptId : undefined;
  return typeof receiptId === 'string' && /^[\w-]{1,100}$/.test(receiptId) ? receiptId : null;
}
