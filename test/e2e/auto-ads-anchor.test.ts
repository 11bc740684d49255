import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, startServer, type TestServer } from './harness.ts';
import { articlePage, CONFIG, IMAGE_ROUTES, measureAds, waitForPlacement } from './fixtures/auto-ads/pages.ts';

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({
    ...IMAGE_ROUTES,
    '/ads/anchor-bottom': { body: { ...CONFIG, optInStatus: [2] } },
    '/ads/anchor-top': {
      body: { optInStatus: [1, 2], attributes: { type: 'fake' }, stickyAdAttributes: { sticky: 'top', height: 60 } },
    },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const stickyBox = (page: import('playwright-core').Page) =>
  page.$eval('page-ad[sticky]', (ad) => {
    const rect = ad.getBoundingClientRect();
    return {
      top: rect.top,
      bottom: rect.bottom,
      width: rect.width,
      height: rect.height,
      side: ad.getAttribute('sticky'),
      rendered: !!ad.querySelector('.page-fake-ad'),
    };
  });

describe('auto ads anchor ad', () => {
  it('pins one ad to the bottom of the viewport and keeps it out of the in-content count', async () => {
    server.page('/anchor-bottom.html', articlePage({ autoAds: 'type="custom" data-config-url="/ads/anchor-bottom"' }));
    const { page } = await newPage(browser, { viewport: { width: 800, height: 600 } });
    await page.goto(server.origin + '/anchor-bottom.html');
    const [placed] = await waitForPlacement(page);
    await page.waitForSelector('page-ad[sticky] .page-fake-ad');
    expect(await stickyBox(page)).toEqual({
      top: 500,
      bottom: 600,
      width: 800,
      height: 100,
      side: 'bottom',
      rendered: true,
    });
    const { ads } = await measureAds(page);
    expect(placed?.totalAdsOnPage).toBe(ads.length);
    await page.evaluate(() => window.scrollTo(0, 3000));
    expect((await stickyBox(page)).bottom).toBe(600);
    expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBe(0);
  });

  it('pins it to the top with sticky="top", also without placements', async () => {
    server.page('/anchor-top.html', articlePage({ autoAds: 'type="custom" data-config-url="/ads/anchor-top"' }));
    const { page } = await newPage(browser, { viewport: { width: 800, height: 600 } });
    await page.goto(server.origin + '/anchor-top.html');
    await page.waitForSelector('page-ad[sticky] .page-fake-ad');
    expect(await stickyBox(page)).toEqual({ top: 0, bottom: 60, width: 800, height: 60, side: 'top', rendered: true });
    expect(await page.$$('article page-ad:not(#manual-ad)')).toHaveLength(0);
  });
});
