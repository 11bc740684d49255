// Chromium trace events (CDP Tracing, JSON event format) to intervals: complete events ("X")
// and begin/end pairs ("B"/"E") of one thread become `{name, start, end}` in microseconds.

/** Intervals of the thread `pid`/`tid`, sorted by start. */
export function threadIntervals(events, { pid, tid }) {
  const intervals = [];
  const open = [];
  const own = events.filter((event) => event.pid === pid && event.tid === tid).sort((a, b) => a.ts - b.ts);
  for (const event of own) {
    if (event.ph === 'X') intervals.push({ name: event.name, start: event.ts, end: event.ts + (event.dur ?? 0) });
    else if (event.ph === 'B') open.push(event);
    else if (event.ph === 'E') {
      const index = open.findLastIndex((begin) => begin.name === event.name || !event.name);
      if (index >= 0) intervals.push({ name: open[index].name, start: open[index].ts, end: event.ts });
      if (index >= 0) open.splice(index, 1);
    }
  }
  return intervals.sort((a, b) => a.start - b.start);
}

/** The first event named `name` (a user-timing mark), or undefined. */
export function findMark(events, name) {
  return events.find((event) => event.name === name && event.cat?.includes('blink.user_timing'));
}

/** Microseconds of [start, end) inside [from, to). */
export function overlap(interval, from, to) {
  return Math.max(0, Math.min(interval.end, to) - Math.max(interval.start, from));
}

/** The union of sorted intervals: disjoint `{start, end}` covering the same time. */
export function mergeIntervals(sorted) {
  const merged = [];
  for (const { start, end } of sorted) {
    const last = merged.at(-1);
    if (last && start <= last.end) last.end = Math.max(last.end, end);
    else merged.push({ start, end });
  }
  return merged;
}
