// One run of one consent variant in one profile, in a fresh context: a first visit (prompt
// shown, accept clicked), then two return visits in new tabs (stored consent): warm (the HTTP
// cache the first visit filled, every file served as the reference server serves it) and cold
// (the cache cleared and every response `no-store`). Returns the figures, the critical path of
// each return visit's requests and the correctness checks of bench/README.md. A profiled run
// does the same with the CPU profiler on during the return visits, for the breakdown of their
// main-thread time; its figures are not used, since the profiler slows the page.
//
// While a visit is measured nothing of Playwright runs in the page: the harness waits for the
// probe's console messages and for CDP's load event, reads the main-thread metrics before it
// reads the probe, and clicks through CDP (DOM box model, then a mouse event) rather than with
// `page.click`, whose in-page machinery would be counted as the page's script and would compete
// with the page for the main thread.
import { centreOf } from '../browser/cdp-dom.mjs';
import { attachMeter } from '../browser/cdp-meter.mjs';
import { recordRequests } from '../browser/request-log.mjs';
import { describeFrame, mainThreadTime } from '../lib/cpu-profile.mjs';
import { buildCriticalPath, readRequests } from '../lib/critical-path.mjs';
import { SAMPLING_INTERVAL_US } from './consent-breakdown.mjs';
import { pageProbeSource } from './page-probe.mjs';

const WAIT_MS = 20_000;
/** After the script ran: time for a second (wrong) run to show up. */
const SETTLE_MS = 300;
/** On the return visit, after load: time for a late prompt to show up. */
const RETURN_WATCH_MS = 700;
/** Between two reads of the accept button's box: it must not move (an entry animation). */
const STABLE_MS = 100;

const readProbe = (page) => page.evaluate(() => window.__bench);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves on the first console message `text` of `page`, or after WAIT_MS (then `false`). */
function consoleSignal(page, text) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), WAIT_MS);
    page.on('console', (message) => {
      if (message.text() !== text) return;
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function openPage(context, { url, variant, profile, visit, isCold = false, isProfiled = false }) {
  const page = await context.newPage();
  await page.addInitScript({ content: pageProbeSource({ promptSelector: variant.prompt, visit }) });
  const meter = await attachMeter(context, page, profile);
  const requests = recordRequests(meter.cdp);
  // Nothing the earlier visits cached is left (the server answers no-store from now on).
  if (isCold) await meter.cdp.send('Network.clearBrowserCache');
  if (isProfiled) {
    await meter.cdp.send('Profiler.enable');
    await meter.cdp.send('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
    await meter.cdp.send('Profiler.start');
  }
  const signals = { prompt: consoleSignal(page, 'bench:prompt'), ran: consoleSignal(page, 'bench:ran') };
  await page.goto(url, { waitUntil: 'commit' });
  return { page, meter, requests, signals };
}

/** Clicks `selector` once its box is still for STABLE_MS, with CDP mouse events. */
async function clickStill(page, cdp, selector) {
  const deadline = Date.now() + WAIT_MS;
  let previous = await centreOf(cdp, selector);
  for (;;) {
    await sleep(STABLE_MS);
    const current = await centreOf(cdp, selector);
    if (current && previous && current.x === previous.x && current.y === previous.y)
      return page.mouse.click(current.x, current.y);
    if (Date.now() > deadline) throw new Error(`no still box for ${selector}`);
    previous = current;
  }
}

async function firstVisit(context, options) {
  const { page, meter, signals } = await openPage(context, { ...options, visit: 'first', isProfiled: false });
  if (!(await signals.prompt)) throw new Error('the prompt never showed');
  await page.waitForLoadState('load');
  await clickStill(page, meter.cdp, options.variant.accept);
  if (options.variant.blocks) await signals.ran;
  await page.waitForTimeout(SETTLE_MS);
  const cost = await meter.read();
  const probe = await readProbe(page);
  await page.close();
  const ranAt = probe.runTimes[0] ?? null;
  return {
    promptVisibleMs: probe.promptVisibleAt,
    acceptToScriptMs: options.variant.blocks && ranAt !== null ? ranAt - probe.clickAt : null,
    runs: probe.runs,
    earlyRuns: probe.earlyRuns,
    layoutShift: probe.layoutShift,
    tcf: probe.tcf ?? null,
    ...cost,
  };
}

async function returnVisit(context, options) {
  const { page, meter, requests, signals } = await openPage(context, { ...options, visit: 'return' });
  await signals.ran;
  await page.waitForLoadState('load');
  // The cost is read before the watch for a late prompt, whose every-frame poll is the probe's.
  const cost = await meter.read();
  const profile = options.isProfiled ? (await meter.cdp.send('Profiler.stop')).profile : null;
  if (!options.isProfiled) await page.waitForTimeout(RETURN_WATCH_MS);
  const probe = await readProbe(page);
  await page.close();
  return {
    scriptMs: probe.runTimes[0] ?? null,
    runs: probe.runs,
    promptFrames: probe.promptFrames,
    layoutShift: probe.layoutShift,
    tcf: probe.tcf ?? null,
    cost,
    criticalPath: buildCriticalPath(readRequests(requests.read(), probe.timeOrigin), options.blockedUrl),
    // The profiled visit's own ScriptDuration beside the profile's: how much the profiler moved it.
    ...(profile
      ? {
          mainThread: {
            ...mainThreadTime(profile, { describe: options.describeFrame ?? describeFrame }),
            meteredScriptMs: cost.scriptMs,
          },
        }
      : {}),
  };
}

/**
 * `{first, returns: {warm, cold}, violations}` of one run in a fresh context. Options: `url`,
 * `variant`, `profile`, `server` (the static server, whose cache state the run sets),
 * `blockedUrl` (the end of the critical path), `isProfiled`, `describeFrame` (names a profile's
 * call frame).
 */
export async function runConsentVisit(browser, { server, ...options }) {
  const context = await browser.newContext({ viewport: options.profile.viewport });
  server.setCacheState('warm');
  try {
    const first = await firstVisit(context, options);
    const warm = await returnVisit(context, options);
    server.setCacheState('cold');
    const cold = await returnVisit(context, { ...options, isCold: true });
    const returns = [warm, cold];
    const violations = options.variant.blocks
      ? {
          early: first.earlyRuns > 0,
          notOnce: first.runs !== 1 || returns.some((visit) => visit.runs !== 1),
          promptOnReturn: returns.some((visit) => visit.promptFrames > 0),
        }
      : null;
    return { first, returns: { warm, cold }, violations };
  } finally {
    server.setCacheState('warm');
    await context.close();
  }
}
