/**
 * Consent state (docs/consent.md, "How the decision is made" and "Actions") as a pure reducer. `saved` is what
 * the client cache must hold: only accepted/rejected decisions, never dismiss or timeout
 * fallbacks. Purpose choices are merged into the earlier ones, not erased, but carried-over ones
 * never widen the current action (docs/consent.md, "Actions").
 */
import type { ConsentChangeState } from '../runtime/index.ts';
import type { CheckResult, DecisionData, PurposeConsents, SharedData, StoredConsent } from '../wire/consent.ts';
import type { UsOptOutCategory } from '../wire/us-opt-outs.ts';

export type ConsentState =
  /** Before the cache is read, or while the server decides (`"remote"`, empty cache). */
  | { readonly kind: 'pending' }
  /** Invalid config: fail closed. */
  | { readonly kind: 'invalid' }
  /** Consent required and no decision; `hasTimedOut` once the policy timeout elapsed. */
  | { readonly kind: 'unknown'; readonly hasTimedOut: boolean }
  | { readonly kind: 'accepted' }
  | { readonly kind: 'rejected' }
  | { readonly kind: 'dismissed' }
  /** UNKNOWN_NOT_REQUIRED: consent not required and nothing cached. */
  | { readonly kind: 'not-required' };

/** A decision to cache; the controller stamps its time. */
export type SavedDecision = Omit<StoredConsent, 'time'> & { readonly time?: number };

export type ConsentModel = DecisionData & {
  readonly state: ConsentState;
  /** What the cache must hold; null: nothing. */
  readonly saved: SavedDecision | null;
  /** Decided purpose choices (cached with the next accept/reject; used by the gate). */
  readonly purposeConsents: PurposeConsents;
  /** `setPurpose` choices of the open prompt, decided by the next accept/reject. */
  readonly pendingPurposes: PurposeConsents;
  readonly requiredPurposes: readonly string[];
  readonly sharedData?: SharedData | undefined;
  readonly isPromptShown: boolean;
  readonly hasUserActed: boolean;
  /** The stored decision outlived `consentLifetimeDays`: its purposes, kept until the reader decides (docs/consent.md, "Consent lifetime"). */
  readonly expiredPurposes?: PurposeConsents | undefined;
  /** Global Privacy Control applies (docs/consent.md, "Signals for ad tech"): an undecided required consent is rejected, unsaved. */
  readonly isGpcReject?: boolean | undefined;
  /** The decision waits for the TC string the TCF part builds (src/consent/tc-string-state.ts): its update notification is held. */
  readonly isStringPending?: boolean | undefined;
};

export type Decision = 'accepted' | 'rejected' | 'dismissed';

export type ConsentEvent =
  | { readonly type: 'invalid' }
  | {
      readonly type: 'start';
      readonly stored: StoredConsent | null;
      readonly consentRequired: boolean | 'remote';
      readonly requiredPurposes: readonly string[];
      /** The purposes of an expired decision (which then is no decision). */
      readonly expiredPurposes?: PurposeConsents | undefined;
      /** `"gpc": "reject"` and the browser sends GPC: no decision means rejected, without a prompt. */
      readonly isGpcReject?: boolean | undefined;
    }
  | { readonly type: 'response'; readonly response: CheckResult }
  | { readonly type: 'failure' }
  /** A user decision; a CMP message (integrations) may add its string and metadata. */
  | (DecisionData & {
      readonly type: 'decide';
      readonly decision: Decision;
      readonly purposeConsentDefault?: boolean | undefined;
    })
  | { readonly type: 'set-purposes'; readonly purposes: PurposeConsents }
  /** `consent.optOut` (docs/us-privacy.md): a rejection that records which US opt-outs the reader asked for; answered by the state part's extension (src/consent/consent-state.ts). */
  | { readonly type: 'opt-out'; readonly categories: readonly UsOptOutCategory[] }
  | { readonly type: 'prompt' }
  | { readonly type: 'timeout' }
  /** The TCF part builds TC strings: from now on a decision without a string waits for one (src/consent/tc-string-state.ts). */
  | { readonly type: 'expect-tc-string' }
  /** The TCF part's string for the decision `decisionKey` (no string: none could be built); a decision's own string wins. */
  | (Omit<DecisionData, 'purposeConsents'> & { readonly type: 'add-string'; readonly decisionKey: string });

export const initialModel: ConsentModel = {
  state: { kind: 'pending' },
  saved: null,
  purposeConsents: {},
  pendingPurposes: {},
  requiredPurposes: [],
  isPromptShown: false,
  hasUserActed: false,
};

const UNKNOWN: ConsentState = { kind: 'unknown', hasTimedOut: false };

/** The state carried by a decision, with its string, metadata and merged purposes, cached. */
function decided(model: ConsentModel, state: 'accepted' | 'rejected', from: DecisionData): ConsentModel {
  const { consentString, consentMetadata, tcfPolicyVersion } = from;
  const purposeConsents = { ...model.purposeConsents, ...from.purposeConsents };
  const data = { consentString, purposeConsents, consentMetadata, tcfPolicyVersion };
  const isPromptShown = model.requiredPurposes.some((name) => !Object.hasOwn(purposeConsents, name));
  return { ...model, ...data, state: { kind: state }, saved: { version: 2, state, ...data }, isPromptShown };
}

/**
 * No decision yet: the prompt when consent is required (rejected without one under GPC, never
 * saved: re-evaluated on every visit), else UNKNOWN_NOT_REQUIRED.
 */
const undecided = (model: ConsentModel, isRequired: boolean): ConsentModel =>
  !isRequired
    ? { ...model, state: { kind: 'not-required' } }
    : model.isGpcReject
      ? { ...model, state: { kind: 'rejected' }, consentMetadata: { gpc: true } }
      : { ...model, state: UNKNOWN, isPromptShown: true };

/** The event that starts the state from the config and the cached decision (lifetime.ts builds it). */
export type StartEvent = Extract<ConsentEvent, { type: 'start' }>;

const begin = (model: ConsentModel, { requiredPurposes, expiredPurposes, isGpcReject }: StartEvent): ConsentModel => ({
  ...model,
  requiredPurposes,
  isGpcReject,
  expiredPurposes,
});

/**
 * The `start` event's model without a usable cached decision: the prompt, GPC's rejection,
 * nothing required, or the wait for the server. Also what a first visit shows before the rest of
 * the state arrives (src/consent/element.ts).
 */
export function startUndecided(model: ConsentModel, event: StartEvent): ConsentModel {
  const next = begin(model, event);
  return event.consentRequired === 'remote' ? next : undecided(next, event.consentRequired);
}

function start(model: ConsentModel, event: StartEvent): ConsentModel {
  const { stored } = event;
  return stored
    ? { ...decided(begin(model, event), stored.state, stored), saved: stored }
    : startUndecided(model, event);
}

/** The rules for the server answer (docs/consent.md, "Remote check"); after a user action on this page only `sharedData` counts. */
function respond(model: ConsentModel, response: CheckResult): ConsentModel {
  const { consentRequired, consentStateValue: value, expireCache } = response;
  let next: ConsentModel = { ...model, sharedData: response.sharedData };
  if (model.hasUserActed) return next;
  if (model.state.kind === 'pending') next = undecided(next, consentRequired);
  // After an expiry only the reader renews a decision, not the server's copy of the old one.
  if (consentRequired && !model.expiredPurposes && value !== null && value !== 'unknown')
    next = decided(next, value, response);
  return expireCache || (consentRequired && value === 'unknown') ? { ...next, saved: null } : next;
}

/**
 * A user decision. Carried-over purpose choices (decided or expired) never widen it: a reject
 * turns their acceptances into rejections, an accept keeps them; this prompt's `setPurpose`
 * choices stay as set.
 */
function decide(model: ConsentModel, event: Extract<ConsentEvent, { type: 'decide' }>): ConsentModel {
  const { decision, purposeConsentDefault: choice } = event;
  const next = { ...model, isPromptShown: false, hasUserActed: true, pendingPurposes: {} };
  if (decision === 'dismissed') return model.state.kind === 'unknown' ? { ...next, state: { kind: decision } } : next;
  const defaults = choice === undefined ? {} : Object.fromEntries(model.requiredPurposes.map((name) => [name, choice]));
  const carried: Record<string, boolean> = { ...model.purposeConsents, ...model.expiredPurposes };
  for (const name in carried) carried[name] &&= decision === 'accepted';
  const purposeConsents = { ...defaults, ...carried, ...model.pendingPurposes };
  return {
    ...decided({ ...next, purposeConsents }, decision, event),
    isPromptShown: false,
    expiredPurposes: undefined,
  };
}

export type ConsentReducer = (model: ConsentModel, event: ConsentEvent) => ConsentModel;

/** The core rules; the TC-string events belong to an extension (src/consent/tc-string-state.ts) and change nothing here. */
export const reduceConsent: ConsentReducer = (model, event) => {
  const { kind } = model.state;
  switch (event.type) {
    case 'invalid':
      return { ...model, state: { kind: 'invalid' } };
    case 'start':
      return start(model, event);
    case 'response':
      return respond(model, event.response);
    case 'failure':
      return kind === 'pending' ? undecided(model, true) : model;
    case 'decide':
      return model.isPromptShown ? decide(model, event) : model;
    case 'set-purposes':
      return model.isPromptShown
        ? { ...model, pendingPurposes: { ...model.pendingPurposes, ...event.purposes } }
        : model;
    case 'prompt':
      return kind === 'pending' || kind === 'invalid' ? model : { ...model, isPromptShown: true };
    case 'timeout':
      return kind === 'unknown' ? { ...model, state: { kind, hasTimedOut: true } } : model;
  }
  return model;
};

/** Whether consent is required (a prompt is due or a decision made); undefined until known. */
export const isRequiredOf = ({ kind }: ConsentState): boolean | undefined =>
  kind === 'pending' || kind === 'invalid' ? undefined : kind !== 'not-required';

/** The purposes the page sees: after an expiry the kept ones under the current ones (docs/consent.md, "Consent lifetime"). */
export const purposesOf = ({ purposeConsents, expiredPurposes, pendingPurposes }: ConsentModel): PurposeConsents =>
  expiredPurposes ? { ...purposeConsents, ...expiredPurposes, ...pendingPurposes } : purposeConsents;

/** The public state name (docs/consent.md, "Events and vendor API") of an internal state. */
export const changeStateOf = ({ kind }: ConsentState): ConsentChangeState =>
  kind === 'pending' || kind === 'invalid' ? 'unknown' : kind;
