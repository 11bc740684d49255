// One run of one consent variant in one profile: a first visit (prompt shown, accept clicked)
// and a return visit in the same context (new tab, stored consent). Returns the figures and
// the correctness checks of bench/README.md.
import { attachMeter } from '../browser/cdp-meter.mjs';
import { installPageProbe } from './page-probe.mjs';

const WAIT_MS = 20_000;
/** After the script ran: time for a second (wrong) run to show up. */
const SETTLE_MS = 300;
/** On the return visit, after load: time for a late prompt to show up. */
const RETURN_WATCH_MS = 700;

const readProbe = (page) => page.evaluate(() => window.__bench);
const waitForProbe = (page, predicate) => page.waitForFunction(predicate, null, { timeout: WAIT_MS, polling: 50 });

async function openPage(context, { url, variant, profile, visit }) {
  const page = await context.newPage();
  await page.addInitScript(installPageProbe, { promptSelector: variant.prompt, visit });
  const meter = await attachMeter(context, page, profile);
  await page.goto(url, { waitUntil: 'commit' });
  return { page, meter };
}

async function firstVisit(context, options) {
  const { page, meter } = await openPage(context, { ...options, visit: 'first' });
  await waitForProbe(page, () => window.__bench.promptVisibleAt !== null);
  await page.waitForLoadState('load');
  await page.click(options.variant.accept, { timeout: WAIT_MS });
  if (options.variant.blocks) await waitForProbe(page, () => window.__bench.runs > 0).catch(() => {});
  await page.waitForTimeout(SETTLE_MS);
  const probe = await readProbe(page);
  const cost = await meter.read();
  await page.close();
  const ranAt = probe.runTimes[0] ?? null;
  return {
    promptVisibleMs: probe.promptVisibleAt,
    acceptToScriptMs: options.variant.blocks && ranAt !== null ? ranAt - probe.clickAt : null,
    runs: probe.runs,
    earlyRuns: probe.earlyRuns,
    layoutShift: probe.layoutShift,
    ...cost,
  };
}

async function returnVisit(context, options) {
  const { page, meter } = await openPage(context, { ...options, visit: 'return' });
  await waitForProbe(page, () => window.__bench.runs > 0).catch(() => {});
  await page.waitForLoadState('load');
  await page.waitForTimeout(RETURN_WATCH_MS);
  const probe = await readProbe(page);
  const cost = await meter.read();
  await page.close();
  return { scriptMs: probe.runTimes[0] ?? null, runs: probe.runs, promptFrames: probe.promptFrames, layoutShift: probe.layoutShift, cost };
}

/** `{first, return, violations}` of one run in a fresh context. */
export async function runConsentVisit(browser, { url, variant, profile }) {
  const context = await browser.newContext({ viewport: profile.viewport });
  try {
    const first = await firstVisit(context, { url, variant, profile });
    const second = await returnVisit(context, { url, variant, profile });
    const violations = variant.blocks
      ? { early: first.earlyRuns > 0, notOnce: first.runs !== 1 || second.runs !== 1, promptOnReturn: second.promptFrames > 0 }
      : null;
    return { first, return: second, violations };
  } finally {
    await context.close();
  }
}
