/**
 * The "nothing else happens" signal of the e2e tests, instead of a fixed sleep: the page has
 * settled when none of its requests is on its way and then two rounds in a row (an animation
 * frame and a task each) pass in which no request started and the document did not change.
 * A fixed sleep is both slower and weaker: on a busy machine a reaction can come after it.
 * Time-outs are not waited for here: tests drive them with Playwright's clock.
 */
import type { Page } from 'playwright-core';

type Tracker = { pending: Set<string>; started: number };
const trackers = new WeakMap<Page, Tracker>();

/** Counts the page's requests from now on (`newPage` does it for every test page). */
export function trackRequests(page: Page): Tracker {
  const known = trackers.get(page);
  if (known) return known;
  const tracker: Tracker = { pending: new Set(), started: 0 };
  const ids = new WeakMap<object, string>();
  page.on('request', (request) => {
    const id = `${tracker.started++} ${request.url()}`;
    ids.set(request, id);
    tracker.pending.add(id);
  });
  const end = (request: object) => tracker.pending.delete(ids.get(request) ?? '');
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  trackers.set(page, tracker);
  return tracker;
}

/** One round in the page: an animation frame, then a task; true when the document changed meanwhile. */
const round = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        let isChanged = false;
        const observer = new MutationObserver(() => (isChanged = true));
        observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => {
            observer.disconnect();
            resolve(isChanged);
          };
          channel.port2.postMessage(0);
        });
      }),
  );

export type SettleOptions = {
  /** Requests that may stay open (a route that never answers): their URL contains one of these. */
  readonly ignore?: readonly string[];
  readonly timeoutMs?: number;
};

/** Resolves once `page` has settled (see above); throws after `timeoutMs` naming what was still busy. */
export async function settled(page: Page, options: SettleOptions = {}): Promise<void> {
  const tracker = trackRequests(page);
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  const open = () => [...tracker.pending].filter((id) => !options.ignore?.some((part) => id.includes(part)));
  let quietRounds = 0;
  while (quietRounds < 2) {
    if (Date.now() > deadline) throw new Error(`page did not settle: requests still open ${JSON.stringify(open())}`);
    const before = tracker.started;
    const isChanged = await round(page);
    quietRounds = !isChanged && tracker.started === before && open().length === 0 ? quietRounds + 1 : 0;
  }
}
