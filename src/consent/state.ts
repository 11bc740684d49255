/**
 * Consent state (seed "States and transitions", PRODUCT 3.2) as a pure reducer. `saved` is what
 * the client cache must hold: only accepted/rejected decisions, never dismiss or timeout
 * fallbacks. Purpose choices are merged into the earlier ones, not erased.
 */
import type { ConsentMetadata, ConsentStateValue, PurposeConsents, SharedData } from '../protocol.ts';
import type { ConsentChangeState } from '../runtime/types.ts';
import { isObject } from './config.ts';

/** The stored record (one per consent instance), format version 1. */
export type StoredConsent = {
  readonly version: 1;
  readonly state: 'accepted' | 'rejected';
  readonly consentString?: string | undefined;
  readonly purposeConsents?: PurposeConsents | undefined;
  readonly consentMetadata?: ConsentMetadata | undefined;
  readonly tcfPolicyVersion?: number | undefined;
};

export type ConsentState =
  /** Config, geo or cache not read yet. */
  | { readonly kind: 'loading' }
  /** Invalid config: fail closed. */
  | { readonly kind: 'invalid' }
  /** `consentRequired: "remote"` and an empty cache: the server decides. */
  | { readonly kind: 'waiting' }
  /** Consent required and no decision; `hasTimedOut` once the policy timeout elapsed. */
  | { readonly kind: 'unknown'; readonly hasTimedOut: boolean }
  | { readonly kind: 'accepted' }
  | { readonly kind: 'rejected' }
  | { readonly kind: 'dismissed' }
  /** UNKNOWN_NOT_REQUIRED: consent not required and nothing cached. */
  | { readonly kind: 'not-required' };

export type ConsentModel = {
  readonly state: ConsentState;
  /** What the cache must hold; null: nothing. */
  readonly saved: StoredConsent | null;
  readonly consentString: string | undefined;
  readonly consentMetadata: ConsentMetadata | undefined;
  readonly tcfPolicyVersion: number | undefined;
  /** Decided purpose choices (cached with the next accept/reject; used by the gate). */
  readonly purposeConsents: PurposeConsents;
  /** `setPurpose` choices of the open prompt, decided by the next accept/reject. */
  readonly pendingPurposes: PurposeConsents;
  readonly requiredPurposes: readonly string[];
  readonly sharedData: SharedData | undefined;
  readonly isPromptShown: boolean;
  readonly hasUserActed: boolean;
};

/** A checkConsentHref answer after validation (remote.ts). */
export type CheckResult = {
  readonly consentRequired: boolean;
  readonly consentStateValue: ConsentStateValue | null;
  readonly consentString: string | undefined;
  readonly expireCache: boolean;
  readonly sharedData: SharedData | undefined;
  readonly purposeConsents: PurposeConsents | undefined;
  readonly consentMetadata: ConsentMetadata | undefined;
  readonly tcfPolicyVersion: number | undefined;
};

export type Decision = 'accepted' | 'rejected' | 'dismissed';

export type ConsentEvent =
  | { readonly type: 'invalid' }
  | {
      readonly type: 'start';
      readonly stored: StoredConsent | null;
      readonly consentRequired: boolean | 'remote';
      readonly requiredPurposes: readonly string[];
    }
  | { readonly type: 'response'; readonly response: CheckResult }
  | { readonly type: 'failure' }
  | {
      readonly type: 'decide';
      readonly decision: Decision;
      readonly purposeConsentDefault?: boolean | undefined;
      /** From a CMP message (integrations); user actions carry none. */
      readonly consentString?: string | undefined;
      readonly consentMetadata?: ConsentMetadata | undefined;
      readonly tcfPolicyVersion?: number | undefined;
    }
  | { readonly type: 'set-purposes'; readonly purposes: PurposeConsents }
  | { readonly type: 'prompt' }
  | { readonly type: 'timeout' };

export const initialModel: ConsentModel = {
  state: { kind: 'loading' },
  saved: null,
  consentString: undefined,
  consentMetadata: undefined,
  tcfPolicyVersion: undefined,
  purposeConsents: {},
  pendingPurposes: {},
  requiredPurposes: [],
  sharedData: undefined,
  isPromptShown: false,
  hasUserActed: false,
};

const UNKNOWN: ConsentState = { kind: 'unknown', hasTimedOut: false };

/** A cached value read back, or null when absent or of another format. */
export function parseStored(value: unknown): StoredConsent | null {
  if (!isObject(value) || value.version !== 1 || (value.state !== 'accepted' && value.state !== 'rejected')) return null;
  const { consentString, purposeConsents, consentMetadata, tcfPolicyVersion } = value;
  return {
    version: 1,
    state: value.state,
    consentString: typeof consentString === 'string' ? consentString : undefined,
    purposeConsents: isObject(purposeConsents) ? (purposeConsents as PurposeConsents) : undefined,
    consentMetadata: isObject(consentMetadata) ? consentMetadata : undefined,
    tcfPolicyVersion: typeof tcfPolicyVersion === 'number' ? tcfPolicyVersion : undefined,
  };
}

function record(model: ConsentModel, state: 'accepted' | 'rejected'): StoredConsent {
  const { consentString, purposeConsents, consentMetadata, tcfPolicyVersion } = model;
  return { version: 1, state, consentString, purposeConsents, consentMetadata, tcfPolicyVersion };
}

const lacksPurposes = (model: ConsentModel) => model.requiredPurposes.some((name) => !(name in model.purposeConsents));

/** The state carried by a decision, with its string, metadata and merged purposes. */
function decided(model: ConsentModel, state: 'accepted' | 'rejected', from: Partial<CheckResult>): ConsentModel {
  const next = {
    ...model,
    state: { kind: state },
    consentString: from.consentString,
    consentMetadata: from.consentMetadata,
    tcfPolicyVersion: from.tcfPolicyVersion,
    purposeConsents: { ...model.purposeConsents, ...from.purposeConsents },
  };
  return { ...next, isPromptShown: lacksPurposes(next), saved: record(next, state) };
}

function start(model: ConsentModel, event: Extract<ConsentEvent, { type: 'start' }>): ConsentModel {
  const { stored, consentRequired, requiredPurposes } = event;
  const base = { ...model, requiredPurposes };
  if (stored) return { ...decided(base, stored.state, stored), saved: stored };
  if (consentRequired === 'remote') return { ...base, state: { kind: 'waiting' } };
  return consentRequired ? { ...base, state: UNKNOWN, isPromptShown: true } : { ...base, state: { kind: 'not-required' } };
}

/** Seed rules for the server answer; after a user action on this page only `sharedData` counts. */
function respond(model: ConsentModel, response: CheckResult): ConsentModel {
  let next: ConsentModel = { ...model, sharedData: response.sharedData };
  const { consentRequired, consentStateValue: value, expireCache } = response;
  if (model.hasUserActed) return next;
  if (model.state.kind === 'waiting') {
    if (!consentRequired) return { ...next, state: { kind: 'not-required' } };
    next = { ...next, state: UNKNOWN, isPromptShown: true };
  }
  if (expireCache) next = { ...next, saved: null };
  if (!consentRequired || value === null) return next;
  if (value === 'unknown') return { ...next, saved: null };
  next = decided(next, value, response);
  return expireCache ? { ...next, saved: null } : next;
}

function decide(model: ConsentModel, event: Extract<ConsentEvent, { type: 'decide' }>): ConsentModel {
  const { decision, purposeConsentDefault: choice } = event;
  const next = { ...model, isPromptShown: false, hasUserActed: true, pendingPurposes: {} };
  if (decision === 'dismissed') return model.state.kind === 'unknown' ? { ...next, state: { kind: decision } } : next;
  const defaults = choice === undefined ? {} : Object.fromEntries(model.requiredPurposes.map((name) => [name, choice]));
  const purposeConsents = { ...defaults, ...model.purposeConsents, ...model.pendingPurposes };
  return { ...decided({ ...next, purposeConsents }, decision, event), isPromptShown: false };
}

export function reduceConsent(model: ConsentModel, event: ConsentEvent): ConsentModel {
  const { kind } = model.state;
  switch (event.type) {
    case 'invalid':
      return { ...model, state: { kind: 'invalid' } };
    case 'start':
      return start(model, event);
    case 'response':
      return respond(model, event.response);
    case 'failure':
      return kind === 'waiting' ? { ...model, state: UNKNOWN, isPromptShown: true } : model;
    case 'decide':
      return model.isPromptShown ? decide(model, event) : model;
    case 'set-purposes':
      return model.isPromptShown ? { ...model, pendingPurposes: { ...model.pendingPurposes, ...event.purposes } } : model;
    case 'prompt':
      return kind === 'loading' || kind === 'invalid' || kind === 'waiting' ? model : { ...model, isPromptShown: true };
    case 'timeout':
      return kind === 'unknown' ? { ...model, state: { kind, hasTimedOut: true } } : model;
  }
}

/** The public state name (PRODUCT 3.10) of an internal state. */
export function changeStateOf(state: ConsentState): ConsentChangeState {
  const { kind } = state;
  return kind === 'loading' || kind === 'invalid' || kind === 'waiting' ? 'unknown' : kind;
}
