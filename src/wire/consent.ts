/**
 * Wire shapes of consent (PRODUCT 3.2-3.4): the `checkConsentHref` answer, the stored decision,
 * and the check/update request bodies the server reads. One parser per shape, shared by the
 * consent extension (lenient: a mistyped field is dropped with a diagnostic) and the server
 * (strict: any diagnostic is a 400). A dropped purpose value leaves that purpose undecided.
 */
import type { Diagnostic, Parsed } from './diagnostic.ts';
import { diagnostic } from './diagnostic.ts';
import {
  type Collector,
  collector,
  drop,
  type Json,
  optional,
  own,
  parseJsonText,
  type Read,
  readBoolean,
  readMap,
  readNumber,
  readObject,
  readOneOf,
  readText,
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
};

/** What a decision carries besides its state. */
export type DecisionData = {
  readonly consentString?: string | undefined;
  readonly purposeConsents?: PurposeConsents | undefined;
  readonly consentMetadata?: ConsentMetadata | undefined;
  readonly tcfPolicyVersion?: number | undefined;
};

/** The cached record (one per consent instance), format version 1. */
export type StoredConsent = DecisionData & { readonly version: 1; readonly state: 'accepted' | 'rejected' };

/** A `checkConsentHref` answer after the seed's defaults. */
export type CheckResult = DecisionData & {
  readonly consentRequired: boolean;
  readonly consentStateValue: ConsentStateValue | null;
  readonly expireCache?: boolean | undefined;
  readonly sharedData?: SharedData | undefined;
};

export const CONSENT_STATES: readonly ConsentStateValue[] = ['accepted', 'rejected', 'unknown'];

export const readPurposeConsents: Read<Record<string, boolean>> = readMap(readBoolean);

const readScalar: Read<string | number | boolean> = (into, value, field) =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
    ? value
    : drop(into, field, 'a string, number or boolean', value);

export const readConsentMetadata: Read<ConsentMetadata> = (into, value, field) => {
  const object = readObject(into, value, field);
  if (!object) return;
  const at = (key: string) => `${field}.${key}`;
  return withoutUndefined<ConsentMetadata>({
    consentStringType: optional(into, object, 'consentStringType', readNumber(0, 99), at('consentStringType')),
    additionalConsent: optional(into, object, 'additionalConsent', readText(4096), at('additionalConsent')),
    gdprApplies: optional(into, object, 'gdprApplies', readBoolean, at('gdprApplies')),
    purposeOne: optional(into, object, 'purposeOne', readBoolean, at('purposeOne')),
    gppSectionId: optional(into, object, 'gppSectionId', readText(100), at('gppSectionId')),
  });
};

const readPolicyVersion = readNumber(0, 2 ** 31 - 1);
const readConsentString = readText(8192);

/** The decision fields every consent shape shares; an empty consent string is none. */
function readDecisionData(into: Collector, object: Json, purposeKeys: readonly string[]): DecisionData {
  const purposeKey = purposeKeys.find((key) => Object.hasOwn(object, key) && object[key] != null) ?? purposeKeys[0]!;
  return withoutUndefined<DecisionData>({
    consentString: optional(into, object, 'consentString', readConsentString) || undefined,
    purposeConsents: optional(into, object, purposeKey, readPurposeConsents),
    consentMetadata: optional(into, object, 'consentMetadata', readConsentMetadata),
    tcfPolicyVersion: optional(into, object, 'tcfPolicyVersion', readPolicyVersion),
  });
}

/** A copy without the keys whose value is undefined (`exactOptionalPropertyTypes`). */
function withoutUndefined<T extends object>(record: { readonly [K in keyof T]-?: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}

/**
 * A checkConsentHref answer. Fails (null) on text that is not a JSON object and on a present but
 * non-boolean `consentRequired` (fail closed); every other mistyped field is dropped.
 */
export function parseCheckAnswer(text: string, xssiPrefix = ''): Parsed<CheckResult | null> {
  const json = parseJsonText(text.startsWith(xssiPrefix) ? text.slice(xssiPrefix.length) : text);
  const into = collector('consent-answer-field-invalid');
  const object = readObject(into, json, 'answer');
  if (!object) return { value: null, diagnostics: [diagnostic('consent-check-failed', 'a JSON object', json === undefined ? 'invalid JSON' : json)] };
  const required = optional(into, object, 'consentRequired', readBoolean) ?? optional(into, object, 'promptIfUnknown', readBoolean);
  const failed = into.diagnostics.find((d) => d.field === 'consentRequired');
  if (failed) return { value: null, diagnostics: [diagnostic('consent-check-failed', 'consentRequired: true or false', object.consentRequired)] };
  const value: CheckResult = {
    ...readDecisionData(into, object, ['purposeConsents', 'purposeConsent']),
    ...withoutUndefined<Pick<CheckResult, 'expireCache' | 'sharedData'>>({
      expireCache: optional(into, object, 'expireCache', readBoolean),
      sharedData: optional(into, object, 'sharedData', readMap(readScalar)),
    }),
    consentRequired: required ?? false,
    consentStateValue: optional(into, object, 'consentStateValue', readOneOf(CONSENT_STATES)) ?? null,
  };
  return { value, diagnostics: into.diagnostics };
}

/** A cached decision read back: null when absent or of another format; mistyped fields dropped. */
export function parseStoredConsent(json: unknown): Parsed<StoredConsent | null> {
  const into = collector('consent-stored-invalid');
  if (json === undefined || json === null) return { value: null, diagnostics: [] };
  const object = readObject(into, json, 'stored decision');
  const state = object && object.version === 1 ? optional(into, object, 'state', readOneOf(['accepted', 'rejected'] as const)) : undefined;
  if (!object || !state) return { value: null, diagnostics: into.diagnostics.length ? into.diagnostics : [diagnostic(into.code, 'a version 1 decision', json)] };
  return { value: { version: 1, state, ...readDecisionData(into, object, ['purposeConsents']) }, diagnostics: into.diagnostics };
}

/** Request bodies (PRODUCT 3.3, 3.4) as the server reads them; unknown fields are ignored. */
export type CheckRequest = DecisionData & {
  readonly consentInstanceId: string;
  readonly consentStateValue: ConsentStateValue;
  readonly matchedGeoGroup: string | null;
  readonly isDirty: boolean;
};

export type UpdateRequest = DecisionData & {
  readonly consentInstanceId: string;
  readonly pageUserId: string;
  readonly consentStateValue: ConsentStateValue;
};

const INSTANCE_ID = /^[A-Za-z0-9._:-]+$/;
const readInstanceId = readText(100, 1, INSTANCE_ID, 'an id of 1-100 letters, digits or . _ : -');

/** A body's shared fields. */
function readBody(into: Collector, json: unknown) {
  const object = readObject(into, json, 'body') ?? {};
  /** A required field: missing or null is reported by its reader like any wrong value. */
  const need = <T>(key: string, read: Read<T>) => read(into, own(object, key) ?? undefined, key);
  const consentInstanceId = need('consentInstanceId', readInstanceId);
  const consentStateValue = need('consentStateValue', readOneOf(CONSENT_STATES));
  return { object, need, consentInstanceId, consentStateValue, ...readDecisionData(into, object, ['purposeConsents']) };
}

const bodyResult = <T>(value: T, diagnostics: readonly Diagnostic[]): Parsed<T | null> => ({ value: diagnostics.length ? null : value, diagnostics });

export function parseCheckRequest(json: unknown): Parsed<CheckRequest | null> {
  const into = collector('invalid-field');
  const { object, need: _, ...body } = readBody(into, json);
  const value = {
    ...body,
    matchedGeoGroup: optional(into, object, 'matchedGeoGroup', readText(100, 1)) ?? null,
    isDirty: optional(into, object, 'isDirty', readBoolean) ?? false,
  };
  return bodyResult(value as CheckRequest, into.diagnostics);
}

export function parseUpdateRequest(json: unknown): Parsed<UpdateRequest | null> {
  const into = collector('invalid-field');
  const { object: _, need, ...body } = readBody(into, json);
  return bodyResult({ ...body, pageUserId: need('pageUserId', readText(200, 1)) } as UpdateRequest, into.diagnostics);
}
