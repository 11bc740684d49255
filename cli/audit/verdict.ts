/**
 * The rule, one place: a third-party request, a persistent third-party cookie, or a write by a
 * third-party script is a finding before the decision, and after a reject unless an element or
 * script that the page's config lets run after a reject (`_till_responded`, `_auto_reject`)
 * made the request. The consent components and endpoints are expected; `--allow` hosts are
 * allowed (listed apart); after an accept nothing is a finding.
 */
import type { JourneyName } from './journey.ts';
import type { Phase, Verdict } from './report.ts';

export type Facts = {
  readonly journey: JourneyName;
  readonly phase: Phase;
  /** A third-party request, persistent third-party cookie, or write by a third-party script. */
  readonly isThirdParty: boolean;
  readonly isExpected: boolean;
  readonly allowedBy: string | undefined;
  /** Made by an element or script the config lets run after a reject (requests only). */
  readonly isPermittedAfterReject: boolean;
};

export function verdictOf(facts: Facts): Verdict {
  if (!facts.isThirdParty) return 'ok';
  if (facts.isExpected) return 'expected';
  if (facts.allowedBy !== undefined) return 'allowed';
  if (facts.phase === 'before' || facts.journey === 'no-decision') return 'finding';
  if (facts.journey !== 'reject') return 'ok';
  return facts.isPermittedAfterReject ? 'permitted' : 'finding';
}

/** The policies under which a blocked element or script builds after a reject. */
export const RUNS_AFTER_REJECT: ReadonlySet<string> = new Set(['_till_responded', '_auto_reject']);
