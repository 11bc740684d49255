/**
 * Blocking policies (docs/consent.md, "Blocking other elements"): the policy state of the page's
 * consent, and the gate decision for an element's block request. Pure.
 */
import type { BlockPolicy, BlockRequest, GateDecision, PolicyState } from '../runtime/index.ts';
import type { FallbackAction } from '../wire/consent-config.ts';
import type { ConsentModel } from './state.ts';

export type PolicyInput = Pick<ConsentModel, 'state' | 'purposeConsents'> & {
  /** `policy.default.timeout.fallbackAction`. */
  readonly fallbackAction: FallbackAction;
  /** false without a prompt UI: nobody can answer, so the prompt counts as skipped. */
  readonly hasPrompt: boolean;
};

const DECIDED: Readonly<Record<string, PolicyState>> = {
  accepted: 'sufficient',
  rejected: 'insufficient',
  'not-required': 'unknown_not_required',
  dismissed: 'unknown',
  invalid: 'unknown',
};

/**
 * The policy's state, or null while it waits (for the cache, the server or the user). An
 * undecided consent without a prompt UI is `unknown` at once: the prompt was skipped.
 */
export function resolvePolicy(
  policy: BlockPolicy,
  { state, fallbackAction, hasPrompt }: PolicyInput,
): PolicyState | null {
  if (state.kind !== 'unknown') return Object.hasOwn(DECIDED, state.kind) ? DECIDED[state.kind]! : null;
  const isTimedOut = policy === 'default' && state.hasTimedOut;
  if (policy === '_auto_reject' || (isTimedOut && fallbackAction === 'reject')) return 'insufficient';
  return isTimedOut || !hasPrompt ? 'unknown' : null;
}

/**
 * `default` and `_till_accepted` need consent (or none required), the others any answer;
 * purposes need every listed purpose accepted. An element with both markers needs both; an
 * invalid config denies everything.
 */
export function decide({ policy, purposes }: BlockRequest, input: PolicyInput): GateDecision {
  const { kind } = input.state;
  const state = policy ? resolvePolicy(policy, input) : 'sufficient';
  const isAnyAnswer = policy === '_till_responded' || policy === '_auto_reject';
  // Own properties only, and only `true` allows: `constructor` or a mistyped value is undecided.
  const choices = purposes.map((name) =>
    Object.hasOwn(input.purposeConsents, name) ? input.purposeConsents[name] : undefined,
  );
  const isPurposePending = !choices.every((choice) => choice === true);
  const isDenied =
    kind === 'invalid' ||
    (state && !isAnyAnswer && state !== 'sufficient' && state !== 'unknown_not_required') ||
    (isPurposePending && (choices.includes(false) || (kind !== 'pending' && kind !== 'unknown')));
  return isDenied ? 'deny' : state === null || isPurposePending ? 'pending' : 'allow';
}
