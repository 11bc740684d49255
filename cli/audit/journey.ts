/**
 * One journey of a reader with a fresh profile: open the page, look around, then no decision,
 * a reject or an accept, look around again, and follow up to `pages` same-site links. Records
 * the requests (network-log.ts; a cross-site frame, in a process of its own, from the moment its
 * session attaches), the page's reports (page-recorder.js), the requests the address guard
 * blocked (address-guard.ts) and the cookie jar at the decision and at the end, each list within
 * the audit's bounds (bounds.ts); judging is done elsewhere (judge.ts).
 */
import type { Browser, BrowserContext, Cookie, Page } from 'playwright-core';
import { type BlockedRequest, startAddressGuard } from './address-guard.ts';
import type { Bounds } from './bounds.ts';
import { RENDERER_HEAP_MB } from './browser.ts';
import { policyFor } from './destination.ts';
import { guardNavigation } from './navigation-guard.ts';
import { type LoggedRequest, type NetworkLog, startNetworkLog, type Tracker } from './network-log.ts';
import { readExpectations, type PageExpectations } from './page-config.ts';
import { judgeShownPrompt } from './fair-choice.ts';
import { type Decision, decide, waitForPrompt } from './prompt.ts';
import { type PageRecord, RECORD_BINDING, recorderSource } from './recorder-script.ts';
import { lookAround, open } from './visit.ts';
import {
  axeLayer,
  findPrompt,
  type PromptPlace,
  focusAfterClose,
  openSecondLayer,
  walkKeyboard,
} from './prompt-access.ts';
import type { PromptAccess, PromptLayer, SignalsView } from './report.ts';
import { askPage, signalsView, tcfTimes } from './signals.ts';
import { followLinks } from './links.ts';
import { readPageRecord } from './page-records.ts';

export type JourneyName = 'no-decision' | 'reject' | 'accept';

export type JourneyRecord = {
  readonly name: JourneyName;
  /** Why the journey could not be run, or null. */
  readonly notRun: string | null;
  readonly isPromptShown: boolean;
  /** How the decision was made (or null). */
  readonly decidedBy: string | null;
  /** Epoch ms of the decision; in the no-decision journey, the moment the others decide. */
  readonly decisionAt: number;
  readonly visits: readonly { readonly url: string; readonly time: number }[];
  readonly requests: readonly LoggedRequest[];
  readonly records: readonly PageRecord[];
  /** Requests the address guard did not let through. */
  readonly blocked: readonly BlockedRequest[];
  readonly jarAtDecision: readonly Cookie[];
  readonly jarAtEnd: readonly Cookie[];
  readonly expectations: PageExpectations | null;
  readonly screenshot: Buffer | null;
  /** The fair-choice rule on the shown prompt (no-decision journey only): its problems, or null when not judged. */
  readonly fairChoice: readonly string[] | null;
  /** axe-core and the keyboard walk on the shown prompt, or null where none showed. */
  readonly prompt: PromptAccess | null;
  /** The strings the page published once the journey decided (before it followed links), or null. */
  readonly signals: SignalsView | null;
  /** Epoch ms of the strings' read, and of the first `tcloaded` (or `useractioncomplete`) answer. */
  readonly signalsReadAt: number;
  readonly tcLoadedAt: number | null;
};

export type JourneyOptions = {
  readonly pages: number;
  readonly isScreenshot: boolean;
  readonly promptWaitMs: number;
  /** Loopback or private hosts the page may reach besides its own host and port. */
  readonly allowPrivate: readonly string[];
  readonly bounds: Bounds;
};

const DECISION_WAIT_MS = 5_000;

/** A renderer that crashes (as one does past its heap bound) trips the memory bound. */
export function watchCrashes(context: BrowserContext, bounds: Bounds): void {
  const watch = (page: Page) =>
    page.on('crash', () =>
      bounds.trip(
        'memory',
        `a renderer of the page crashed, as one does when its JavaScript heap passes ${RENDERER_HEAP_MB} MB`,
      ),
    );
  context.on('page', watch);
}

/** Logs the requests of each cross-site or sandboxed frame (a process of its own under site isolation) into `requests`, counted in flight in the page's log too. */
function logFrames(
  context: BrowserContext,
  page: Page,
  requests: LoggedRequest[],
  add: (entry: LoggedRequest) => boolean,
  parent: Tracker,
): void {
  const attached = new WeakMap<object, Promise<NetworkLog | undefined>>();
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() || attached.has(frame)) return;
    attached.set(
      frame,
      context
        .newCDPSession(frame)
        .then((session) => startNetworkLog(session, { requests, add, parent }))
        // A frame in the page's own process has no session of its own (yet: asked again when it navigates).
        .catch(() => void attached.delete(frame)),
    );
  });
  // A removed frame's session reports no more ends: its requests in flight stop counting.
  page.on('framedetached', (frame) => void attached.get(frame)?.then((log) => log?.close()));
}

/**
 * A browser context for one audited visit: every request through its own address guard (the
 * blocked ones in `blocked`), closed when a bound trips; `close` ends both.
 */
export async function openGuardedContext(
  browser: Browser,
  target: URL,
  options: { readonly allowPrivate: readonly string[]; readonly bounds: Bounds },
  extraHTTPHeaders?: Record<string, string>,
) {
  const { bounds } = options;
  const blocked: BlockedRequest[] = [];
  const addressGuard = await startAddressGuard(
    policyFor(target, options.allowPrivate),
    bounds.capped(blocked, 'blocked requests'),
  );
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    proxy: { server: addressGuard.server },
    ...(extraHTTPHeaders ? { extraHTTPHeaders } : {}),
  });
  const stopOnTrip = bounds.onTrip(() => void context.close().catch(() => undefined));
  const close = async () => {
    stopOnTrip();
    await context.close().catch(() => undefined);
    await addressGuard.close();
  };
  return { blocked, context, close };
}

export async function runJourney(
  browser: Browser,
  name: JourneyName,
  target: URL,
  options: JourneyOptions,
): Promise<JourneyRecord> {
  const { bounds } = options;
  const { blocked, context, close } = await openGuardedContext(browser, target, options);
  const records: PageRecord[] = [];
  const requests: LoggedRequest[] = [];
  const visits: { url: string; time: number }[] = [];
  try {
    const addRecord = bounds.capped(records, 'page reports');
    await context.exposeBinding(RECORD_BINDING, (_source, value: unknown) => {
      const record = readPageRecord(value);
      if (record) addRecord(record);
    });
    await context.addInitScript({ content: recorderSource() });
    watchCrashes(context, bounds);
    const page = await context.newPage();
    const session = await context.newCDPSession(page);
    const addRequest = bounds.capped(requests, 'requests');
    const log = await startNetworkLog(session, { requests, add: addRequest });
    logFrames(context, page, requests, addRequest, log.track);
    const guard = await guardNavigation(session, target);
    const base = {
      name,
      visits,
      requests,
      records,
      blocked,
      expectations: null,
      screenshot: null,
      decidedBy: null,
      isPromptShown: false,
      fairChoice: null,
      prompt: null,
      signals: null,
      signalsReadAt: 0,
      tcLoadedAt: null,
    };
    visits.push({ url: target.href, time: Date.now() });
    const visit = await open(page, target.href, guard);
    if ('failure' in visit)
      return {
        ...base,
        notRun: `page unreachable: ${visit.failure}`,
        decisionAt: Date.now(),
        jarAtDecision: [],
        jarAtEnd: [],
      };
    const expectations = readExpectations(visit.html, page.url());
    await lookAround(page, log);
    const isPromptShown = expectations.consentId !== null && (await waitForPrompt(page, options.promptWaitMs));
    const screenshot = options.isScreenshot ? await page.screenshot().catch(() => null) : null;
    const fairChoice =
      name === 'no-decision' && isPromptShown ? await judgeShownPrompt(page, expectations.consentId) : null;
    const place = isPromptShown ? await findPrompt(page).catch(() => null) : null;
    const access = place ? await checkFirstLayer(page, place) : null;
    const jarAtDecision = await context.cookies();
    const decisionAt = Date.now();
    const shown = { ...base, expectations, screenshot, isPromptShown, decisionAt, jarAtDecision, fairChoice };
    const done = { ...shown, prompt: access };
    let decidedBy: string | null = null;
    let prompt = access;
    if (name !== 'no-decision') {
      const finish = async (notRun: string) => ({ ...done, decidedBy, notRun, jarAtEnd: await context.cookies() });
      if (!isPromptShown) return finish('no prompt shown');
      decidedBy = await decide(page, expectations.consentId, name);
      if (decidedBy === null) return finish(`the prompt offers no ${name} action`);
      if (!(await waitForDecision(records, decisionAt, name))) return finish(`the ${name} did not take effect`);
      prompt = access && (await withFocusAfterClose(page, access));
      await lookAround(page, log);
    }
    const signalsReadAt = Date.now();
    const signals = signalsView(await askPage(page), records);
    const tcLoadedAt = tcfTimes(records).loadedAt;
    if (name === 'no-decision' && place && prompt) prompt = await withSecondLayer(place, prompt);
    await followLinks(page, options.pages, target, guard, log, visits);
    return {
      ...done,
      prompt,
      signals,
      signalsReadAt,
      tcLoadedAt,
      decidedBy,
      notRun: null,
      jarAtEnd: await context.cookies(),
    };
  } catch (error) {
    // A page that crashes the tab or closes itself ends its journey with the reason, never the audit.
    const tripped = bounds.tripped();
    const reason = tripped
      ? `stopped: ${tripped.detail}`
      : `the browser failed: ${error instanceof Error ? (error.message.split('\n')[0] ?? error.name) : String(error)}`;
    return stoppedJourney(name, reason, { visits, records, blocked });
  } finally {
    await close();
  }
}

/** axe-core on the prompt as shown, and the keyboard walk on it. */
async function checkFirstLayer(page: Page, place: PromptPlace): Promise<PromptAccess> {
  const first = await axeLayer(place, 'first', null);
  const keyboard = await walkKeyboard(page, place).catch(() => null);
  return typeof first === 'string'
    ? { layers: [], keyboard, error: first }
    : { layers: [first], keyboard, error: null };
}

/** Where focus went once the decision closed the prompt. */
async function withFocusAfterClose(page: Page, access: PromptAccess): Promise<PromptAccess> {
  if (!access.keyboard) return access;
  const focus = await focusAfterClose(page);
  return { ...access, keyboard: { ...access.keyboard, focusAfterClose: focus.name, isFocusLost: focus.isLost } };
}

/** The second layer (settings view), where the prompt has a control that opens it: axe-core on it too. */
async function withSecondLayer(place: PromptPlace, access: PromptAccess): Promise<PromptAccess> {
  const openedBy = await openSecondLayer(place).catch(() => null);
  if (openedBy === null) return access;
  const second: PromptLayer | string = await axeLayer(place, 'second', openedBy);
  return typeof second === 'string'
    ? { ...access, error: access.error ?? second }
    : { ...access, layers: [...access.layers, second] };
}

/** A journey that ended before its end: the reason, and what it recorded that needs no judging. */
export function stoppedJourney(
  name: JourneyName,
  reason: string,
  kept: Pick<JourneyRecord, 'visits' | 'records' | 'blocked'>,
): JourneyRecord {
  const { visits, records, blocked } = kept;
  return {
    name,
    notRun: reason,
    isPromptShown: false,
    decidedBy: null,
    decisionAt: Date.now(),
    visits,
    records,
    blocked,
    requests: [],
    jarAtDecision: [],
    jarAtEnd: [],
    expectations: null,
    screenshot: null,
    fairChoice: null,
    prompt: null,
    signals: null,
    signalsReadAt: 0,
    tcLoadedAt: null,
  };
}

/** Waits for the `consent-change` to the decided state (the component applied it). */
async function waitForDecision(records: readonly PageRecord[], since: number, decision: Decision): Promise<boolean> {
  const state = decision === 'reject' ? 'rejected' : 'accepted';
  const deadline = Date.now() + DECISION_WAIT_MS;
  while (Date.now() < deadline) {
    if (records.some((record) => record.kind === 'consent-change' && record.key === state && record.time >= since - 1))
      return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
