/**
 * The placement strategy over page boxes (PRODUCT 4.4): candidates in config order then
 * document order, each tried once, with a final outcome. Pure: boxes come from the caller's
 * single measure pass.
 */
import type { Attributes } from './attributes.ts';
import type { PlacementSpec, Position } from '../wire/auto-ads-config.ts';
import { type Density, isWithinDensity } from './density.ts';
import { isTooNear, type VerticalBox } from './spacing.ts';

export type Outcome =
  | 'pending'
  | 'placed'
  | 'too-near'
  | 'above-scroll'
  | 'in-viewport'
  | 'refused'
  | 'denied-ancestor'
  | 'no-anchor'
  | 'max-count'
  | 'excluded'
  | 'density';

export type Candidate = {
  readonly placement: PlacementSpec;
  readonly anchor: Element;
  outcome: Outcome;
  /** Last estimated document y of the ad's top edge. */
  y?: number;
};

export type Round = {
  readonly candidates: readonly Candidate[];
  readonly boxOf: (element: Element) => VerticalBox;
  /** Every ad counted on the page (manual and placed). */
  readonly ads: readonly VerticalBox[];
  readonly scrollTop: number;
  readonly viewportHeight: number;
  readonly minimumSpacing: number;
  readonly maximumAdCount: number;
  /** The height the ad will take. */
  readonly adHeight: number;
  /** Present where the density rule applies (narrow viewports). */
  readonly density?: Density | undefined;
};

/** Where the ad would start: the anchor's top for BEFORE/FIRST_CHILD, its bottom otherwise. */
export function estimateY(position: Position, box: VerticalBox): number {
  return position === 'before' || position === 'first-child' ? box.top : box.bottom;
}

/**
 * Settles pending candidates in order until one can take an ad, and returns it. Candidates
 * passed over get their final outcome: above the scroll position, inside the visible viewport,
 * too near an ad, or over the density limit; all pending ones become `max-count` at the limit.
 */
export function pickCandidate(round: Round): Candidate | undefined {
  const pending = round.candidates.filter((candidate) => candidate.outcome === 'pending');
  if (round.ads.length >= round.maximumAdCount) {
    for (const candidate of pending) candidate.outcome = 'max-count';
    return;
  }
  for (const candidate of pending) {
    if (!candidate.anchor.isConnected) {
      candidate.outcome = 'no-anchor';
      continue;
    }
    const y = (candidate.y = estimateY(candidate.placement.position, round.boxOf(candidate.anchor)));
    if (y < round.scrollTop) candidate.outcome = 'above-scroll';
    // Growing there would move visible content (the arbiter's bottom band) or show at once.
    else if (y < round.scrollTop + round.viewportHeight) candidate.outcome = 'in-viewport';
    else if (isTooNear(y, round.ads, round.minimumSpacing)) candidate.outcome = 'too-near';
    else if (round.density && !isWithinDensity(round.density, round.adHeight)) candidate.outcome = 'density';
    else return candidate;
  }
}

/** How many candidates ended with each outcome other than `placed` (the `skipped` of `ads-placed`). */
export function countSkipped(candidates: readonly Candidate[]): Record<string, number> {
  const skipped: Record<string, number> = {};
  for (const { outcome } of candidates) if (outcome !== 'placed' && outcome !== 'pending') skipped[outcome] = (skipped[outcome] ?? 0) + 1;
  return skipped;
}

/** Attributes of a new in-content slot before network, config and placement layers. */
export const SLOT_DEFAULTS: Attributes = { layout: 'fixed-height', height: '0' };
