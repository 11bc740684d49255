/**
 * Fault matrix (docs/reliability.md, "Fault matrix") in Chromium: each remote or untrusted source x each fault that
 * applies (fault-matrix-cases.ts). Every case has its own loopback server and browser context;
 * the cases run a few at a time. A case that needs the 10 s time-out runs the page's clock
 * past it (Playwright's clock, clock.ts) instead of waiting it out. For each case: the
 * defined end state within 11 s of the moment the page contacts the faulty source (its fetch,
 * the CMP frame's creation; else the reader's action or the navigation), the 10 s default
 * time-out itself where the fault waits for it, exactly one diagnostic of the documented form
 * with a code of docs/errors.md, nothing blocked requested beyond what that state allows, and
 * the decision stored before the fault still stored after it.
 *
 * FAULT_MATRIX_ONLY=<text> runs the cases whose name contains the text; FAULT_MATRIX_DUMP=<file>
 * writes every case's observations (diagnostics, times, state, requests, store) as JSON.
 */
import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { builtProbes, consentPage, isShown, PROBES, requestedProbes, SVG } from './consent-fixtures.ts';
import {
  ADS_ANSWER,
  CHECK_ANSWER,
  CORRUPT_ITEM,
  FAULT_CASES,
  type FaultCase,
  FOREIGN_FRAME,
  FOREIGN_SCRIPT,
  type FrameFault,
  frameFaultRoute,
  type HttpFault,
  httpFaultRoute,
  INLINE_UI,
  type StorageFault,
  storageFaultScript,
  UPDATE_ANSWER,
  XSSI_PREFIX,
} from './fault-matrix-cases.ts';
import { articlePage, IMAGE_ROUTES } from './fixtures/auto-ads/pages.ts';
import { pageTime, pauseClock } from './clock.ts';
import { launchBrowser, newPage, type Route, settled, startServer, type TestServer } from './harness.ts';
import { trackRequests } from './settled.ts';

/** Every code of docs/errors.md. */
const DOCUMENTED = new Set(
  [...readFileSync('docs/errors.md', 'utf8').matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((match) => match[1]),
);
/** `[source#id] code: expected X, got Y` */
const DIAGNOSTIC = /^\[(page-[a-z-]+)(?:#[\w-]+)?\] ([a-z0-9-]+): expected (.+), got (.+)$/s;
const isDiagnostic = (text: string) => /^\[page-[a-z-]+(?:#[\w-]+)?\] [a-z0-9-]+: /.test(text);

const LIMIT_MS = 11_000;
/** Cases at a time: page loads share two busy cores. */
const WIDTH = 4;
const DEFAULT_TIMEOUT_MS = 10_000;
/** How far the clock jumps when it pauses (clock.ts): well within the time-out, and past a busy machine's delay. */
const PAUSE_AHEAD_MS = 3_000;
const SITE_KEY = 'consent:site';
/** The decision stored before the fault: rejected, so that any unblocking shows. */
const SEEDED = {
  version: 2,
  state: 'rejected',
  time: Date.now(),
  consentString: 'SEEDED',
  purposeConsents: { ads: false },
};
/** Another instance's decision: nothing of this page may touch it. */
const OTHER = { version: 2, state: 'accepted', time: Date.now(), consentString: 'OTHER', purposeConsents: {} };

/** Runs first in every page: times every diagnostic line and consent change from the navigation start. */
const TIMING = `window.__fm = { lines: [], events: [] };
for (const level of ['error', 'warn', 'info', 'log']) {
  const original = console[level];
  console[level] = function (...args) {
    if (typeof args[0] === 'string' && args[0].startsWith('[page-')) window.__fm.lines.push({ t: performance.now(), text: args[0] });
    return original.apply(this, args);
  };
}
new MutationObserver(() => { if (!window.__fm.frameAt && document.querySelector('.page-consent-frame iframe')) window.__fm.frameAt = performance.now(); }).observe(document, { childList: true, subtree: true });
// While page time flows, Playwright's clock schedules a timer from the time it last read, which lags under load; reading the time first schedules it from now, as a browser does.
const setTimeoutOf = window.setTimeout;
window.setTimeout = function (...args) {
  performance.now();
  return setTimeoutOf.apply(this, args);
};
const fetchOf = window.fetch;
window.__fm.fetches = [];
window.fetch = function (input, init) {
  window.__fm.fetches.push({ t: performance.now(), url: String(input instanceof Request ? input.url : input) });
  return fetchOf.call(this, input, init);
};
document.addEventListener('click', () => { window.__fm.clickAt = performance.now(); }, true);
document.addEventListener('consent-change', (event) => window.__fm.events.push({ t: performance.now(), state: event.detail.state }));`;

type Outcome = {
  /** Diagnostic lines seen by the browser (all frames). */
  diagnostics: string[];
  pageErrors: string[];
  /** Milliseconds from the start (navigation, or the reader's action) to the last diagnostic or consent change. */
  endMs: number;
  /** Milliseconds from the start to the diagnostic. */
  diagnosticMs: number | null;
  state: string | null;
  isPromptShown: boolean;
  hasFrame: boolean;
  built: string[];
  requested: string[];
  ads: number;
  stored: { site: unknown; other: unknown; raw: string | null; seededRaw: string | null };
  receipt: unknown;
  /** The start, in ms from the navigation start. */
  startMs: number;
};

let browser: Browser;
const outcomes = new Map<FaultCase, Outcome | Error>();
/** The cases whose every assertion held. */
const passed = new Set<FaultCase>();
let totalMs = 0;

const encodeStore = (values: object) => Buffer.from(JSON.stringify({ version: 1, values })).toString('base64');

/** Reads the site store with the real Storage methods (the fault may replace them). */
const readStore = (page: Page) =>
  page.evaluate(() => {
    const real = (window as unknown as { __realStorage: { getItem: Storage['getItem'] } }).__realStorage;
    const raw = real.getItem.call(localStorage, `page-store:${location.hostname}`);
    let values: Record<string, unknown> = {};
    try {
      values = raw
        ? JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(raw), (c) => c.charCodeAt(0)))).values
        : {};
    } catch {}
    return { raw, values };
  });

const receiptOf = (page: Page) =>
  page.evaluate(
    () =>
      new Promise((resolve) => {
        setTimeout(() => resolve('pending'), 11_000);
        (
          self as unknown as { PAGE: { push(f: (p: { consent: { getReceipt(): Promise<unknown> } }) => void): void } }
        ).PAGE.push((p) => p.consent.getReceipt().then(resolve, (e) => resolve(String(e))));
      }),
  );

type Setup = {
  routes: Record<string, Route>;
  path: string;
  faultPath?: string;
  seed?: string;
  storageFault?: StorageFault;
  act?: ((page: Page) => Promise<void>) | undefined;
  intercept?: (page: Page) => Promise<void>;
};

const consentConfig = (extra: object) => ({
  consentInstanceId: 'site',
  promptUI: 'prompt',
  postPromptUI: 'post',
  ...extra,
});

/** Routes, page and reader actions of one case; a late HTTP answer waits for `late`. */
function setupOf(row: FaultCase, server: TestServer, late: Promise<void>): Setup {
  const fault = row.fault;
  switch (row.source) {
    case 'checkConsentHref':
    case 'checkConsentHref (cached)': {
      const base = fault === 'CORS refusal' ? server.otherOrigin : '';
      const config = consentConfig({
        checkConsentHref: `${base}/check`,
        ...(fault === 'xssi prefix mismatch' ? { xssiPrefix: XSSI_PREFIX } : {}),
      });
      const seed =
        row.source === 'checkConsentHref'
          ? encodeStore({ 'consent:other': OTHER })
          : encodeStore({ [SITE_KEY]: SEEDED, 'consent:other': OTHER });
      return {
        routes: {
          '/check': httpFaultRoute(fault as HttpFault, CHECK_ANSWER, late),
          '/page.html': { body: consentPage(config, { inside: INLINE_UI }) },
        },
        path: '/page.html',
        faultPath: '/check',
        seed,
      };
    }
    case 'onUpdateHref': {
      const base = fault === 'CORS refusal' ? server.otherOrigin : server.origin;
      const config = consentConfig({ consentRequired: true, onUpdateHref: `${base}/update` });
      return {
        routes: {
          '/update': httpFaultRoute(fault as HttpFault, UPDATE_ANSWER, late),
          '/page.html': { body: consentPage(config, { inside: INLINE_UI }) },
        },
        path: '/page.html',
        faultPath: '/update',
        seed: encodeStore({ 'consent:other': OTHER }),
        act: async (page) => {
          await page.waitForSelector('#prompt', { state: 'visible' });
          await page.click('#reject');
        },
      };
    }
    case 'auto-ads config': {
      const url = fault === 'CORS refusal' ? 'https://ads.example/config.json' : '/ads/config.json';
      return {
        routes: {
          ...IMAGE_ROUTES,
          '/ads/config.json': httpFaultRoute(fault as HttpFault, ADS_ANSWER, late),
          '/page.html': { body: articlePage({ autoAds: `type="custom" data-config-url="${url}"` }) },
        },
        path: '/page.html',
        faultPath: fault === 'CORS refusal' ? '/config.json' : '/ads/config.json',
        intercept: async (page) => {
          if (fault !== 'CORS refusal') return;
          // An https config URL of another site whose answer allows another origin only.
          await page.route('https://ads.example/**', (route) =>
            route.fulfill({
              headers: {
                'content-type': 'application/json',
                'access-control-allow-origin': 'https://elsewhere.example',
              },
              body: ADS_ANSWER,
            }),
          );
        },
      };
    }
    case 'CMP iframe': {
      const config = consentConfig({ consentRequired: true, promptUiSrc: `${server.otherOrigin}/cmp` });
      const foreign =
        fault === 'messages from foreign windows'
          ? `<iframe title="other" src="${server.otherOrigin}/foreign.html"></iframe>${FOREIGN_SCRIPT}`
          : '';
      return {
        routes: {
          '/cmp': frameFaultRoute(fault as FrameFault),
          '/foreign.html': { body: FOREIGN_FRAME },
          '/page.html': { body: consentPage(config, { inside: INLINE_UI, body: PROBES + foreign }) },
        },
        path: '/page.html',
        faultPath: '/cmp',
        seed: encodeStore({ 'consent:other': OTHER }),
      };
    }
    case 'localStorage': {
      const config = consentConfig({ consentRequired: true });
      const storageFault = fault as StorageFault;
      const isWrite = storageFault === 'setItem throws' || storageFault === 'quota exceeded';
      const seed =
        storageFault === 'invalid JSON (corrupt item)'
          ? CORRUPT_ITEM
          : encodeStore({
              [SITE_KEY]: storageFault === 'getItem throws' ? { ...SEEDED, state: 'accepted' } : SEEDED,
              'consent:other': OTHER,
            });
      return {
        routes: { '/page.html': { body: consentPage(config, { inside: INLINE_UI }) } },
        path: '/page.html',
        seed,
        storageFault,
        act: isWrite
          ? async (page) => {
              // The reader opens the prompt again and confirms the stored rejection: a write.
              await page.waitForSelector('#manage', { state: 'visible' });
              await page.click('#manage');
              await page.waitForSelector('#prompt', { state: 'visible' });
              await page.click('#reject');
            }
          : undefined,
      };
    }
  }
}

/** Runs one case to its end state and records what it observed. */
async function run(row: FaultCase): Promise<Outcome> {
  const server = await startServer({ '/img.svg': SVG, '/favicon.ico': { status: 204 } });
  const test = await newPage(browser);
  let answerLate = () => {};
  const late = new Promise<void>((resolve) => (answerLate = resolve));
  try {
    const setup = setupOf(row, server, late);
    for (const [path, route] of Object.entries(setup.routes)) server.route(path, route);
    await setup.intercept?.(test.page);
    if (setup.seed) {
      await test.page.goto(`${server.origin}/img.svg`);
      await test.page.evaluate((item) => localStorage.setItem(`page-store:${location.hostname}`, item), setup.seed);
    }
    // A slow case runs on Playwright's clock (clock.ts): page time, in which every time below is read, moves on at once past the time-out.
    if (row.isSlow) await test.page.clock.install();
    // Paused before the page loads, page time moves only when the test moves it: the contact is then read at the very time the component starts its timer. The reader's click of an update case needs time to flow, so that case pauses after it.
    const isPausedEarly = row.isSlow && row.source !== 'onUpdateHref';
    if (isPausedEarly) await pauseClock(test.page, PAUSE_AHEAD_MS);
    await test.page.addInitScript(TIMING + storageFaultScript(setup.storageFault ?? null));
    const seededRaw = setup.seed ?? null;
    await test.page.goto(server.origin + setup.path, { waitUntil: 'domcontentloaded' });
    await setup.act?.(test.page);
    type Timing = {
      lines: { t: number; text: string }[];
      events: { t: number; state: string }[];
      fetches: { t: number; url: string }[];
      frameAt?: number;
      clickAt?: number;
    };
    const timingOf = () => test.page.evaluate(() => (window as unknown as { __fm: Timing }).__fm);
    // The start: the page contacting the faulty source (its fetch, its frame), else the reader's last click, else the navigation.
    const fetchedAt = (timing: Timing) =>
      timing.fetches.find((f) => new URL(f.url, 'http://x').pathname === setup.faultPath)?.t;
    const contactAt = (timing: Timing) => (setup.faultPath === '/cmp' ? timing.frameAt : fetchedAt(timing));
    const startOf = (timing: Timing) => contactAt(timing) ?? timing.clickAt ?? 0;
    if (row.isSlow) {
      if (!isPausedEarly) await pauseClock(test.page, PAUSE_AHEAD_MS);
      await runPastTimeOut(test.page, async () => contactAt(await timingOf()), setup.faultPath!, answerLate);
    }
    // The end: the diagnostic (or, for a 2xx update answer, the reader's decision), then the page has settled.
    const diagnosticsSeen = () => test.messages.filter((m) => isDiagnostic(m.text)).length;
    if (row.code)
      await vi.waitFor(() => expect(diagnosticsSeen()).toBeGreaterThan(0), { timeout: 30_000, interval: 50 });
    await settled(test.page, { ignore: setup.faultPath ? [setup.faultPath] : [], timeoutMs: 30_000 });
    const timing = await timingOf();
    const start = startOf(timing);
    const times = [...timing.lines.map((l) => l.t), ...timing.events.map((e) => e.t)].filter((t) => t >= start);
    const receipt = row.source === 'onUpdateHref' ? await receiptOf(test.page) : null;
    const store = await readStore(test.page);
    return {
      diagnostics: test.messages.filter((m) => isDiagnostic(m.text)).map((m) => m.text),
      pageErrors: test.errors,
      endMs: Math.max(start, ...times) - start,
      diagnosticMs: timing.lines.length ? timing.lines[0]!.t - start : null,
      state: timing.events.at(-1)?.state ?? null,
      isPromptShown: await isShown(test.page, '#prompt'),
      hasFrame: (await test.page.$('.page-consent-frame iframe')) !== null,
      built: row.source === 'auto-ads config' ? [] : await builtProbes(test.page),
      requested: requestedProbes(server).filter((id): id is string => id !== undefined),
      ads: await test.page.$$eval('page-ad', (ads) => ads.filter((ad) => !ad.id).length),
      stored: { site: store.values[SITE_KEY], other: store.values['consent:other'], raw: store.raw, seededRaw },
      receipt,
      startMs: start,
    };
  } finally {
    answerLate();
    await test.context.close();
    await server.close();
  }
}

/**
 * Moves the paused clock of the page on, 50 ms at a time, until the page contacts the faulty
 * source (`contactAt`, in page time), then to 13 s after that contact: to just past the 10 s time-out first, so that a late answer (released by
 * `answerLate` once the browser has given up the request, the CMP frame's own timer) comes
 * strictly after it, then on to 13 s, so that a late answer or foreign messages have had every
 * chance to do harm. Time then flows again.
 */
async function runPastTimeOut(
  page: Page,
  contactAt: () => Promise<number | undefined>,
  faultPath: string,
  answerLate: () => void,
) {
  const requestEnd = new Promise<void>((resolve) => {
    const isFault = (request: Request) => new URL(request.url()).pathname === faultPath && resolve();
    page.on('requestfailed', isFault);
    page.on('requestfinished', isFault);
  });
  const deadline = Date.now() + 30_000;
  let start = await contactAt();
  for (; start === undefined; start = await contactAt()) {
    if (Date.now() > deadline) throw new Error(`the page never contacted ${faultPath}`);
    await stepClock(page, faultPath, 50);
  }
  await runStepwise(page, faultPath, start + DEFAULT_TIMEOUT_MS + 100);
  answerLate();
  if (faultPath !== '/cmp') await Promise.race([requestEnd, delay(5_000)]);
  await runStepwise(page, faultPath, start + 13_000);
  await page.clock.resume();
}

/**
 * Moves page time on by `ms` once every request but the faulty source's has ended: the network
 * runs in real time, so a part still loading must not see its own time-out pass meanwhile.
 */
async function stepClock(page: Page, faultPath: string, ms: number) {
  const { pending } = trackRequests(page);
  const deadline = Date.now() + 30_000;
  while ([...pending].some((id) => !id.includes(faultPath))) {
    if (Date.now() > deadline) throw new Error(`requests still open: ${[...pending].join(', ')}`);
    await delay(20);
  }
  await page.clock.runFor(ms);
}

/** Moves page time on to `at`, half a second at a time (see `stepClock`). */
async function runStepwise(page: Page, faultPath: string, at: number) {
  for (let now = await pageTime(page); now < at; now = await pageTime(page))
    await stepClock(page, faultPath, Math.ceil(Math.min(500, at - now)));
}

/** Runs the cases `width` at a time, the slow ones first (they take longest). */
async function runAll(rows: readonly FaultCase[], width: number) {
  const queue = [...rows].sort((a, b) => Number(b.isSlow) - Number(a.isSlow));
  const worker = async () => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      outcomes.set(row, await run(row).catch((error: Error) => error));
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
}

beforeAll(async () => {
  browser = await launchBrowser();
  const began = Date.now();
  const only = process.env.FAULT_MATRIX_ONLY;
  await runAll(only ? FAULT_CASES.filter((row) => name(row).includes(only)) : FAULT_CASES, WIDTH);
  totalMs = Date.now() - began;
}, 240_000);
afterAll(async () => {
  await browser?.close();
  if (process.env.FAULT_MATRIX_DUMP) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      process.env.FAULT_MATRIX_DUMP,
      JSON.stringify(
        FAULT_CASES.map((row) => [
          name(row),
          outcomes.get(row) instanceof Error ? String(outcomes.get(row)) : outcomes.get(row),
        ]),
        null,
        1,
      ),
    );
  }
  if (passed.size === FAULT_CASES.length)
    console.log(
      `fault matrix: ${FAULT_CASES.length} faults x sources, all ended in defined state (${Math.round(totalMs / 1000)} s)`,
    );
});

const name = (row: FaultCase) => `${row.source}: ${row.fault}`;

describe('fault matrix', () => {
  it('covers every source', () => {
    const sources = new Set(FAULT_CASES.map((row) => row.source));
    expect([...sources]).toEqual([
      'checkConsentHref',
      'checkConsentHref (cached)',
      'onUpdateHref',
      'auto-ads config',
      'CMP iframe',
      'localStorage',
    ]);
    expect(FAULT_CASES.length).toBe(48);
  });

  it.each(FAULT_CASES.map((row) => [name(row), row] as const))('%s', (_name, row) => {
    const outcome = outcomes.get(row);
    if (outcome instanceof Error || !outcome) throw outcome ?? new Error('not run');
    // One diagnostic of the documented form and code (or none where the answer is no fault).
    expect(outcome.diagnostics).toHaveLength(row.code ? 1 : 0);
    if (row.code) {
      const [, , code, , got] = DIAGNOSTIC.exec(outcome.diagnostics[0]!) ?? [];
      expect(code).toBe(row.code);
      expect(DOCUMENTED.has(code!)).toBe(true);
      expect([row.got ?? ''].flat().some((part) => got?.includes(part))).toBe(true);
      expect(outcome.diagnostics[0]!.length).toBeLessThan(400);
    }
    expect(outcome.pageErrors).toEqual([]);
    // The defined end state, reached within 11 s.
    expect(outcome.endMs).toBeLessThan(LIMIT_MS);
    if (row.isSlow && row.fault !== 'answers after the time-out') {
      // The documented default time-out, not a shorter one (the start is observed a few ms after the component's timer starts).
      expect(outcome.diagnosticMs).toBeGreaterThanOrEqual(DEFAULT_TIMEOUT_MS - 100);
    }
    expect(outcome.state).toBe(row.end.state);
    expect(outcome.isPromptShown).toBe(row.end.isPromptShown);
    expect(outcome.hasFrame).toBe(false);
    // Never unblocked: what built and what was requested are what the end state allows.
    expect(outcome.built).toEqual(row.end.built);
    expect(outcome.requested.every((id) => row.end.built.includes(id))).toBe(true);
    expect(outcome.ads).toBe(0);
    // No decision lost: the seeded one (or the reader's, for onUpdateHref) is still stored.
    if (row.source !== 'auto-ads config' && row.fault !== 'invalid JSON (corrupt item)')
      expect(outcome.stored.other).toEqual(OTHER);
    if (row.source === 'checkConsentHref (cached)') expect(outcome.stored.raw).toBe(outcome.stored.seededRaw);
    if (row.source === 'checkConsentHref' || row.source === 'CMP iframe') expect(outcome.stored.site).toBeUndefined();
    if (row.source === 'onUpdateHref') {
      expect(outcome.stored.site).toMatchObject({ version: 2, state: 'rejected' });
      expect(outcome.receipt).toBeNull();
    }
    // Storage faults: the item is exactly as seeded (a corrupt one is left until the reader decides).
    if (row.source === 'localStorage') expect(outcome.stored.raw).toBe(outcome.stored.seededRaw);
    passed.add(row);
  });
});
