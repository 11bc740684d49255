import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, startServer, type TestServer } from './harness.ts';
import { articlePage, IMAGE_ROUTES, waitForPlacement } from './fixtures/auto-ads/pages.ts';

let browser: Browser;
let server: TestServer;

const text =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. '.repeat(
    2,
  );
const paragraphs = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => `<p id="${prefix}${i}">${text}</p>`).join('');
/** Far more ads than the page can take: tiny spacing, a high count. */
const GREEDY = {
  placements: [{ anchor: { selector: 'main p', all: true }, pos: 4, type: 1 }],
  attributes: { type: 'fake' },
  adConstraints: { initialMinSpacing: '10px', maxAdCount: 100 },
};

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({
    ...IMAGE_ROUTES,
    '/ads/greedy': { body: GREEDY },
    '/ads/anchor': {
      body: { placements: [], optInStatus: [2], attributes: { type: 'fake' }, stickyAdAttributes: { height: 400 } },
    },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(path: string, body: string, config: string, viewport: { width: number; height: number }) {
  server.page(path, articlePage({ autoAds: `type="custom" data-config-url="${config}"`, body }));
  const test = await newPage(browser, { viewport });
  await test.page.goto(server.origin + path);
  return test;
}

/** In-content ad heights and the main content's height. */
const densityOf = (page: Page) =>
  page.evaluate(() => ({
    ads: [...document.querySelectorAll('page-ad:not([sticky])')].reduce(
      (sum, ad) => sum + ad.getBoundingClientRect().height,
      0,
    ),
    main: document.querySelector('main')!.getBoundingClientRect().height,
  }));

describe('auto ads in the wild', () => {
  it('places nothing in or next to anchors under data-no-auto-ads', async () => {
    const body = `<main>${paragraphs(6, 'a')}<section data-no-auto-ads>${paragraphs(30, 'x')}</section>${paragraphs(30, 'b')}</main>`;
    const { page } = await open('/excluded.html', body, '/ads/greedy', { width: 1024, height: 600 });
    await waitForPlacement(page);
    const previous = await page.$$eval('page-ad', (ads) => ads.map((ad) => ad.previousElementSibling?.id ?? ''));
    expect(previous.length).toBeGreaterThan(0);
    expect(previous.filter((id) => id.startsWith('x'))).toEqual([]);
    expect(await page.$$('[data-no-auto-ads] page-ad')).toHaveLength(0);
    expect(previous.some((id) => id.startsWith('b'))).toBe(true);
  });

  it('keeps in-content ads within 30% of the main content on a 375 px wide screen, and says why it skipped', async () => {
    const { page } = await open('/density.html', `<main>${paragraphs(80, 'p')}</main>`, '/ads/greedy', {
      width: 375,
      height: 667,
    });
    const [placed] = await waitForPlacement(page);
    const { ads, main } = await densityOf(page);
    expect(ads).toBeGreaterThan(0);
    expect(ads).toBeLessThanOrEqual(0.3 * main);
    expect((placed as { skipped?: Record<string, number> }).skipped?.density).toBeGreaterThan(0);
  });

  it('goes beyond 30% on a wide screen with the same config', async () => {
    const { page } = await open('/density-wide.html', `<main>${paragraphs(80, 'p')}</main>`, '/ads/greedy', {
      width: 1024,
      height: 667,
    });
    const [placed] = await waitForPlacement(page);
    const { ads, main } = await densityOf(page);
    expect(ads).toBeGreaterThan(0.3 * main);
    expect((placed as { skipped?: Record<string, number> }).skipped?.density).toBeUndefined();
  });

  it('keeps the anchor ad within 30% of the viewport height', async () => {
    const { page } = await open('/anchor-tall.html', `<main>${paragraphs(10, 'p')}</main>`, '/ads/anchor', {
      width: 800,
      height: 600,
    });
    await page.waitForSelector('page-ad[sticky] .page-fake-ad');
    const box = await page.$eval('page-ad[sticky]', (ad) => ad.getBoundingClientRect().toJSON());
    expect(box.height).toBe(180);
    expect(box.bottom).toBe(600);
  });

  it('closes the anchor ad with its button, reached and pressed by keyboard', async () => {
    const { page } = await open(
      '/anchor-close.html',
      `<main><a href="#top">top</a>${paragraphs(10, 'p')}</main>`,
      '/ads/anchor',
      { width: 800, height: 600 },
    );
    await page.waitForSelector('page-ad[sticky] .page-fake-ad');
    const isCloseFocused = () =>
      page.evaluate(() => document.activeElement?.matches('page-ad[sticky] button[aria-label="Close ad"]') ?? false);
    for (let presses = 0; presses < 10 && !(await isCloseFocused()); presses++) await page.keyboard.press('Tab');
    expect(await isCloseFocused()).toBe(true);
    expect(await page.evaluate(() => document.activeElement!.getBoundingClientRect().bottom <= innerHeight)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.$$('page-ad[sticky]')).toHaveLength(0);
  });
});
