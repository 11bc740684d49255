import { describe, expect, it } from 'vitest';
import type { Initiator, RecordedRequest, TimedRequest } from '../../../bench/lib/critical-path.mjs';
import {
  buildCriticalPath,
  initiatorUrlOf,
  readRequests,
  sourceOf,
  summarizeCriticalPaths,
} from '../../../bench/lib/critical-path.mjs';

const PAGE = 'http://127.0.0.1:1/consent/ours.html';
const CONSENT = 'http://127.0.0.1:1/v0/page-consent-0.1.js';
const FAST = 'http://127.0.0.1:1/v0/page-consent-fast-0.1.js';
const BLOCKED = 'http://127.0.0.1:2/third-party.js';

const parser: Initiator = { type: 'parser', url: PAGE };

/** A recorded request sent `sentAt` s and finished `finishedAt` s on CDP's clock. */
function recorded(
  url: string,
  initiator: Initiator,
  sentAt: number,
  finishedAt: number,
  fields: Partial<RecordedRequest> = {},
): RecordedRequest {
  const wallTime = 1_000 + sentAt;
  return {
    url,
    type: 'Script',
    initiator,
    sentAt,
    wallTime,
    finishedAt,
    status: 200,
    fromCache: false,
    fromPrefetchCache: false,
    failed: false,
    ...fields,
  };
}

const step = (url: string, parentUrl: string | null, startMs: number, via = 'script'): TimedRequest => ({
  url,
  parentUrl,
  via,
  startMs,
  endMs: startMs + 1,
  source: 'cache',
});

describe('initiatorUrlOf', () => {
  it('names the innermost script frame of the initiator stack', () => {
    const initiator: Initiator = {
      type: 'script',
      stack: { callFrames: [{ url: '' }, { url: FAST }, { url: CONSENT }] },
    };
    expect(initiatorUrlOf(initiator)).toBe(FAST);
  });

  it('follows the async parent stack when the current one has no script frame', () => {
    expect(
      initiatorUrlOf({ type: 'script', stack: { callFrames: [], parent: { callFrames: [{ url: CONSENT }] } } }),
    ).toBe(CONSENT);
  });

  it('names the page for the parser and the importing module for an import', () => {
    expect(initiatorUrlOf(parser)).toBe(PAGE);
    expect(initiatorUrlOf({ type: 'script', url: CONSENT })).toBe(CONSENT);
  });

  it('has no initiator for a navigation', () => {
    expect(initiatorUrlOf({ type: 'other' })).toBeNull();
    expect(initiatorUrlOf(undefined)).toBeNull();
  });
});

describe('sourceOf', () => {
  it('tells failed, prefetched, cached, revalidated and network responses apart', () => {
    const base = { failed: false, fromPrefetchCache: false, fromCache: false, status: 200 };
    expect(sourceOf({ ...base, failed: true })).toBe('failed');
    expect(sourceOf({ ...base, fromPrefetchCache: true, fromCache: true })).toBe('prefetch');
    expect(sourceOf({ ...base, fromCache: true })).toBe('cache');
    expect(sourceOf({ ...base, status: 304 })).toBe('304');
    expect(sourceOf(base)).toBe('network');
  });
});

describe('readRequests', () => {
  it('puts CDP times on the page clock, anchored at the page request sent after navigation start', () => {
    const document = { ...recorded(PAGE, { type: 'other' }, 50, 50.01), type: 'Document' };
    // Navigation started 2 ms before the page was requested (wall clock 1,050 s).
    const timeOrigin = 1_050_000 - 2;
    const [page, script] = readRequests(
      [document, recorded(CONSENT, parser, 50.02, 50.025, { fromCache: true })],
      timeOrigin,
    );
    expect(page).toEqual({
      url: PAGE,
      parentUrl: null,
      via: 'other',
      startMs: 2,
      endMs: expect.closeTo(12, 6),
      source: 'network',
    });
    expect(script).toMatchObject({ url: CONSENT, parentUrl: PAGE, via: 'parser', source: 'cache' });
    expect(script!.startMs).toBeCloseTo(22, 6);
    expect(script!.endMs).toBeCloseTo(27, 6);
  });

  it('keeps an unfinished request without an end', () => {
    const [page] = readRequests(
      [{ ...recorded(PAGE, { type: 'other' }, 1, 0), type: 'Document', finishedAt: null }],
      1_001_000,
    );
    expect(page!.endMs).toBeNull();
  });

  it('reads nothing from no requests', () => {
    expect(readRequests([], 0)).toEqual([]);
  });
});

describe('buildCriticalPath', () => {
  const requests = [
    step(PAGE, null, 0, 'other'),
    step(CONSENT, PAGE, 10, 'parser'),
    step('http://127.0.0.1:1/v0/page-consent-state.k3x9a.js', CONSENT, 20),
    step(FAST, CONSENT, 21),
    step(BLOCKED, FAST, 30),
  ];

  it('walks from the target back through each initiator to the page', () => {
    expect(buildCriticalPath(requests, BLOCKED).map((request) => request.url)).toEqual([PAGE, CONSENT, FAST, BLOCKED]);
  });

  it('is empty when the target was never requested', () => {
    expect(buildCriticalPath(requests, 'http://127.0.0.1:2/other.js')).toEqual([]);
  });

  it('stops at an initiator that is not among the requests', () => {
    const inline = [step(BLOCKED, 'http://127.0.0.1:1/elsewhere.js', 5)];
    expect(buildCriticalPath(inline, BLOCKED).map((request) => request.url)).toEqual([BLOCKED]);
  });

  it('takes the initiator requested before the request, not a later copy', () => {
    const again = [...requests, step(FAST, CONSENT, 40)];
    expect(buildCriticalPath(again, BLOCKED)[2]!.startMs).toBe(21);
  });

  it('ends on a cycle instead of looping', () => {
    const cycle = [step(CONSENT, BLOCKED, 0), step(BLOCKED, CONSENT, 1)];
    expect(buildCriticalPath(cycle, BLOCKED).map((request) => request.url)).toEqual([CONSENT, BLOCKED]);
  });
});

describe('summarizeCriticalPaths', () => {
  const path = (fastStart: number, source: 'cache' | 'network' = 'cache') => [
    step(PAGE, null, 0, 'other'),
    step(CONSENT, PAGE, 10, 'parser'),
    { ...step(FAST, CONSENT, fastStart), source },
  ];

  it('takes the medians per step of the most frequent path and says how many runs took it', () => {
    const other = [step(PAGE, null, 0, 'other'), step(FAST, PAGE, 5, 'parser')];
    const summary = summarizeCriticalPaths([path(20), path(30, 'network'), path(24), other]);
    expect(summary).toMatchObject({ runs: 3, of: 4 });
    expect(summary!.steps.map((entry) => entry.url)).toEqual([PAGE, CONSENT, FAST]);
    expect(summary!.steps[2]).toEqual({ url: FAST, via: 'script', startMs: 24, endMs: 25, source: 'cache' });
  });

  it('is null without any path', () => {
    expect(summarizeCriticalPaths([[], []])).toBeNull();
    expect(summarizeCriticalPaths([])).toBeNull();
  });
});
