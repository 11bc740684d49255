// One auto-ads run: a fresh context loads the page under a CDP trace, waits for the first
// `ads-placed`, and returns the trace figures, the longest task after parsing (0: none over
// 50 ms), the ads placed and the layout shift.
import { analysePlacementTrace } from './placement-trace.mjs';
import { installPlacementProbe } from './placement-probe.mjs';

// Not "toplevel": it makes Tracing.end take tens of seconds (every process flushes its tasks).
const CATEGORIES = 'devtools.timeline,blink.user_timing,v8.execute';
const WAIT_MS = 120_000;
const SETTLE_MS = 200;

async function traceUntilPlaced(context, page, url) {
  const cdp = await context.newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => {
    for (const event of value) events.push(event);
  });
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__bench.placed !== null, null, { timeout: WAIT_MS, polling: 100 });
  await page.waitForTimeout(SETTLE_MS);
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  await complete;
  return events;
}

export async function runAutoAdsVisit(browser, { url, viewport }) {
  const context = await browser.newContext({ viewport });
  try {
    const page = await context.newPage();
    await page.addInitScript(installPlacementProbe);
    const events = await traceUntilPlaced(context, page, url);
    const probe = await page.evaluate(() => window.__bench);
    const trace = analysePlacementTrace(events);
    if (!trace) throw new Error('the trace has no bench-config-arrived / bench-parsed / bench-ads-placed marks');
    const afterParse = probe.tasks.filter(([start]) => start >= probe.parsedAt).map(([, duration]) => duration);
    return {
      ...trace,
      longestTaskMs: Math.max(0, ...afterParse),
      adsPlaced: probe.placed.adsPlaced,
      ads: probe.ads,
      layoutShift: probe.layoutShift,
    };
  } finally {
    await context.close();
  }
}
