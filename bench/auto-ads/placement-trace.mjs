// What the placement decision cost on the page's main thread, from a trace between the later of
// the marks "bench-config-arrived" and "bench-parsed" (both strategies wait for both) and
// "bench-ads-placed", so that parsing the page is not counted: busy time (the union of every traced event of
// its thread), script time (the union of its script events), layouts and style recalculations,
// and how many of them were forced (inside script, i.e. a read of layout after a write, rather
// than the frame's own rendering).
import { findMark, mergeIntervals, overlap, threadIntervals } from './trace-intervals.mjs';

const SCRIPT = new Set([
  'FunctionCall',
  'EvaluateScript',
  'FireAnimationFrame',
  'TimerFire',
  'EventDispatch',
  'RunMicrotasks',
  'BlinkScheduler_PerformMicrotaskCheckpoint',
  'v8.callFunction',
  'v8.run',
]);
const LAYOUT = new Set(['Layout', 'UpdateLayoutTree']);

const isInside = (inner, outer) => inner.start >= outer.start && inner.end <= outer.end;

export function analysePlacementTrace(events) {
  const from = [findMark(events, 'bench-config-arrived'), findMark(events, 'bench-parsed')]
    .sort((a, b) => (a?.ts ?? Infinity) - (b?.ts ?? Infinity))
    .at(-1);
  const to = findMark(events, 'bench-ads-placed');
  if (!from || !to) return null;
  const intervals = threadIntervals(events, { pid: from.pid, tid: from.tid });
  const inWindow = (interval) => interval.start >= from.ts && interval.start < to.ts;
  const busy = mergeIntervals(intervals).reduce((sum, interval) => sum + overlap(interval, from.ts, to.ts), 0);
  const script = mergeIntervals(intervals.filter((interval) => SCRIPT.has(interval.name))).reduce(
    (sum, interval) => sum + overlap(interval, from.ts, to.ts),
    0,
  );
  const layouts = intervals.filter((interval) => LAYOUT.has(interval.name) && inWindow(interval));
  const scripts = intervals.filter(
    (interval) => SCRIPT.has(interval.name) && interval.end >= from.ts && interval.start < to.ts,
  );
  const forced = layouts.filter((layout) => scripts.some((script) => isInside(layout, script)));
  return {
    wallMs: (to.ts - from.ts) / 1000,
    mainThreadMs: busy / 1000,
    scriptMs: script / 1000,
    layouts: layouts.filter((layout) => layout.name === 'Layout').length,
    styleRecalcs: layouts.filter((layout) => layout.name === 'UpdateLayoutTree').length,
    forcedLayouts: forced.filter((layout) => layout.name === 'Layout').length,
    forcedStyleRecalcs: forced.filter((layout) => layout.name === 'UpdateLayoutTree').length,
  };
}
