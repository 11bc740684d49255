/**
 * Runs the placement strategy in the page, one frame per round: its measure task finds the
 * candidates, reads the positions and decides every placement (placement.ts); its mutate task,
 * in the same frame, inserts the ads in flow at their full height. Runs again when content is
 * added, while it is switched on (docs/decisions/auto-ads-batched-placement.md).
 */
import type { PageRuntime } from '../runtime/index.ts';
import { mergeAttributes } from './attributes.ts';
import type { Attributes } from '../wire/auto-ads-attributes.ts';
import { findDeniedAncestor, isExcluded, resolveAnchors } from './anchors.ts';
import { countAds, DENSITY_MAX_VIEWPORT_WIDTH, densityOf, findMainContent } from './density.ts';
import type { PlacementSpec, Position } from '../wire/auto-ads-config.ts';
import { type Candidate, type Plan, planRound } from './placement.ts';
import type { Constraints } from '../wire/auto-ads-constraints.ts';

export type StrategyOptions = {
  readonly page: PageRuntime;
  readonly placements: readonly PlacementSpec[];
  readonly constraints: Constraints;
  /** Slot defaults < network < config `attributes`; placement attributes go on top. */
  readonly attributes: Attributes;
  /** The height of the inserted ads (network sizing for the current viewport). */
  readonly height: () => number;
  /** After every run that placed ads, and after the first one. */
  readonly onRun: (result: StrategyResult) => void;
};

export type StrategyResult = {
  readonly adsPlaced: number;
  readonly totalAdsOnPage: number;
  readonly candidates: readonly Candidate[];
  /** Placements whose anchor matched nothing in the last scan. */
  readonly unmatched: readonly PlacementSpec[];
  /** The share of the main content taken by ads at the last round, where the density rule applies. */
  readonly density?: number | undefined;
};

const insert: Record<Position, (anchor: Element, ad: Element) => void> = {
  before: (anchor, ad) => anchor.before(ad),
  'first-child': (anchor, ad) => anchor.prepend(ad),
  'last-child': (anchor, ad) => anchor.append(ad),
  after: (anchor, ad) => anchor.after(ad),
};

/** Computed style is clean in the measure task, and only the anchors the plan reads are checked: no memo. */
const isPinned = (element: Element) => /fixed|sticky/.test(getComputedStyle(element).position);

/** Additions of elements that are not ads or inside one (the debug overlay is outside `<body>`). */
const isContentAdded = (record: MutationRecord) =>
  [...record.addedNodes].some((node) => node.nodeType === 1 && !(node as Element).closest('page-ad'));

/** Creates the strategy, switched off; the returned switch starts (and re-scans) or stops it. */
export function createStrategy(options: StrategyOptions): (isActive: boolean) => void {
  const { page, constraints } = options;
  const { viewport } = page;
  const candidates: Candidate[] = [];
  const seen = new Map(options.placements.map((placement) => [placement, new Set<Element>()]));
  let unmatched: PlacementSpec[] = [];
  let adsPlaced = 0;
  let totalAdsOnPage = 0;
  let density: number | undefined;
  let runs = 0;
  let isActive = false;

  /**
   * The round's new candidates, in config order then document order, found as the plan asks for
   * them: once the page holds `maxAdCount` ads the plan stops, and later anchors are never read.
   */
  function* discover(): Generator<Candidate> {
    unmatched = [];
    const matches = [...seen].map(([placement, known]) => {
      const anchors = resolveAnchors(document, placement.anchor);
      if (!anchors.length) unmatched.push(placement);
      return [placement, known, anchors] as const;
    });
    for (const [placement, known, anchors] of matches) {
      for (const anchor of anchors) {
        if (known.has(anchor)) continue;
        known.add(anchor);
        const outcome = isExcluded(anchor)
          ? 'excluded'
          : findDeniedAncestor(anchor, placement.position, isPinned)
            ? 'denied-ancestor'
            : 'pending';
        const candidate: Candidate = { placement, anchor, outcome };
        candidates.push(candidate);
        yield candidate;
      }
    }
  }

  /** The measure task of a round: every read, then the decision. */
  const decide = (): Plan => {
    const ads = [...document.querySelectorAll('page-ad:not([sticky]):not([data-side-rail])')];
    const plan = planRound({
      candidates: discover(),
      viewport,
      ads,
      reserved: countAds(document) - ads.length,
      constraints,
      adHeight: options.height(),
      density:
        viewport.getWidth() < DENSITY_MAX_VIEWPORT_WIDTH
          ? { sticky: document.querySelector('page-ad[sticky]') }
          : undefined,
      main: findMainContent(document),
    });
    totalAdsOnPage = plan.totalAdsOnPage;
    density = plan.density && densityOf(plan.density);
    return plan;
  };

  /** The mutate task of a round: the planned ads, inserted in plan order, in flow at their size. */
  const insertAll = ({ placed, adHeight }: Plan) => {
    // Side rails inserted in this frame after the measure hold places too: the plan's last ads give way
    // (never below none: a rail goes in only while the page holds fewer than maxAdCount ads).
    const room = constraints.maximumAdCount - countAds(document);
    for (const candidate of placed.slice(room)) candidate.outcome = 'max-count';
    for (const { anchor, placement } of placed.slice(0, room)) {
      const ad = document.createElement('page-ad');
      for (const [name, value] of Object.entries(mergeAttributes(options.attributes, placement.attributes)))
        ad.setAttribute(name, value);
      // `sticky` in config attributes is meant for the anchor ad; here it would hide the ad from the count.
      ad.removeAttribute('sticky');
      insert[placement.position](anchor, ad);
      // After insertion: the runtime writes the layout box (the zero `height`) when the element connects.
      const { style } = ad;
      style.height = adHeight + 'px';
      if (placement.marginTop || placement.marginBottom) {
        style.marginTop = placement.marginTop + 'px';
        style.marginBottom = placement.marginBottom + 'px';
      }
      adsPlaced++;
    }
    totalAdsOnPage = countAds(document);
  };

  // Measure and mutate queued together run in one frame: nothing scrolls between the reads and
  // the insertions. A failed decision (reported by the runtime) inserts nothing.
  const round = () =>
    new Promise<void>((resolve) => {
      let plan: Plan | undefined;
      viewport.measure(() => (plan = decide()));
      viewport.mutate(() => {
        if (plan && isActive) insertAll(plan);
        resolve();
      });
    });

  // Rounds run one after the other; content added during one gets the next.
  let queue = Promise.resolve();
  const run = () =>
    (queue = queue.then(async () => {
      if (!isActive) return;
      const before = adsPlaced;
      await round();
      if (!runs++ || adsPlaced > before) options.onRun({ adsPlaced, totalAdsOnPage, candidates, unmatched, density });
    }));

  const observer = new MutationObserver((records) => records.some(isContentAdded) && run());
  return (active) => {
    if (active === isActive) return;
    isActive = active;
    if (!active) return observer.disconnect();
    observer.observe(document.body, { childList: true, subtree: true });
    run();
  };
}
