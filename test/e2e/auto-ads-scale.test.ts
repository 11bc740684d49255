import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, startServer, type TestServer } from './harness.ts';
import {
  articlePage,
  CONFIG,
  defaultSpacing,
  measureAds,
  spacingViolations,
  waitForPlacement,
} from './fixtures/auto-ads/pages.ts';

const PARAGRAPHS = 5000;
const paragraph = (i: number) =>
  `<p>Paragraph ${i} of a very long page: the council, the cycle path, the bridge and the budget, again.</p>`;

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  browser = await launchBrowser();
  const config = { ...CONFIG, placements: [{ anchor: { selector: 'article > p', all: true }, pos: 4, type: 1 }] };
  server = await startServer({ '/ads/long-config': { body: config }, '/favicon.ico': { status: 204 } });
  const body = `<main><article>${Array.from({ length: PARAGRAPHS }, (_, i) => paragraph(i)).join('')}</article></main>`;
  server.page('/long.html', articlePage({ autoAds: 'type="custom" data-config-url="/ads/long-config"', body }));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('auto ads on a long page', () => {
  it(`finishes placement among ${PARAGRAPHS} paragraphs`, async () => {
    // How fast, and how long its tasks are: `npm run bench -- auto-ads` (10,000 blocks).
    const { page } = await newPage(browser);
    await page.goto(`${server.origin}/long.html`);
    const [placed] = await waitForPlacement(page);
    const { ads, viewportHeight } = await measureAds(page);
    expect(placed).toEqual({ adsPlaced: 8, totalAdsOnPage: 8 });
    expect(ads).toHaveLength(8);
    expect(spacingViolations(ads, (count) => defaultSpacing(count, viewportHeight))).toEqual([]);
  });
});
