import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, startServer, type TestServer } from './harness.ts';
import { articlePage, IMAGE_ROUTES } from './fixtures/auto-ads/pages.ts';

let browser: Browser;
let server: TestServer;

/** A centred main column 680 px wide: margins of about (width - 680) / 2 beside it. */
const BODY = `<style>main{max-width:680px;margin:0 auto}</style><main><h1>Story</h1>
  ${'<p>Text of the story, long enough to fill the column and scroll the page.</p>'.repeat(60)}</main>`;

/** Room for more in-content ads than maxAdCount allows, a viewport apart. */
const LONG = BODY.replace(
  '</main>',
  `${'<p>More of the story, paragraph after paragraph, down the page.</p>'.repeat(240)}</main>`,
);

beforeAll(async () => {
  browser = await launchBrowser();
  const rails = (patch: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
    body: { placements: [{ type: 'sideRail', ...patch }], attributes: { type: 'fake' }, ...extra },
  });
  server = await startServer({
    ...IMAGE_ROUTES,
    '/ads/rails': rails(),
    '/ads/one-ad': rails({}, { adConstraints: { initialMinSpacing: '1vp', maxAdCount: 1 } }),
    // In-content ads and rails decided in the same frame: together no more than maxAdCount.
    '/ads/three-ads': {
      body: {
        placements: [{ anchor: { selector: 'main > p', all: true }, pos: 4, type: 1 }, { type: 'sideRail' }],
        attributes: { type: 'fake' },
        adConstraints: { initialMinSpacing: '1vp', maxAdCount: 3 },
      },
    },
  });
  for (const config of ['rails', 'one-ad', 'three-ads'])
    server.page(
      `/${config}.html`,
      articlePage({
        autoAds: `type="custom" data-config-url="/ads/${config}"`,
        body: config === 'three-ads' ? LONG : BODY,
      }),
    );
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Waits for the part, then for the rails' first measure and mutate (two frames). */
async function load(page: Page, path: string) {
  await page.goto(server.origin + path);
  await page.waitForFunction(() => 'page-auto-ads-side-rail' in ((self as { PAGE_PARTS?: object }).PAGE_PARTS ?? {}));
  await frames(page);
}

const frames = (page: Page) =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

const railsOf = (page: Page) =>
  page.evaluate(() => {
    const main = document.querySelector('main')!.getBoundingClientRect();
    return {
      rails: [...document.querySelectorAll('page-ad[data-side-rail]')].map((ad) => {
        const rect = ad.getBoundingClientRect();
        return {
          side: ad.getAttribute('data-side-rail'),
          width: rect.width,
          height: rect.height,
          coversMain: rect.right > main.left && rect.left < main.right,
          inViewport: rect.top >= 0 && rect.bottom <= innerHeight && rect.left >= 0 && rect.right <= innerWidth,
        };
      }),
      cls: (window as unknown as { __cls: number }).__cls,
    };
  });

const rail = (side: string, width: number) => ({ side, width, height: 600, coversMain: false, inViewport: true });

describe('auto ads side rails', () => {
  it.each([
    [1440, [rail('left', 300), rail('right', 300)]],
    [1200, [rail('left', 160), rail('right', 160)]],
    [1024, []],
    [375, []],
  ])('at %i px places the rails that fit beside the content, without layout shift', async (width, expected) => {
    const { page } = await newPage(browser, { viewport: { width, height: 800 } });
    await load(page, '/rails.html');
    expect(await railsOf(page)).toEqual({ rails: expected, cls: 0 });
  });

  it('shows none on a viewport lower than 650 px', async () => {
    const { page } = await newPage(browser, { viewport: { width: 1440, height: 600 } });
    await load(page, '/rails.html');
    expect((await railsOf(page)).rails).toEqual([]);
  });

  it('removes the rails when the window narrows and brings them back when it widens', async () => {
    const { page } = await newPage(browser, { viewport: { width: 1440, height: 800 } });
    await load(page, '/rails.html');
    expect((await railsOf(page)).rails).toHaveLength(2);
    await page.setViewportSize({ width: 1100, height: 800 });
    await page.waitForFunction(() => !document.querySelector('page-ad[data-side-rail]'));
    await page.setViewportSize({ width: 1440, height: 800 });
    await page.waitForFunction(() => document.querySelectorAll('page-ad[data-side-rail]').length === 2);
    expect((await railsOf(page)).cls).toBe(0);
  });

  it('closes a rail for the page view with its button', async () => {
    const { page } = await newPage(browser, { viewport: { width: 1440, height: 800 } });
    await load(page, '/rails.html');
    await page.click('page-ad[data-side-rail="left"] button[aria-label="Close ad"]');
    await page.setViewportSize({ width: 1441, height: 800 });
    await frames(page);
    expect((await railsOf(page)).rails.map((r) => r.side)).toEqual(['right']);
  });

  it('places in-content ads and rails decided in one frame within maxAdCount, and counts them all', async () => {
    const { page } = await newPage(browser, { viewport: { width: 1440, height: 800 } });
    await page.addInitScript(() =>
      document.addEventListener(
        'ads-placed',
        (event) => ((window as never as { placed: unknown }).placed = (event as CustomEvent).detail),
      ),
    );
    await load(page, '/three-ads.html');
    await page.waitForFunction(() => (window as never as { placed?: unknown }).placed !== undefined);
    await frames(page);
    const { total, placed } = await page.evaluate(() => ({
      total: document.querySelectorAll('page-ad:not([sticky])').length,
      placed: (window as never as { placed: { adsPlaced: number; totalAdsOnPage: number } }).placed,
    }));
    expect({ total, placed }).toMatchObject({ total: 3 });
    expect(placed.totalAdsOnPage).toBe(placed.adsPlaced + (await railsOf(page)).rails.length);
  });

  it('counts the rails toward maxAdCount', async () => {
    const { page } = await newPage(browser, { viewport: { width: 1440, height: 800 } });
    await load(page, '/one-ad.html');
    // The part's arrival is not the placement: on a busy machine the rail comes a frame or more later.
    await page.waitForSelector('page-ad[data-side-rail]');
    await frames(page);
    expect((await railsOf(page)).rails.map((r) => r.side)).toEqual(['left']);
  });
});
