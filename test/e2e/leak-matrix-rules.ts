/**
 * The leak matrix's expectations, written from the contract (docs/consent.md
 * "Blocking other elements"), not from src: which gate states allow which markers, the state
 * timeline of one page view, and the checks of one element against its requests.
 */

/** The gate's state as the page sees it; `pending` while the cache or the server is awaited. */
export type GateState = 'pending' | 'unknown' | 'accepted' | 'rejected' | 'dismissed' | 'not-required';

export type Policy = 'default' | '_till_responded' | '_till_accepted' | '_auto_reject';

/** What an element asks the gate for: its policy (null: none) and its purposes. */
export type BlockRequest = { readonly policy: Policy | null; readonly purposes: readonly string[] };

const ALLOWING: Readonly<Record<Policy, readonly GateState[]>> = {
  default: ['accepted', 'not-required'],
  _till_accepted: ['accepted', 'not-required'],
  _till_responded: ['accepted', 'rejected', 'dismissed', 'not-required'],
  _auto_reject: ['accepted', 'rejected', 'dismissed', 'not-required', 'unknown'],
};

export type TimelineEntry = {
  readonly time: number;
  readonly state: GateState;
  readonly purposes: Readonly<Record<string, unknown>>;
};

/** Whether the contract lets `request` build in `entry`: the policy allows and every purpose is accepted. */
export function isAllowed({ policy, purposes }: BlockRequest, entry: TimelineEntry): boolean {
  const isPolicyMet = policy === null || ALLOWING[policy].includes(entry.state);
  return isPolicyMet && purposes.every((name) => Object.hasOwn(entry.purposes, name) && entry.purposes[name] === true);
}

/** The entry in force at `time` (the last one at or before it). */
export function stateAt(timeline: readonly TimelineEntry[], time: number): TimelineEntry {
  let current = timeline[0]!;
  for (const entry of timeline) if (entry.time <= time) current = entry;
  return current;
}

/** One element's evidence: when it was requested (server log) and when it ran (page record). */
export type Evidence = { readonly requests: readonly number[]; readonly runs?: readonly number[] | undefined };

/**
 * The problems of one element on one timeline: a request or run while its state did not allow
 * it, more than one, or none although the final state allows it.
 */
export function leaksOf(request: BlockRequest, timeline: readonly TimelineEntry[], evidence: Evidence): string[] {
  const problems: string[] = [];
  const isFinallyAllowed = isAllowed(request, timeline.at(-1)!);
  const series: [string, readonly number[] | undefined][] = [
    ['requested', evidence.requests],
    ['ran', evidence.runs],
  ];
  for (const [verb, times] of series) {
    if (!times) continue;
    for (const time of times) {
      const entry = stateAt(timeline, time);
      if (!isAllowed(request, entry))
        problems.push(
          `${verb} at +${time - timeline[0]!.time} ms while ${entry.state} ${JSON.stringify(entry.purposes)}`,
        );
    }
    if (times.length > 1) problems.push(`${verb} ${times.length} times`);
    if (isFinallyAllowed && times.length === 0)
      problems.push(`never ${verb} although ${timeline.at(-1)!.state} allows it`);
  }
  return problems;
}
