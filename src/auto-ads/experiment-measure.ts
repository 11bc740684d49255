/**
 * What a page view of an experiment reports (docs/auto-ads.md, "Experiments"): the ads placed
 * (`page-ad` elements added to the page once the experiment started: in-content ads, the anchor
 * ad, side rails, a vignette's ad), how many of them were viewable (at least half of the ad's
 * pixels in the viewport for one continuous second, seen by an IntersectionObserver; each ad once)
 * and the page view's layout shift (src/auto-ads/layout-shift.ts).
 */
import { addShift, NO_SHIFT, type ShiftEntry } from './layout-shift.ts';

export const VIEWABLE_RATIO = 0.5;
export const VIEWABLE_MS = 1000;

export type Counts = { readonly adsPlaced: number; readonly viewable: number; readonly layoutShift: number };

/** Starts counting; the returned function stops and gives the counts. */
export function startMeasuring(): () => Counts {
  const ads = new Set<Element>();
  const timers = new Map<Element, ReturnType<typeof setTimeout>>();
  let viewable = 0;
  let shift = NO_SHIFT;
  const views = new IntersectionObserver(
    (entries) => {
      for (const { target, isIntersecting, intersectionRatio } of entries) {
        if (isIntersecting && intersectionRatio >= VIEWABLE_RATIO) {
          if (timers.has(target)) continue;
          const timer = setTimeout(() => {
            timers.delete(target);
            views.unobserve(target);
            viewable++;
          }, VIEWABLE_MS);
          timers.set(target, timer);
        } else {
          clearTimeout(timers.get(target));
          timers.delete(target);
        }
      }
    },
    { threshold: [0, VIEWABLE_RATIO] },
  );
  const add = (ad: Element) => {
    if (ads.has(ad)) return;
    ads.add(ad);
    views.observe(ad);
  };
  const added = new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes) {
        if (node.nodeType !== 1) continue;
        const element = node as Element;
        if (element.localName === 'page-ad') add(element);
        element.querySelectorAll('page-ad').forEach(add);
      }
  });
  added.observe(document.documentElement, { childList: true, subtree: true });
  let shifts: PerformanceObserver | undefined;
  try {
    shifts = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shift = addShift(shift, entry as unknown as ShiftEntry);
    });
    shifts.observe({ type: 'layout-shift', buffered: true });
  } catch {}
  return () => {
    for (const entry of shifts?.takeRecords() ?? []) shift = addShift(shift, entry as unknown as ShiftEntry);
    added.disconnect();
    views.disconnect();
    shifts?.disconnect();
    for (const timer of timers.values()) clearTimeout(timer);
    return { adsPlaced: ads.size, viewable, layoutShift: shift.largest };
  };
}
