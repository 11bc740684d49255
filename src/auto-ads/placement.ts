/**
 * The placement strategy over page boxes (docs/auto-ads.md, "Placement"), decided for a whole round at once:
 * candidates in config order then document order, each tried once, with a final outcome, until
 * the page holds `maxAdCount` ads.
 * Positions are read once, before any insertion; the plan then moves every later position by
 * the outer height of each ad it places, so it decides as if it had measured again after each
 * insertion (docs/decisions/auto-ads-batched-placement.md). Pure but for the reads of the
 * injected viewport, done in the caller's measure task.
 */
import type { Attributes } from '../wire/auto-ads-attributes.ts';
import type { PlacementSpec, Position } from '../wire/auto-ads-config.ts';
import { type Density, isWithinDensity } from './density.ts';
import type { ViewportService } from '../runtime/index.ts';
import { findParentOf } from './anchors.ts';
import { isTooNear, selectSpacing, toPixels, type VerticalBox } from './spacing.ts';
import type { Constraints } from '../wire/auto-ads-constraints.ts';

export type Outcome =
  | 'pending'
  | 'placed'
  | 'too-near'
  | 'above-scroll'
  | 'in-viewport'
  | 'denied-ancestor'
  | 'max-count'
  | 'excluded'
  | 'density';

export type Candidate = {
  readonly placement: PlacementSpec;
  readonly anchor: Element;
  outcome: Outcome;
};

export type Round = {
  /** Read as far as the plan goes: it stops at the first candidate once the page holds `maxAdCount` ads. */
  readonly candidates: Iterable<Candidate>;
  /** Read in the caller's measure task, before any insertion of the round. */
  readonly viewport: Pick<ViewportService, 'getPageBox' | 'getScrollTop' | 'getHeight'>;
  /** Every ad counted on the page (manual and placed). */
  readonly ads: readonly Element[];
  /** Ads that count toward `maxAdCount` but not toward spacing or density (the side rails). */
  readonly reserved?: number;
  readonly constraints: Constraints;
  /** The height every ad of the round takes. */
  readonly adHeight: number;
  /** Where the density rule applies (narrow viewports): the sticky ad, if any, counted once. */
  readonly density?: { readonly sticky: Element | null } | undefined;
  /** The main content, which grows with the ads placed inside it. */
  readonly main: Element;
};

export type Plan = {
  /** In the order of insertion. */
  readonly placed: readonly Candidate[];
  readonly adHeight: number;
  readonly totalAdsOnPage: number;
  readonly density?: Density | undefined;
};

/**
 * A point of the page: its y before the round, and its rank among points at that y. The round's
 * ads rank by DOM call (see below), anchor edges and the page's ads after them (Infinity).
 */
type Point = { readonly y: number; readonly rank: number };
/** An ad: where it starts, the space it adds before what follows, its top margin and height. */
type Ad = Point & { readonly outer: number; readonly marginTop: number; readonly height: number };

/** Where the ad would start: the anchor's top for BEFORE/FIRST_CHILD, its bottom otherwise. */
export function estimateY(position: Position, box: VerticalBox): number {
  return position === 'before' || position === 'first-child' ? box.top : box.bottom;
}

/** Whether `ad` lies before `point`, which then moves by the ad's outer height; at one y the rank decides. */
const isBefore = (ad: Ad, point: Point) => ad.y < point.y || (ad.y === point.y && ad.rank < point.rank);

/**
 * Decides the pending candidates in order: above the scroll position, inside the visible
 * viewport (growing there moves visible content: the change-size arbiter refuses), too near
 * an ad, over the density limit, else `placed`. Once the count is reached, the next candidate is
 * `max-count` and the round ends: later ones are not read (they stay pending, or undiscovered).
 */
export function planRound({ candidates, viewport, constraints, adHeight, main, ...round }: Round): Plan {
  const scrollTop = viewport.getScrollTop();
  const viewportHeight = viewport.getHeight();
  const placed: Candidate[] = [];
  // The page's ads move but add nothing.
  const ads: Ad[] = round.ads.map((node) => {
    const { top, height } = viewport.getPageBox(node);
    return { y: top, rank: Infinity, outer: 0, marginTop: 0, height };
  });
  const move = (point: Point) => ads.reduce((y, ad) => (isBefore(ad, point) ? y + ad.outer : y), point.y);
  const measureAds = () =>
    ads.map((ad) => {
      const top = move(ad) + ad.marginTop;
      return { top, bottom: top + ad.height };
    });
  let boxes = measureAds();
  const { sticky } = round.density ?? {};
  let density = round.density && {
    adHeight: ads.reduce((sum, ad) => sum + ad.height, sticky ? viewport.getPageBox(sticky).height : 0),
    contentHeight: viewport.getPageBox(main).height,
  };
  for (const candidate of candidates) {
    if (candidate.outcome !== 'pending') continue;
    const { anchor, placement } = candidate;
    const { position, marginTop } = placement;
    if (ads.length + (round.reserved ?? 0) >= constraints.maximumAdCount) {
      candidate.outcome = 'max-count';
      break;
    }
    // Candidates are found in this measure task: every anchor is in the document.
    const measured = estimateY(position, viewport.getPageBox(anchor));
    const y = move({ y: measured, rank: Infinity });
    const spacing = toPixels(selectSpacing(constraints, ads.length), viewportHeight);
    if (y < scrollTop) candidate.outcome = 'above-scroll';
    else if (y < scrollTop + viewportHeight) candidate.outcome = 'in-viewport';
    // At the y of one of the round's ads the plan cannot tell on which side of it this ad would go
    // (docs/decisions/auto-ads-batched-placement.md): too near, unless the spacing is 0.
    else if (isTooNear(y, boxes, spacing) || (spacing > 0 && ads.some((ad) => ad.y === measured)))
      candidate.outcome = 'too-near';
    else if (density && !isWithinDensity(density, adHeight)) candidate.outcome = 'density';
    else {
      const outer = marginTop + adHeight + placement.marginBottom;
      // As the DOM calls do: after() and prepend() put a later ad before earlier ones at one boundary, before() and append() after them.
      const rank = position === 'after' || position === 'first-child' ? -ads.length : ads.length;
      ads.push({ y: measured, rank, outer, marginTop, height: adHeight });
      boxes = measureAds();
      if (density)
        density = {
          adHeight: density.adHeight + adHeight,
          contentHeight: density.contentHeight + (main.contains(findParentOf(anchor, position)) ? outer : 0),
        };
      candidate.outcome = 'placed';
      placed.push(candidate);
    }
  }
  return { placed, adHeight, totalAdsOnPage: ads.length + (round.reserved ?? 0), density };
}

/**
 * How many candidates ended with each outcome other than `placed` (the `skipped` of `ads-placed`).
 * The strategy's candidates are all decided: each is read by a plan that gives it an outcome.
 */
export function countSkipped(candidates: readonly Candidate[]): Record<string, number> {
  const skipped: Record<string, number> = {};
  for (const { outcome } of candidates) if (outcome !== 'placed') skipped[outcome] = (skipped[outcome] ?? 0) + 1;
  return skipped;
}

/** Attributes of a new in-content slot before network, config and placement layers. */
export const SLOT_DEFAULTS: Attributes = { layout: 'fixed-height', height: '0' };
