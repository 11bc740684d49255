/**
 * Time-outs in Chromium without waiting them out: Playwright's clock replaces the page's timers
 * (setTimeout, AbortSignal.timeout, performance.now, Date, ...). Time still flows, and
 * `runUntil` moves it on at once to a given page time, firing every timer due meanwhile. Page
 * time is `performance.now()` in the page: milliseconds since its navigation started.
 */
import type { Page } from 'playwright-core';

/** Installs the clock for the next navigation, and records when each fetch and timer began. */
export async function installClock(page: Page): Promise<void> {
  await page.clock.install();
  // Runs after the clock's own script, so it wraps the fake setTimeout.
  await page.addInitScript(RECORDER);
}

const RECORDER = `(() => {
  const seen = { fetches: {}, timers: {}, shown: {} };
  window.__clockSeen = seen;
  // The page time each element with an id was first shown by <page-consent> (its shown class).
  new MutationObserver((records) => {
    for (const { target } of records) if (target.id && target.classList.contains('page-consent-shown')) seen.shown[target.id] ??= performance.now();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['class'] });
  const { fetch, setTimeout } = window;
  window.fetch = function (input, init) {
    const url = new URL(input instanceof Request ? input.url : String(input), location.href);
    seen.fetches[url.pathname] ??= performance.now();
    return fetch.call(this, input, init);
  };
  window.setTimeout = function (handler, delay, ...rest) {
    // Read first: it brings the clock's time up to date, and the fake setTimeout counts its delay
    // from the clock's last update, which a busy page may leave a hundred milliseconds or more
    // behind, so the timer would fire that much early against performance.now().
    const now = performance.now();
    seen.timers[Number(delay) || 0] ??= now;
    return setTimeout.call(this, handler, delay, ...rest);
  };
})();`;

type Seen = 'fetches' | 'timers' | 'shown';
const seenAt = async (page: Page, kind: Seen, key: string | number): Promise<number> => {
  const at = await page.evaluate(
    ([k, name]) => (window as unknown as { __clockSeen: Record<Seen, Record<string, number>> }).__clockSeen[k][name],
    [kind, String(key)] as const,
  );
  if (at === undefined)
    throw new Error(
      `the page has not ${kind === 'fetches' ? `started a fetch of ${key}` : kind === 'timers' ? `started a ${key} ms timer` : `shown #${key}`}`,
    );
  return at;
};

/** The page time of the first fetch of `path`. */
export const fetchedAt = (page: Page, path: string) => seenAt(page, 'fetches', path);

/** The page time `<page-consent>` first showed the element with this id (a prompt). */
export const shownAt = (page: Page, id: string) => seenAt(page, 'shown', id);

/** The page time the first timer of `delay` ms was set. */
export const timerSetAt = (page: Page, delay: number) => seenAt(page, 'timers', delay);

export const pageTime = (page: Page) => page.evaluate(() => performance.now());

/**
 * Stops the flow of time (a busy machine would otherwise let it run on between two steps of a
 * test); `runUntil` then moves it exactly, and `page.clock.resume()` lets it flow again. The
 * clock jumps up to a second ahead first (it can only pause in the future): call it well before
 * the time-out; `aheadMs` jumps further, for a machine so busy that a second passes before the
 * pause reaches the page. Returns the page time.
 */
export async function pauseClock(page: Page, aheadMs = 1_000): Promise<number> {
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + aheadMs);
  return pageTime(page);
}

/** Moves the page's clock on to page time `at` (nothing when it is already later). */
export async function runUntil(page: Page, at: number): Promise<void> {
  const now = await pageTime(page);
  if (at > now) await page.clock.runFor(Math.ceil(at - now));
}
