/**
 * The auto-ads experiment in Chromium (docs/auto-ads.md, "Experiments"): the arm stays the same
 * across page views when consent allows storage and is drawn per page view otherwise; the
 * beacon sent when the page view ends carries the arm and the counts of what was placed and
 * viewed, and no layout shift. `?draw=` on a page's URL fixes what `Math.random` gives the part.
 */
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CDN_ROOT, launchBrowser, newPage, type RecordedRequest, startServer, type TestServer } from './harness.ts';
import { articlePage, IMAGE_ROUTES, PLACEMENTS } from './fixtures/auto-ads/pages.ts';

let browser: Browser;
let server: TestServer;

const CONSENT = `<page-consent id="consent" layout="nodisplay">
  <script type="application/json">{"consentInstanceId": "experiment-test", "consentRequired": true, "promptUI": "prompt"}</script>
  <div id="prompt"><button id="accept" on="tap:consent.accept">Accept</button><button id="reject" on="tap:consent.reject">Reject</button></div>
</page-consent>`;

const CONFIG = {
  placements: PLACEMENTS,
  attributes: { type: 'fake', 'data-label': 'auto' },
  adConstraints: { initialMinSpacing: '1vp', maxAdCount: 8 },
  onExperimentHref: '/beacon?client=test',
  experiment: {
    id: 'max-ads',
    arms: [
      // The article has one ad of its own, which counts toward maxAdCount: 1 and up to 3 placed.
      { id: 'fewer', weight: 50, settings: { maxAdCount: 2 } },
      { id: 'more', weight: 50, settings: { maxAdCount: 4 } },
    ],
  },
};

/** Pins `Math.random` to the page URL's `draw` (only the experiment part draws with it). */
const PIN_DRAW = `(() => {
  const draw = new URLSearchParams(location.search).get('draw');
  if (draw !== null) Math.random = () => Number(draw);
})()`;

beforeAll(async () => {
  if (!existsSync(`${CDN_ROOT}/v0/page-consent-0.1.js`)) throw new Error('run node scripts/build.mjs first');
  browser = await launchBrowser();
  server = await startServer({
    ...IMAGE_ROUTES,
    '/ads/experiment': { body: CONFIG },
    // One bad field (the weight): the experiment is dropped and the config's maxAdCount of 8 applies.
    '/ads/bad-experiment': {
      body: {
        ...CONFIG,
        experiment: { ...CONFIG.experiment, arms: [CONFIG.experiment.arms[0], { id: 'b', weight: 0 }] },
      },
    },
    '/beacon': { status: 204 },
    '/away.html': { body: '<!doctype html><title>away</title>' },
  });
  const autoAds = 'type="custom" data-config-url="/ads/experiment"';
  server.page('/story.html', articlePage({ autoAds }));
  server.page('/bad.html', articlePage({ autoAds: 'type="custom" data-config-url="/ads/bad-experiment"' }));
  server.page(
    '/consent.html',
    articlePage({ autoAds, extensions: ['page-auto-ads', 'page-consent'] }).replace(
      '</page-auto-ads>',
      `</page-auto-ads>${CONSENT}`,
    ),
  );
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(width: number) {
  const opened = await newPage(browser, { viewport: { width, height: 800 } });
  await opened.context.addInitScript(PIN_DRAW);
  return opened;
}

/** Loads the page and waits for the first `ads-placed`. */
async function visit(page: Page, path: string) {
  await page.goto(server.origin + path);
  await page.waitForFunction(() => (window as unknown as { __placed: unknown[] }).__placed.length > 0);
}

/** The ads `<page-auto-ads>` placed (not the article's own), in the order of insertion. */
const PLACED = () => {
  const probe = window as unknown as { __adOrder: Element[]; __manualAds: Set<Element> };
  return probe.__adOrder.filter((ad) => ad.isConnected && !probe.__manualAds.has(ad));
};

const adCount = (page: Page) => page.evaluate(`(${PLACED})().length`) as Promise<number>;

const storedArm = (page: Page) =>
  page.evaluate(() =>
    Object.keys(localStorage)
      .filter((key) => key.startsWith('page-store:'))
      .map((key) => atob(localStorage.getItem(key) ?? ''))
      .join(),
  );

/** Leaves the page (its `pagehide` sends the beacon) and gives the beacon requests received so far, parsed. */
async function leave(page: Page, expected: number) {
  await page.goto(server.origin + '/away.html');
  const deadline = Date.now() + 5000;
  while (server.requestsTo('/beacon').length < expected && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  // Expecting none: give a beacon that should not come the time one would take.
  if (!expected) await new Promise((resolve) => setTimeout(resolve, 500));
  return server.requestsTo('/beacon').map((request: RecordedRequest) => ({
    ...(JSON.parse(request.body) as Record<string, unknown>),
    contentType: request.headers['content-type'],
    cookie: request.headers.cookie,
  }));
}

describe('auto ads experiment', () => {
  it('keeps the arm across page views when storage is allowed (no consent needed)', async () => {
    const { page } = await open(1024);
    await visit(page, '/story.html?draw=0.1');
    expect(await adCount(page)).toBe(1);
    expect(await storedArm(page)).toContain('"auto-ads-experiment":{"id":"max-ads","arm":"fewer"}');
    for (const draw of ['0.9', '0.7']) {
      await visit(page, `/story.html?draw=${draw}`);
      expect(await adCount(page)).toBe(1);
    }
    await page.context().close();
  });

  it('draws the arm per page view when consent does not allow storage, and stores none', async () => {
    const { page } = await open(1024);
    await visit(page, '/consent.html?draw=0.1');
    expect(await adCount(page)).toBe(1);
    await page.click('#reject');
    await visit(page, '/consent.html?draw=0.9');
    expect(await adCount(page)).toBeGreaterThan(1);
    expect(await adCount(page)).toBeLessThanOrEqual(3);
    await visit(page, '/consent.html?draw=0.2');
    expect(await adCount(page)).toBe(1);
    expect(await storedArm(page)).not.toContain('auto-ads-experiment');
    await page.context().close();
  });

  it('stores the arm once the reader accepts, and keeps it from then on', async () => {
    const { page } = await open(1024);
    await visit(page, '/consent.html?draw=0.9');
    const placed = await adCount(page);
    expect(placed).toBeGreaterThan(1);
    await page.click('#accept');
    await page.waitForFunction(() =>
      Object.keys(localStorage).some(
        (key) => key.startsWith('page-store:') && atob(localStorage.getItem(key) ?? '').includes('auto-ads-experiment'),
      ),
    );
    expect(await storedArm(page)).toContain('"auto-ads-experiment":{"id":"max-ads","arm":"more"}');
    await visit(page, '/consent.html?draw=0.1');
    expect(await adCount(page)).toBe(placed);
    await page.context().close();
  });

  it.each([375, 1024, 1440])(
    'at %i px beacons the arm, the ads placed and those viewed for a second, without layout shift',
    async (width) => {
      server.requests.length = 0;
      const { page } = await open(width);
      await visit(page, '/story.html?draw=0.9');
      const placed = await adCount(page);
      expect(placed).toBeGreaterThan(1);
      // The first ad in view for 2.5 s, the second for a moment only; then back to the top, where
      // no ad was placed (none goes into the visible viewport), before the page view ends.
      await page.evaluate(`(${PLACED})()[0].scrollIntoView({ block: 'center' })`);
      await page.waitForTimeout(2500);
      await page.evaluate(`(${PLACED})()[1].scrollIntoView({ block: 'center' })`);
      await page.waitForTimeout(200);
      await page.evaluate(() => scrollTo(0, 0));
      const cls = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
      const [beacon, more] = await leave(page, 1);
      expect(more).toBeUndefined();
      expect(beacon).toEqual({
        experiment: 'max-ads',
        arm: 'more',
        adsPlaced: placed,
        viewable: 1,
        layoutShift: 0,
        contentType: 'text/plain;charset=UTF-8',
        cookie: undefined,
      });
      expect(cls).toBe(0);
      await page.context().close();
    },
  );

  it('counts nothing viewable when no ad was in view for a second, and sends one beacon per page view', async () => {
    server.requests.length = 0;
    const { page } = await open(1024);
    await visit(page, '/story.html?draw=0.1');
    // Hidden, then shown again: the page view's counts went with the first hide.
    await page.evaluate(() => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    const beacons = await leave(page, 1);
    expect(beacons).toEqual([
      expect.objectContaining({ experiment: 'max-ads', arm: 'fewer', adsPlaced: 1, viewable: 0, layoutShift: 0 }),
    ]);
    await page.context().close();
  });

  it('warns once about a bad experiment field, places with the config of its own, and sends nothing', async () => {
    server.requests.length = 0;
    const { page, messages } = await open(1024);
    await visit(page, '/bad.html?draw=0.1');
    expect(await adCount(page)).toBeGreaterThan(1);
    expect(messages.filter((m) => m.text.includes('auto-ads-experiment-invalid'))).toEqual([
      {
        type: 'warning',
        text: '[page-auto-ads] auto-ads-experiment-invalid: expected experiment.arms[1].weight: an integer from 1 to 1000, got 0',
      },
    ]);
    expect(await storedArm(page)).not.toContain('auto-ads-experiment');
    expect(await leave(page, 0)).toEqual([]);
    await page.context().close();
  });
});
