import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, startServer, type TestServer } from './harness.ts';
import {
  articlePage,
  CONFIG,
  defaultSpacing,
  IMAGE_ROUTES,
  measureAds,
  spacingViolations,
  waitForPlacement,
} from './fixtures/auto-ads/pages.ts';

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({ ...IMAGE_ROUTES, '/ads/config': { body: CONFIG } });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(path: string, html: string, viewport = { width: 1280, height: 720 }) {
  server.page(path, html);
  const test = await newPage(browser, { viewport });
  await test.page.goto(server.origin + path);
  return test;
}

describe('auto ads on an article page', () => {
  it.each([
    ['desktop', { width: 1280, height: 720 }],
    ['mobile', { width: 390, height: 844 }],
  ])('places ads below the first viewport, spaced by the default constraints (%s)', async (name, viewport) => {
    const { page, messages } = await open(`/article-${name}.html`, articlePage(), viewport);
    const [placed] = await waitForPlacement(page);
    const { ads, viewportHeight } = await measureAds(page);
    const auto = ads.filter((ad) => ad.order >= 0);
    // Default constraints: 8 ads at most, the manual ad included.
    expect(placed).toEqual({ adsPlaced: auto.length, totalAdsOnPage: auto.length + 1 });
    expect(auto.length).toBeGreaterThanOrEqual(3);
    expect(ads.length).toBeLessThanOrEqual(8);
    expect(spacingViolations(ads, (count) => defaultSpacing(count, viewportHeight))).toEqual([]);
    for (const ad of ads) {
      expect(ad.height).toBe(250);
      // No ad with a height inside the first viewport.
      expect(ad.top).toBeGreaterThanOrEqual(viewportHeight);
    }
    for (const ad of auto) {
      expect(ad.parent).toBe('ARTICLE');
      expect(ad.previous === 'P' || ad.next === 'H2').toBe(true);
    }
    expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBe(0);
    expect(messages.filter((m) => m.type === 'error')).toEqual([]);
  });

  it('fetches the config once, with GET, without cookies, for the canonical URL', async () => {
    const { page, context } = await open('/article-fetch.html', articlePage());
    await waitForPlacement(page);
    await context.addCookies([{ name: 'session', value: 'secret', url: server.origin }]);
    await page.reload();
    await waitForPlacement(page);
    const requests = server.requestsTo('/ads/config').filter((r) => r.headers.referer?.endsWith('/article-fetch.html'));
    expect(requests).toHaveLength(2);
    const last = requests[1]!;
    expect(last.method).toBe('GET');
    expect(last.headers.cookie).toBeUndefined();
    const query = new URL(last.url, server.origin).searchParams;
    expect(query.get('client')).toBe('pub-test');
    expect(query.get('url')).toBe(`${server.origin}/article-fetch.html`);
  });

  it('never places into the sticky header or the sidebar', async () => {
    const { page } = await open('/article-denied.html', articlePage());
    await waitForPlacement(page);
    expect(await page.$$('header page-ad, page-sidebar page-ad')).toHaveLength(0);
  });

  it('reaches maxAdCount with the manual ad counted', async () => {
    server.route('/ads/config-max', {
      body: { ...CONFIG, adConstraints: { initialMinSpacing: '100px', maxAdCount: 4 } },
    });
    const { page } = await open(
      '/article-max.html',
      articlePage({ autoAds: 'type="custom" data-config-url="/ads/config-max"' }),
    );
    const [placed] = await waitForPlacement(page);
    expect(placed).toEqual({ adsPlaced: 3, totalAdsOnPage: 4 });
    const { ads } = await measureAds(page);
    expect(ads).toHaveLength(4);
    expect(spacingViolations(ads, () => 100)).toEqual([]);
  });

  it('applies subsequent spacing rules as the count grows', async () => {
    const adConstraints = {
      initialMinSpacing: '300px',
      subsequentMinSpacing: [{ adCount: 3, spacing: '1200px' }],
      maxAdCount: 20,
    };
    server.route('/ads/config-rules', { body: { ...CONFIG, adConstraints } });
    const { page } = await open(
      '/article-rules.html',
      articlePage({ autoAds: 'type="custom" data-config-url="/ads/config-rules"' }),
    );
    await waitForPlacement(page);
    const { ads } = await measureAds(page);
    expect(spacingViolations(ads, (count) => (count >= 3 ? 1200 : 300))).toEqual([]);
    expect(ads.filter((ad) => ad.order >= 0).length).toBeGreaterThanOrEqual(3);
  });

  it('inserts ads with the config attributes and top_m/bot_m margins', async () => {
    const placements = [
      {
        anchor: { selector: 'article > p', all: true, min_c: 100 },
        pos: 4,
        type: 1,
        style: { top_m: 12, bot_m: 24 },
        attributes: { 'data-where': 'after-p' },
      },
    ];
    server.route('/ads/config-style', { body: { ...CONFIG, placements } });
    const { page } = await open(
      '/article-style.html',
      articlePage({ autoAds: 'type="custom" data-config-url="/ads/config-style" data-ad-client="pub-test"' }),
    );
    await waitForPlacement(page);
    const ad = await page.$eval('article page-ad[data-where]', (element) => ({
      type: element.getAttribute('type'),
      label: element.getAttribute('data-label'),
      client: element.getAttribute('data-ad-client'),
      margins: [getComputedStyle(element).marginTop, getComputedStyle(element).marginBottom],
      placeholder: !!element.querySelector('.page-fake-ad'),
    }));
    expect(ad).toEqual({
      type: 'fake',
      label: 'auto',
      client: 'pub-test',
      margins: ['12px', '24px'],
      placeholder: true,
    });
  });
});
