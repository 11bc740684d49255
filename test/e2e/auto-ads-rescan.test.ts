import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, settled, startServer, type TestServer } from './harness.ts';
import {
  articlePage,
  CONFIG,
  defaultSpacing,
  IMAGE_ROUTES,
  measureAds,
  spacingViolations,
  waitForPlacement,
} from './fixtures/auto-ads/pages.ts';

/** A short article followed by a feed that a script fills later (infinite scroll). */
const paragraph = (i: number) =>
  `<p>Story ${i}: the council heard again from residents about lighting, bus routes and the old rail bridge, and engineers answered every question about the schedule.</p>`;
const BODY = `<main><article>${Array.from({ length: 4 }, (_, i) => paragraph(i)).join('')}<div id="feed"></div></article></main>`;

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  browser = await launchBrowser();
  const config = { ...CONFIG, placements: [{ anchor: { selector: 'article p', all: true }, pos: 4, type: 1 }] };
  server = await startServer({ ...IMAGE_ROUTES, '/ads/feed-config': { body: config } });
  // A scrollbar from the start: its appearance when the feed grows would be a shift of its own.
  const head = '<style>html{overflow-y:scroll}</style>';
  server.page(
    '/feed.html',
    articlePage({ autoAds: 'type="custom" data-config-url="/ads/feed-config"', body: BODY, head }),
  );
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('auto ads re-scan', () => {
  it('places ads in content added later, within the same constraints', async () => {
    const { page } = await newPage(browser, { viewport: { width: 800, height: 600 } });
    await page.goto(server.origin + '/feed.html');
    const [first] = await waitForPlacement(page);
    // The short article fits in the first viewport: nothing can grow there.
    expect(first).toEqual({ adsPlaced: 0, totalAdsOnPage: 0 });
    const html = Array.from({ length: 80 }, (_, i) => paragraph(i + 4)).join('');
    await page.evaluate((content) => document.getElementById('feed')!.insertAdjacentHTML('beforeend', content), html);
    const runs = await waitForPlacement(page, 2);
    const { ads, viewportHeight } = await measureAds(page);
    expect(runs[1]).toEqual({ adsPlaced: ads.length, totalAdsOnPage: ads.length });
    expect(ads.length).toBeGreaterThanOrEqual(3);
    expect(ads.length).toBeLessThanOrEqual(8);
    expect(ads.every((ad) => ad.parent === 'DIV' && ad.previous === 'P')).toBe(true);
    expect(spacingViolations(ads, (count) => defaultSpacing(count, viewportHeight))).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBe(0);
  });

  it('adds no ads beyond maxAdCount when more content arrives', async () => {
    const { page } = await newPage(browser, { viewport: { width: 800, height: 600 } });
    await page.goto(server.origin + '/feed.html');
    await waitForPlacement(page);
    for (let batch = 0; batch < 3; batch++) {
      const html = Array.from({ length: 80 }, (_, i) => paragraph(100 * batch + i)).join('');
      await page.evaluate((content) => document.getElementById('feed')!.insertAdjacentHTML('beforeend', content), html);
      await settled(page);
    }
    const { ads } = await measureAds(page);
    expect(ads).toHaveLength(8);
  });

  it('places nothing in content added after the element is removed', async () => {
    const { page } = await newPage(browser, { viewport: { width: 800, height: 600 } });
    await page.goto(server.origin + '/feed.html');
    await waitForPlacement(page);
    await page.evaluate(() => document.querySelector('page-auto-ads')!.remove());
    const html = Array.from({ length: 80 }, (_, i) => paragraph(i + 4)).join('');
    await page.evaluate((content) => document.getElementById('feed')!.insertAdjacentHTML('beforeend', content), html);
    await settled(page);
    expect((await measureAds(page)).ads).toEqual([]);
  });
});
