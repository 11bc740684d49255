/**
 * How the stats per geo group split the audit log's decisions (docs/server.md, "Admin API";
 * docs/decisions/server-stats-per-group.md): `optOut`, a rejection made with the US opt-out
 * control (it names its categories in `consentMetadata.usOptOuts`); `custom`, a choice that
 * grants some purposes and refuses others; else the decision's state (`accepted`, `rejected`,
 * `unknown`). The SQL stores compute the same split in their queries; the store contract
 * suite holds all three to it. Pure.
 */
import type { GroupDecisions } from './api-types.ts';
import type { DecisionRecord } from './store/store.ts';

export type DecisionKind = Exclude<keyof GroupDecisions, 'group'>;

export const DECISION_KINDS: readonly DecisionKind[] = ['accepted', 'custom', 'rejected', 'optOut', 'unknown'];

type Classified = Pick<DecisionRecord, 'state' | 'purposeConsents' | 'consentMetadata'>;

export function decisionKindOf({ state, purposeConsents, consentMetadata }: Classified): DecisionKind {
  if (state === 'unknown') return 'unknown';
  if (state === 'rejected' && (consentMetadata?.usOptOuts ?? '') !== '') return 'optOut';
  const choices = Object.values(purposeConsents ?? {});
  if (choices.includes(true) && choices.includes(false)) return 'custom';
  return state;
}

/** No decision of any kind yet. */
export const zeroKinds = (): Record<DecisionKind, number> => ({
  accepted: 0,
  custom: 0,
  rejected: 0,
  optOut: 0,
  unknown: 0,
});

/** The unnamed group of the stats: rows logged before the group was kept. */
export const unknownGroup = 'unknown';

/**
 * The stats' rows with every group named: null becomes "unknown" (added to a group of that
 * name, if the instance has one), in code-unit order.
 */
export function namedGroups(rows: readonly GroupDecisions[]): (GroupDecisions & { readonly group: string })[] {
  const groups = new Map<string, Record<DecisionKind, number>>();
  for (const { group, ...counts } of rows) {
    const name = group ?? unknownGroup;
    const sum = groups.get(name) ?? zeroKinds();
    for (const kind of DECISION_KINDS) sum[kind] += counts[kind];
    groups.set(name, sum);
  }
  return [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([group, counts]) => ({ group, ...counts }));
}
