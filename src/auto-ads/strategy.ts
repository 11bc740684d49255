/**
 * Runs the placement strategy in the page: finds candidates, reads every position in one
 * measure task per round, inserts a zero-height out-of-flow `<page-ad>`, grows it through the
 * change-size arbiter (or removes it when refused), and runs again when content is added,
 * while it is switched on.
 */
import type { PageRuntime } from '../runtime/index.ts';
import { type Attributes, mergeAttributes } from './attributes.ts';
import { findDeniedAncestor, isExcluded, resolveAnchors } from './anchors.ts';
import { DENSITY_MAX_VIEWPORT_WIDTH, type Density, densityOf, findMainContent } from './density.ts';
import type { PlacementSpec, Position } from '../wire/auto-ads-config.ts';
import { type Candidate, pickCandidate } from './placement.ts';
import { type Constraints, selectSpacing, toPixels } from './spacing.ts';

export type StrategyOptions = {
  readonly page: PageRuntime;
  readonly placements: readonly PlacementSpec[];
  readonly constraints: Constraints;
  /** Slot defaults < network < config `attributes`; placement attributes go on top. */
  readonly attributes: Attributes;
  /** The height of the next inserted ad (network sizing for the current viewport). */
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

/** Additions that are not ads, their content, or the debug overlay. */
const isContentAdded = (record: MutationRecord) =>
  !(record.target as Element).closest?.('page-ad') &&
  [...record.addedNodes].some((node) => node.nodeType === 1 && !node.nodeName.startsWith('PAGE-AD'));

/** Creates the strategy, switched off; the returned switch starts (and re-scans) or stops it. */
export function createStrategy(options: StrategyOptions): (isActive: boolean) => void {
  const { page, constraints } = options;
  const { viewport } = page;
  const inPhase = <T>(phase: (task: () => void) => void, task: () => T) =>
    new Promise<T>((resolve, reject) => phase(() => {
      try {
        resolve(task());
      } catch (error) {
        reject(error);
      }
    }));
  const candidates: Candidate[] = [];
  const seen = new Map(options.placements.map((placement) => [placement, new WeakSet<Element>()]));
  let unmatched: PlacementSpec[] = [];
  let adsPlaced = 0;
  let totalAdsOnPage = 0;
  let density: number | undefined;
  let runs = 0;
  let requested = 0;
  let isRunning = false;
  let isActive = false;

  const discover = () => {
    const pinned = new Map<Element, boolean>();
    const isPinned = (element: Element) => {
      if (!pinned.has(element)) pinned.set(element, /fixed|sticky/.test(getComputedStyle(element).position));
      return pinned.get(element)!;
    };
    unmatched = [];
    for (const [placement, known] of seen) {
      const anchors = resolveAnchors(document, placement.anchor);
      if (!anchors.length) unmatched.push(placement);
      for (const anchor of anchors.filter((element) => !known.has(element))) {
        known.add(anchor);
        const outcome = isExcluded(anchor) ? 'excluded' : findDeniedAncestor(anchor, placement.position, isPinned) ? 'denied-ancestor' : 'pending';
        candidates.push({ placement, anchor, outcome });
      }
    }
  };

  /** The density figures on narrow viewports: every ad's height (a sticky one once) and the main content's. */
  const measureDensity = (ads: readonly { height: number }[]): Density | undefined => {
    if (viewport.getWidth() >= DENSITY_MAX_VIEWPORT_WIDTH) return;
    const sticky = document.querySelector('page-ad[sticky]');
    const adHeight = ads.reduce((sum, ad) => sum + ad.height, sticky ? viewport.getPageBox(sticky).height : 0);
    return { adHeight, contentHeight: viewport.getPageBox(findMainContent(document)).height };
  };

  const pick = () => {
    const ads = [...document.querySelectorAll('page-ad:not([sticky])')].map((ad) => viewport.getPageBox(ad));
    totalAdsOnPage = ads.length;
    const spacing = selectSpacing(constraints, ads.length);
    const figures = measureDensity(ads);
    density = figures && densityOf(figures);
    return pickCandidate({
      adHeight: options.height(),
      density: figures,
      candidates,
      boxOf: (element) => viewport.getPageBox(element),
      ads,
      scrollTop: viewport.getScrollTop(),
      viewportHeight: viewport.getHeight(),
      minimumSpacing: toPixels(spacing, viewport.getHeight()),
      maximumAdCount: constraints.maximumAdCount,
    });
  };

  const place = async (candidate: Candidate) => {
    const { placement } = candidate;
    const ad = document.createElement('page-ad');
    for (const [name, value] of Object.entries(mergeAttributes(options.attributes, placement.attributes))) ad.setAttribute(name, value);
    // `sticky` in config attributes is meant for the anchor ad; here it would hide the ad from the count.
    ad.removeAttribute('sticky');
    const flow = await inPhase(viewport.mutate, () => {
      insert[placement.position](candidate.anchor, ad);
      const position = ad.style.position;
      ad.style.position = 'absolute';
      return position;
    });
    const { marginTop: top, marginBottom: bottom } = placement;
    try {
      await page.attemptChangeSize(ad, options.height(), undefined, top || bottom ? { top, bottom } : undefined);
      // Same frame as the size change: back in flow where the arbiter allowed the growth.
      ad.style.position = flow;
      candidate.outcome = 'placed';
      adsPlaced++;
    } catch {
      ad.remove();
      candidate.outcome = 'refused';
    }
  };

  // A request during a run (content added meanwhile) makes the run scan again before it ends.
  const run = async () => {
    requested++;
    if (isRunning) return;
    isRunning = true;
    const before = adsPlaced;
    try {
      for (let handled = 0; isActive && handled !== requested; ) {
        handled = requested;
        await inPhase(viewport.measure, discover);
        for (let next = await inPhase(viewport.measure, pick); isActive && next; next = await inPhase(viewport.measure, pick)) await place(next);
      }
    } finally {
      isRunning = false;
    }
    if (!runs++ || adsPlaced > before) options.onRun({ adsPlaced, totalAdsOnPage, candidates, unmatched, density });
  };

  const observer = new MutationObserver((records) => records.some(isContentAdded) && run());
  return (active) => {
    if (active === isActive) return;
    isActive = active;
    if (!active) return observer.disconnect();
    observer.observe(document.body, { childList: true, subtree: true });
    run();
  };
}
