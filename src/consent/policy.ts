/**
 * Blocking policies (seed "Blocking behaviours", PRODUCT 3.5): the policy state of the page's
 * consent, and the gate decision for an element's block request. Pure.
 */
import type { BlockPolicy, BlockRequest, GateDecision, PolicyState } from '../runtime/types.ts';
import type { FallbackAction } from './config.ts';
import type { ConsentModel } from './state.ts';

export type PolicyInput = Pick<ConsentModel, 'state' | 'purposeConsents'> & {
  /** `policy.default.timeout.fallbackAction`. */
  readonly fallbackAction: FallbackAction;
};

/** The policy's state, or null while it waits (for the cache, the server or the user). */
export function resolvePolicy(policy: BlockPolicy, input: PolicyInput): PolicyState | null {
  const { state } = input;
  switch (state.kind) {
    case 'accepted':
      return 'sufficient';
    case 'rejected':
      return 'insufficient';
    case 'not-required':
      return 'unknown_not_required';
    case 'dismissed':
    case 'invalid':
      return 'unknown';
    case 'unknown':
      if (policy === '_auto_reject' || (policy === 'default' && state.hasTimedOut && input.fallbackAction === 'reject')) {
        return 'insufficient';
      }
      return policy === 'default' && state.hasTimedOut ? 'unknown' : null;
    case 'loading':
    case 'waiting':
      return null;
  }
}

/** `default` and `_till_accepted` need consent (or none required); the others any response. */
function decidePolicy(policy: BlockPolicy, input: PolicyInput): GateDecision {
  const state = resolvePolicy(policy, input);
  if (state === null) return 'pending';
  const isAnyAnswer = policy === '_till_responded' || policy === '_auto_reject';
  return isAnyAnswer || state === 'sufficient' || state === 'unknown_not_required' ? 'allow' : 'deny';
}

/** Every listed purpose accepted; a rejected one, or a decision without them, denies. */
function decidePurposes(purposes: readonly string[], input: PolicyInput): GateDecision {
  const choices = purposes.map((name) => input.purposeConsents[name]);
  if (choices.every((choice) => choice === true)) return 'allow';
  if (choices.includes(false)) return 'deny';
  const { kind } = input.state;
  return kind === 'loading' || kind === 'waiting' || kind === 'unknown' ? 'pending' : 'deny';
}

/** Both markers must allow when an element has a policy and purposes; an invalid config denies. */
export function decide(request: BlockRequest, input: PolicyInput): GateDecision {
  if (input.state.kind === 'invalid') return 'deny';
  const decisions = [
    request.policy ? decidePolicy(request.policy, input) : 'allow',
    request.purposes.length ? decidePurposes(request.purposes, input) : 'allow',
  ];
  return decisions.includes('deny') ? 'deny' : decisions.includes('pending') ? 'pending' : 'allow';
}
