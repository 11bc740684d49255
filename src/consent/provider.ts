/**
 * The runtime's consent provider (gate decisions, policy states, snapshots, change
 * subscriptions) over the element's current consent model.
 */
import type {
  ConsentProvider,
  ConsentSnapshot,
  PageElementInstance,
  PageRuntime,
  PolicyState,
} from '../runtime/index.ts';
import { decide, type PolicyInput, resolvePolicy } from './policy.ts';
import { changeStateOf, type ConsentModel, isRequiredOf, purposesOf } from './state.ts';

export type ConsentView = PolicyInput & ConsentModel;

/** The `consent-change` event detail (docs/consent.md, "Events and vendor API"); after an expiry the kept purposes and `expired: true` (docs/consent.md, "Consent lifetime"); `gpcHonored: true` while a GPC opt-out is in force. */
export function detailOf(model: ConsentModel) {
  const { consentString, consentMetadata, sharedData, expiredPurposes } = model;
  return {
    state: changeStateOf(model.state),
    purposeConsents: purposesOf(model),
    consentString,
    consentMetadata,
    sharedData,
    ...(expiredPurposes && { expired: true }),
    // The decision in force is the opt-out a GPC signal asked for (docs/consent.md, "Global Privacy Control").
    ...(consentMetadata?.gpc && { gpcHonored: true as const }),
  };
}

export const snapshotOf = (model: ConsentModel): ConsentSnapshot => ({
  ...detailOf(model),
  isConsentRequired: isRequiredOf(model.state),
  isStringPending: model.isStringPending,
});

/** Unknown policy ids are read as `default` (docs/consent.md, "Blocking other elements"). */
const policyStateOf = (policyId: string, view: ConsentView): PolicyState | null =>
  resolvePolicy(
    policyId === '_till_responded' || policyId === '_till_accepted' || policyId === '_auto_reject'
      ? policyId
      : 'default',
    view,
  );

/**
 * Installs the provider; returns it, with the function that tells its subscribers about a change.
 * `checked` settles once the remote check is over (or was never needed).
 */
export function installConsentProvider(
  page: PageRuntime,
  owner: PageElementInstance,
  view: () => ConsentView,
  checked: Promise<void>,
  getReceipt?: () => Promise<string | null>,
): [ConsentProvider, () => void] {
  const listeners = new Set<() => void>();
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  };
  const provider: ConsentProvider = {
    decide: (request) => decide(request, view()),
    getPolicyState: (policyId) =>
      new Promise((resolve) => {
        const check = () => {
          const state = policyStateOf(policyId, view());
          if (!state) return;
          resolve(state);
          stop();
        };
        const stop = subscribe(check);
        check();
      }),
    snapshot: () => snapshotOf(view()),
    whenChecked: () => checked,
    subscribe,
    ...(getReceipt && { getReceipt }),
  };
  page.setConsentProvider(owner, provider);
  return [
    provider,
    () => {
      for (const listener of listeners) listener();
    },
  ];
}
