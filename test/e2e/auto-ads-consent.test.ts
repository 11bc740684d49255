import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CDN_ROOT, launchBrowser, newPage, startServer, type TestServer } from './harness.ts';
import { ARTICLE, articlePage, CONFIG, IMAGE_ROUTES, waitForPlacement } from './fixtures/auto-ads/pages.ts';

const hasConsent = existsSync(`${CDN_ROOT}/v0/page-consent-0.1.js`);

/** A client-only consent setup whose prompt has accept and reject buttons. */
const CONSENT = `<page-consent id="consent" layout="nodisplay">
  <script type="application/json">{"consentInstanceId": "auto-ads-test", "consentRequired": true, "promptUI": "prompt"}</script>
  <div id="prompt"><button id="accept" on="tap:consent.accept">Accept</button><button id="reject" on="tap:consent.reject">Reject</button></div>
</page-consent>`;

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({ ...IMAGE_ROUTES, '/ads/consent-config': { body: CONFIG } });
  server.page(
    '/consent.html',
    articlePage({
      autoAds: 'type="custom" data-config-url="/ads/consent-config" data-block-on-consent',
      body: CONSENT + ARTICLE,
      extensions: ['page-auto-ads', 'page-consent'],
    }),
  );
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const configRequests = () => server.requestsTo('/ads/consent-config').length;

describe.skipIf(!hasConsent)('auto ads behind consent', () => {
  it('fetches nothing and places nothing until the user accepts', async () => {
    const before = configRequests();
    const { page } = await newPage(browser);
    await page.goto(server.origin + '/consent.html');
    await page.waitForSelector('#accept', { state: 'visible' });
    await page.waitForTimeout(800);
    expect(configRequests()).toBe(before);
    expect(await page.$$('article page-ad:not(#manual-ad)')).toHaveLength(0);
    await page.click('#accept');
    const [placed] = await waitForPlacement(page);
    expect(placed?.adsPlaced).toBeGreaterThan(0);
    expect(configRequests()).toBe(before + 1);
  });

  it('never fetches the config when the user rejects', async () => {
    const before = configRequests();
    const { page } = await newPage(browser);
    await page.goto(server.origin + '/consent.html');
    await page.click('#reject');
    await page.waitForTimeout(800);
    expect(configRequests()).toBe(before);
    expect(await page.$$('article page-ad:not(#manual-ad)')).toHaveLength(0);
  });
});
