// The critical path of a page's requests: from the blocked script's request back through the
// file whose running requested it (the initiator CDP's Network domain reports), to the page.
// Pure: takes the requests browser/request-log.mjs recorded; times in ms from navigation start.
import { median } from './stats.mjs';

/** The URL of the file that made the request: the innermost script frame, else the initiator's URL (the page, for the parser). */
export function initiatorUrlOf(initiator) {
  for (let stack = initiator?.stack; stack; stack = stack.parent) {
    const frame = stack.callFrames?.find((callFrame) => callFrame.url);
    if (frame) return frame.url;
  }
  return initiator?.url || null;
}

/** Where the response came from. */
export function sourceOf(request) {
  if (request.failed) return 'failed';
  if (request.fromPrefetchCache) return 'prefetch';
  if (request.fromCache) return 'cache';
  if (request.status === 304) return '304';
  return 'network';
}

/**
 * The recorded requests (`{url, initiator, sentAt, wallTime, finishedAt, ...}`, CDP seconds) as
 * `{url, parentUrl, via, startMs, endMs, source}` in ms from navigation start: the page's own
 * request, sent `wallTime * 1000 - timeOrigin` ms after navigation start, anchors CDP's clock.
 */
export function readRequests(requests, timeOrigin) {
  const document = requests.find((request) => request.type === 'Document') ?? requests[0];
  if (!document) return [];
  const offsetMs = document.wallTime * 1000 - timeOrigin;
  const toMs = (seconds) =>
    seconds === null || seconds === undefined ? null : offsetMs + (seconds - document.sentAt) * 1000;
  return requests.map((request) => ({
    url: request.url,
    parentUrl: request === document ? null : initiatorUrlOf(request.initiator),
    via: request.initiator?.type ?? 'other',
    startMs: toMs(request.sentAt),
    endMs: toMs(request.finishedAt),
    source: sourceOf(request),
  }));
}

/** The chain of requests from the page to the first request of `targetUrl`; [] when it was never requested. */
export function buildCriticalPath(requests, targetUrl) {
  const path = [];
  let current = requests.find((request) => request.url === targetUrl);
  while (current && !path.includes(current)) {
    path.unshift(current);
    const { parentUrl, startMs } = current;
    current =
      parentUrl === null
        ? undefined
        : requests.find((request) => request.url === parentUrl && request.startMs <= startMs);
  }
  return path;
}

const signatureOf = (path) => path.map((step) => `${step.url} ${step.via}`).join(' > ');

function mostFrequent(values) {
  const counts = new Map();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/**
 * Medians over runs of the path most runs took: `{steps: [{url, via, startMs, endMs, source}],
 * runs, of}` (`runs` of `of` took it; a step's source is its most frequent one), or null.
 */
export function summarizeCriticalPaths(paths) {
  const taken = paths.filter((path) => path.length > 0);
  const signature = mostFrequent(taken.map(signatureOf));
  if (signature === undefined) return null;
  const same = taken.filter((path) => signatureOf(path) === signature);
  const steps = same[0].map(({ url, via }, index) => ({
    url,
    via,
    startMs: median(same.map((path) => path[index].startMs)),
    endMs: median(same.map((path) => path[index].endMs)),
    source: mostFrequent(same.map((path) => path[index].source)),
  }));
  return { steps, runs: same.length, of: paths.length };
}
