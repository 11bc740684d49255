/**
 * The leak matrix (docs/reliability.md, "Leak matrix"): generated pages x consent paths x script load orders. For
 * every cell (one blocked element on one page view) the server's request log and the page's record
 * of script runs and third-party builds prove that nothing was requested or ran before the gate
 * state allowed it, and that what the final state allows was requested (and ran) exactly once.
 * On every page `__tcfapi`, `__gpp` and Consent Mode report the gate's state.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isShown, SVG } from './consent-fixtures.ts';
import { encodeTcString } from './consent-signals-strings.ts';
import {
  CDN_ROOT,
  launchBrowser,
  newPage,
  type RecordedRequest,
  settled,
  startServer,
  type TestPage,
  type TestServer,
} from './harness.ts';
import {
  type Cell,
  cellsOf,
  type ConsentPath,
  describeCoverage,
  generatePages,
  type PageSpec,
  pageHtml,
  TC_STRING,
} from './leak-matrix-pages.ts';
import { type GateState, isAllowed, leaksOf, type TimelineEntry } from './leak-matrix-rules.ts';

let browser: Browser;
let server: TestServer;
let tcString: string;
/**
 * Answers the server holds until the test releases them (`<n>:v0`, `<n>:extension`,
 * `<n>:check` of page view n), and when each was released (ms since the epoch).
 */
const holds = new Map<string, { released: Promise<void>; release: () => void }>();
const releasedAt = new Map<string, number>();
const holdOf = (key: string) => {
  let hold = holds.get(key);
  if (!hold) {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    hold = { released, release };
    holds.set(key, hold);
  }
  return hold;
};
/** Lets the held answer `key` go, once. */
const release = (key: string) => {
  if (releasedAt.has(key)) return;
  releasedAt.set(key, Date.now());
  holdOf(key).release();
};
/** When the remote check of page view n was answered (ms since the epoch). */
const answeredAt = (n: number) => releasedAt.get(`${n}:check`);
/** The browser profile of each page, kept for its return visit. */
const profiles = new Map<number, TestPage>();
const totals = { cells: 0, checked: 0 };

const PAGES = generatePages();
const byNumber = new Map(PAGES.map((page) => [page.n, page]));

const script = (body: string) => ({ body, headers: { 'content-type': 'text/javascript' } });
const cdn = (path: string) => readFileSync(`${CDN_ROOT}/${path}`, 'utf8');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The `<n>-<cell id>` of a `/leak/...?<n>-<cell id>` request (the auto-ads network adds `=` and its own parameters). */
const queryOf = (request: RecordedRequest) => (request.url.split('?')[1] ?? '').split('&')[0]!.replace(/=$/, '');

beforeAll(async () => {
  browser = await launchBrowser();
  tcString = encodeTcString();
  const v0 = cdn('v0.js');
  const consent = cdn('v0/page-consent-0.1.js');
  server = await startServer({
    '/favicon.ico': { status: 204 },
    '/leak/blank.html': { body: '<!doctype html><title>blank</title>' },
    '/leak/img.svg': SVG,
    '/leak/pixel': { status: 204 },
    '/leak/define': { status: 204 },
    '/leak/frame.html': { body: '<!doctype html><title>frame</title>' },
    '/leak/ad.html': { body: '<!doctype html><title>creative</title>' },
    '/leak/config.json': { body: { placements: [] } },
    '/leak/script.js': (request) =>
      script(`leak.runs.push({ time: Date.now(), id: ${JSON.stringify(queryOf(request).replace(/^\d+-/, ''))} });`),
    '/leak/check': async (request) => {
      const page = byNumber.get(Number(queryOf(request)))!;
      await holdOf(`${page.n}:check`).released;
      const { status = 200, body } = page.path.answer!;
      return {
        status,
        body: typeof body === 'string' ? body : JSON.parse(JSON.stringify(body).replace(TC_STRING, tcString)),
      };
    },
  });
  for (const page of PAGES) {
    const heldScript = (key: string, body: string) => async () => {
      await holdOf(`${page.n}:${key}`).released;
      return script(body);
    };
    server.route(`/o/${page.n}/v0.js`, heldScript('v0', v0));
    server.route(`/o/${page.n}/v0/page-consent-0.1.js`, heldScript('extension', consent));
    for (const name of ['tcf', 'gpp'])
      server.route(`/o/${page.n}/v0/page-consent-${name}-0.1.js`, script(cdn(`v0/page-consent-${name}-0.1.js`)));
    server.page(`/leak/${page.n}.html`, pageHtml(page, cellsOf(page)));
  }
});
afterAll(async () => {
  console.log(describeCoverage(PAGES));
  console.log(`leak matrix: ${totals.cells} cells, ${totals.checked} requests checked (${PAGES.length} page views)`);
  await browser?.close();
  await server?.close();
});

type Recorded = { time: number; state: string; purposes: Record<string, unknown> };
type Records = {
  events: (Recorded & { consentString?: string })[];
  snapshots: (Recorded & { required?: boolean })[];
  clicks: { time: number; id: string }[];
  policies: { time: number; id: string; state: string }[];
  gtag: { time: number; args: unknown[] }[];
  runs: { time: number; id: string }[];
};
const recordsOf = (page: Page) => page.evaluate(() => (window as never as { leak: Records }).leak);

/** Stores a decision for instance `leak` in the site store, from a blank page of the origin. */
async function storeDecision(page: Page, decision: NonNullable<ConsentPath['cache']>) {
  await page.goto(`${server.origin}/leak/blank.html`);
  await page.evaluate(
    (values) => {
      const bytes = new TextEncoder().encode(JSON.stringify({ version: 1, values }));
      localStorage.setItem(`page-store:${location.hostname}`, btoa(String.fromCharCode(...bytes)));
    },
    { 'consent:leak': { version: 2, time: Date.now(), ...decision } },
  );
}

/**
 * Releases page view n's scripts in its order, each once the page reached the state the order
 * names: the extension first, then v0.js once the extension has queued itself; or v0.js first,
 * then the extension once the runtime runs (a slow extension: once the page has settled without it).
 */
async function releaseScripts(page: Page, spec: PageSpec) {
  const { n, order } = spec;
  if (order.isExtensionFirst) {
    release(`${n}:extension`);
    await page.waitForFunction(() => {
      const queue = (self as never as { PAGE?: unknown }).PAGE;
      return Array.isArray(queue) && queue.length >= 2;
    });
    release(`${n}:v0`);
    return;
  }
  release(`${n}:v0`);
  await page.waitForFunction(() => !!(self as never as { PAGE_RUNTIME?: unknown }).PAGE_RUNTIME);
  if (order.isExtensionLate) await settled(page, { ignore: [`/o/${n}/v0/page-consent-0.1.js`] });
  release(`${n}:extension`);
}

/** On a remote path, answers page view n's check once it was asked and the page settled waiting for it. */
async function releaseCheck(page: Page, spec: PageSpec) {
  if (spec.path.setup !== 'remote') return;
  const asked = () => server.requestsTo('/leak/check').some((request) => queryOf(request) === String(spec.n));
  if (!(await waitUntil(asked, 15_000))) throw new Error(`page view ${spec.n} never asked the check`);
  await settled(page, { ignore: ['/leak/check'] });
  release(`${spec.n}:check`);
}

/**
 * The gate's states on this page view, each at the moment of its cause: the page's records
 * (consent-change events, vendor API snapshots) moved back to the last cause before them (the
 * navigation, the extension's start, a click, the server's answer), so that a request made while
 * the runtime was still telling the page counts in the new state, and none before its cause.
 */
function timelineOf(spec: PageSpec, start: number, records: Records): TimelineEntry[] {
  const answered = answeredAt(spec.n) ?? Number.POSITIVE_INFINITY;
  const isRemote = spec.path.setup === 'remote';
  const arrived = extensionArrivalOf(spec);
  const starts = records.gtag.filter(({ args }) => args[1] === 'default').map(({ time }) => time);
  const causes = [
    start,
    arrived,
    ...starts,
    ...records.clicks.map(({ time }) => time),
    ...(isRemote ? [answered] : []),
  ].sort((a, b) => a - b);
  const causeOf = (time: number) => causes.filter((cause) => cause <= time).at(-1) ?? start;
  const entries = [
    ...records.snapshots.map(({ time, state, required, purposes }) => ({
      time,
      purposes,
      state: state === 'unknown' && required === undefined ? 'pending' : state,
    })),
    ...records.events.map(({ time, state, purposes }) => ({
      time,
      purposes,
      state: state === 'unknown' && isRemote && time < answered ? 'pending' : state,
    })),
  ].sort((a, b) => a.time - b.time);
  const { cache } = spec.path;
  const purposes = cache?.purposeConsents ?? {};
  const initial: TimelineEntry = { time: start, state: cache?.state ?? 'pending', purposes };
  // Config and storage decide a client-only undecided state as soon as the extension runs (its fast path included).
  const known: TimelineEntry[] = !cache && !isRemote ? [{ time: arrived, state: 'unknown', purposes }] : [];
  return [
    initial,
    ...known,
    ...entries.map((entry) => ({ ...entry, state: entry.state as GateState, time: causeOf(entry.time) })),
  ];
}

/** When the consent extension of this page view was sent (released by the test). */
function extensionArrivalOf(spec: PageSpec): number {
  return releasedAt.get(`${spec.n}:extension`) ?? Number.POSITIVE_INFINITY;
}

/** The times each cell was requested, and ran (scripts, third-party builds). */
function evidenceOf(spec: PageSpec, cell: Pick<Cell, 'id' | 'kind'>, records: Records) {
  const query = `${spec.n}-${cell.id}`;
  const requests = server.requests
    .filter((request) => request.path.startsWith('/leak/') && queryOf(request) === query)
    .map(({ time }) => time);
  const hasRuns = cell.kind === 'script' || cell.kind === 'define';
  return {
    requests,
    runs: hasRuns ? records.runs.filter(({ id }) => id === cell.id).map(({ time }) => time) : undefined,
  };
}

type Signals = {
  tcf: string;
  tcString: string;
  purpose1: boolean;
  gpp: string;
  adStorage: string;
  analyticsStorage: string;
};

/** What `__tcfapi`, `__gpp` and the Consent Mode calls report now. */
async function readSignals(page: Page): Promise<Signals | string> {
  return page.evaluate(async () => {
    type Api = (command: string, ...rest: unknown[]) => void;
    const scope = window as never as { __tcfapi: Api; __gpp: Api; leak: Records };
    const ask = <T>(call: (resolve: (value: T) => void) => void) =>
      Promise.race([new Promise<T>(call), new Promise<null>((resolve) => setTimeout(() => resolve(null), 3000))]);
    const tcf = await ask<{ eventStatus: string; tcString?: string; purpose?: { consents: Record<string, boolean> } }>(
      (resolve) => scope.__tcfapi('getTCData', 2, resolve),
    );
    const gpp = await ask<{ signalStatus: string; cmpDisplayStatus: string }>((resolve) =>
      scope.__gpp('ping', resolve),
    );
    if (!tcf || !gpp) return `no answer from ${tcf ? '__gpp' : '__tcfapi'}`;
    const mode = Object.assign(
      {},
      ...scope.leak.gtag.filter(({ args }) => args[0] === 'consent').map(({ args }) => args[2]),
    );
    return {
      tcf:
        tcf.eventStatus === 'cmpuishown'
          ? 'prompt'
          : tcf.eventStatus === 'tcloaded' || tcf.eventStatus === 'useractioncomplete'
            ? 'decided'
            : tcf.eventStatus,
      tcString: tcf.tcString ?? '',
      purpose1: tcf.purpose?.consents[1] === true,
      gpp: `${gpp.signalStatus}, ${gpp.cmpDisplayStatus}`,
      adStorage: mode.ad_storage,
      analyticsStorage: mode.analytics_storage,
    };
  });
}

/** The signals the gate's state implies (docs/consent.md, "Signals for ad tech"): TCF and GPP follow the prompt and the CMP string, Consent Mode the decision. */
function expectedSignals(entry: TimelineEntry, consentString: string, isPromptShown: boolean): Signals {
  const isGranted = entry.state === 'accepted' || entry.state === 'not-required';
  return {
    tcf: isPromptShown ? 'prompt' : 'decided',
    tcString: consentString,
    purpose1: entry.state === 'accepted' && consentString !== '',
    // GPP is ready only once somebody decided: not while the prompt shows.
    gpp: isPromptShown ? 'not ready, visible' : 'ready, hidden',
    adStorage: isGranted ? 'granted' : 'denied',
    analyticsStorage: entry.purposes.ads === true ? 'granted' : 'denied',
  };
}

async function signalProblems(page: Page, spec: PageSpec, start: number, moment: string): Promise<string[]> {
  const records = await recordsOf(page);
  const entry = timelineOf(spec, start, records).at(-1)!;
  const consentString = records.events.at(-1)?.consentString ?? '';
  const expected = expectedSignals(entry, consentString, await isShown(page, '#prompt'));
  const actual = await readSignals(page);
  return JSON.stringify(actual) === JSON.stringify(expected)
    ? []
    : [`signals ${moment} (gate ${entry.state}): expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`];
}

/** Polls until `condition` holds, up to `timeout` ms; false if it never did. */
async function waitUntil(condition: () => Promise<boolean> | boolean, timeout: number): Promise<boolean> {
  for (const end = Date.now() + timeout; Date.now() < end; await sleep(50)) if (await condition()) return true;
  return condition();
}

/** The page settled in its first state: the prompt shown, or the path's decision made (and a timeout elapsed). */
async function settleFirstState(page: Page, path: ConsentPath) {
  const isUndecidedFirst = path.clicks || path.final === 'unknown';
  await page.waitForFunction(
    ([isUndecided, final]) => {
      const { events } = (window as never as { leak: Records }).leak;
      return isUndecided
        ? document.querySelector('#prompt:not([hidden])')?.checkVisibility()
        : events.some(({ state }) => state === final);
    },
    [isUndecidedFirst, path.final] as const,
    { timeout: 15_000 },
  );
  if (path.timeout)
    await page.waitForFunction(
      () => (window as never as { leak: Records }).leak.policies.some(({ id }) => id === 'default'),
      undefined,
      { timeout: 10_000 },
    );
}

/** Causes the path states beyond the gate's own records: decisions after their cause, the timeout's fallback. */
function causeProblems(spec: PageSpec, records: Records): string[] {
  const { path } = spec;
  const problems: string[] = [];
  const decided = records.events.find(({ state }) => state !== 'unknown');
  const lastClick = records.clicks.at(-1)?.time;
  if (path.clicks && decided && (lastClick === undefined || decided.time < lastClick))
    problems.push(`${decided.state} recorded before the decisive click`);
  const answered = answeredAt(spec.n);
  if (path.setup === 'remote' && decided && !path.cache && (answered === undefined || decided.time < answered))
    problems.push(`${decided.state} recorded before the server answered`);
  // The states the page went through: no decision before its cause, none that the path does not make.
  const states = records.events.map(({ state }) => state).filter((state, i, all) => state !== all[i - 1]);
  const expected = path.cache ? [path.cache.state] : path.final === 'unknown' ? ['unknown'] : ['unknown', path.final];
  if (JSON.stringify(states) !== JSON.stringify(expected))
    problems.push(`states ${states.join(' > ')}, expected ${expected.join(' > ')}`);
  if (path.timeout) {
    const fallback = records.policies.find(({ id }) => id === 'default');
    const expected = path.timeout.fallbackAction === 'reject' ? 'insufficient' : 'unknown';
    // The timer starts after the Consent Mode default, which the extension sends first.
    const undecidedAt = records.gtag[0]?.time ?? 0;
    if (fallback?.state !== expected)
      problems.push(`default policy after the timeout: ${fallback?.state}, expected ${expected}`);
    else if (fallback.time < undecidedAt + path.timeout.seconds * 1000)
      problems.push(`default policy resolved ${fallback.time - undecidedAt} ms after the extension started`);
  }
  return problems;
}

/**
 * docs/consent.md "Return visits": every page here configures Consent Mode (`SIGNALS`), whose
 * default must reach `gtag` before any script runs (docs/consent.md, "Signals for ad tech"), so the extension's fast path
 * takes nothing and the element runs the scripts after the default. The fast path's own choices
 * are covered by consent-fast-path.test.ts.
 */
async function fastPathProblems(page: Page, spec: PageSpec): Promise<string[]> {
  const { path, order } = spec;
  if (!order.isExtensionFirst || path.setup !== 'client') return [];
  const taken = await page.$$eval('script[data-page-activated]', (scripts) => scripts.map((script) => script.id));
  return taken.length ? [`fast path took ${taken.join(', ')} on a Consent Mode page, expected nothing`] : [];
}

/** Opens one page view, drives its consent path, and returns every problem found. */
async function runPage(spec: PageSpec): Promise<string[]> {
  const cells = cellsOf(spec);
  const test = spec.after ? profiles.get(spec.after)! : await newPage(browser);
  profiles.set(spec.n, test);
  const { page } = test;
  if (spec.path.cache) await storeDecision(page, spec.path.cache);
  const start = Date.now();
  await page.goto(`${server.origin}/leak/${spec.n}.html`, { waitUntil: 'domcontentloaded' });
  await releaseScripts(page, spec);
  await releaseCheck(page, spec);
  await settleFirstState(page, spec.path);
  const problems: string[] = [];
  if (spec.path.clicks) {
    await settled(page);
    problems.push(...(await signalProblems(page, spec, start, 'before the decision')));
    for (const id of spec.path.clicks) await page.click(`#${id}`);
    await page.waitForFunction(
      (final) => (window as never as { leak: Records }).leak.events.some(({ state }) => state === final),
      spec.path.final,
    );
  }
  const isDone = async () => {
    const records = await recordsOf(page);
    const final = timelineOf(spec, start, records).at(-1)!;
    return cells.every((cell) => {
      const { requests, runs } = evidenceOf(spec, cell, records);
      return !isAllowed(cell.request, final) || (requests.length > 0 && (!runs || runs.length > 0));
    });
  };
  await waitUntil(isDone, 8000);
  await settled(page);
  const records = await recordsOf(page);
  const timeline = timelineOf(spec, start, records);
  for (const cell of cells) {
    const evidence = evidenceOf(spec, cell, records);
    totals.cells += 1;
    totals.checked += evidence.requests.length + (evidence.runs?.length ?? 0);
    for (const problem of leaksOf(cell.request, timeline, evidence))
      problems.push(`${cell.kind} ${cell.label}: ${problem}`);
  }
  // The control loads while the page is parsed: a leak for any page that does not start accepted.
  const control = leaksOf(
    { policy: 'default', purposes: [] },
    timeline,
    evidenceOf(spec, { id: 'control', kind: 'img' }, records),
  );
  if (control.length > 0 !== (spec.path.cache?.state !== 'accepted'))
    problems.push(`control image: ${control.length ? control.join('; ') : 'not reported'}`);
  problems.push(
    ...(await fastPathProblems(page, spec)),
    ...causeProblems(spec, records),
    ...(await signalProblems(page, spec, start, 'at the end')),
  );
  const hasReturnVisit = PAGES.some((other) => other.after === spec.n);
  if (!hasReturnVisit) await test.context.close();
  return problems;
}

const titleOf = (spec: PageSpec) =>
  `${spec.path.name} | ${spec.order.name} | ${spec.hasMeta ? 'meta tag' : 'no meta tag'} | auto-ads ${spec.autoAdsPolicy} | ${cellsOf(spec).length} cells`;

/** A first visit and its return visit, one after the other. */
async function runVisits(visits: readonly PageSpec[]): Promise<string[]> {
  const problems: string[] = [];
  for (const spec of visits) problems.push(...(await runPage(spec)).map((problem) => `${titleOf(spec)}: ${problem}`));
  return problems;
}

/** Two page views at a time (each in its own browser context): most of a page view is waiting. */
const VISITS = PAGES.filter((spec) => !spec.after).map((spec) => [
  spec,
  ...PAGES.filter((other) => other.after === spec.n),
]);
const PAIRS = Array.from({ length: Math.ceil(VISITS.length / 2) }, (_, i) => VISITS.slice(2 * i, 2 * i + 2));

describe('leak matrix', () => {
  it.each(PAIRS.map((pair) => [pair.flat().map(titleOf).join(' || '), pair] as const))('%s', async (_, pair) => {
    const problems = await Promise.all(pair.map(runVisits));
    expect(problems.flat()).toEqual([]);
  });
});
