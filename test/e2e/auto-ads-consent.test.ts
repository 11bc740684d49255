import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CDN_ROOT, launchBrowser, newPage, settled, startServer, type TestServer } from './harness.ts';
import { ARTICLE, articlePage, CONFIG, IMAGE_ROUTES, waitForPlacement } from './fixtures/auto-ads/pages.ts';

const CONSENT_BUNDLE = `${CDN_ROOT}/v0/page-consent-0.1.js`;

/** A client-only consent setup whose prompt has accept and reject buttons. */
const CONSENT = `<page-consent id="consent" layout="nodisplay">
  <script type="application/json">{"consentInstanceId": "auto-ads-test", "consentRequired": true, "promptUI": "prompt"}</script>
  <div id="prompt"><button id="accept" on="tap:consent.accept">Accept</button><button id="reject" on="tap:consent.reject">Reject</button></div>
</page-consent>`;

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  // These tests need the consent bundle: without it they fail here, never skip.
  if (!existsSync(CONSENT_BUNDLE)) throw new Error(`${CONSENT_BUNDLE} is missing: run node scripts/build.mjs`);
  browser = await launchBrowser();
  // The runtime's macros are written `${NAME}` in ad URLs.
  const macro = (name: string) => '$' + `{${name}}`;
  const creative = { type: 'custom', 'data-src': `/creative?gdpr=${macro('GDPR')}&state=${macro('CONSENT_STATE')}` };
  server = await startServer({
    ...IMAGE_ROUTES,
    '/ads/consent-config': { body: CONFIG },
    '/ads/macro-config': { body: { ...CONFIG, attributes: creative } },
    '/creative': { body: '<p>ad</p>' },
  });
  server.page(
    '/consent-macros.html',
    articlePage({
      autoAds: 'type="custom" data-config-url="/ads/macro-config" data-block-on-consent',
      body: CONSENT + ARTICLE,
      extensions: ['page-auto-ads', 'page-consent'],
    }),
  );
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

describe('auto ads behind consent', () => {
  it('fetches nothing and places nothing until the user accepts', async () => {
    const before = configRequests();
    const { page } = await newPage(browser);
    await page.goto(server.origin + '/consent.html');
    await page.waitForSelector('#accept', { state: 'visible' });
    await settled(page);
    expect(configRequests()).toBe(before);
    expect(await page.$$('article page-ad:not(#manual-ad)')).toHaveLength(0);
    await page.click('#accept');
    const [placed] = await waitForPlacement(page);
    expect(placed?.adsPlaced).toBeGreaterThan(0);
    expect(configRequests()).toBe(before + 1);
  });

  it('gives inserted custom ads the consent macros in their creative URL', async () => {
    const { page } = await newPage(browser);
    await page.goto(server.origin + '/consent-macros.html');
    await page.click('#accept');
    await waitForPlacement(page);
    await page.waitForFunction(() => document.querySelector('article page-ad:not(#manual-ad) iframe'));
    const src = await page.$eval(
      'article page-ad:not(#manual-ad) iframe',
      (frame) => new URL((frame as HTMLIFrameElement).src).search,
    );
    expect(src).toBe('?gdpr=1&state=accepted');
  });

  it('places no more ads after the user withdraws consent', async () => {
    const { page } = await newPage(browser);
    await page.goto(server.origin + '/consent.html');
    await page.click('#accept');
    await waitForPlacement(page);
    const count = () => page.$$eval('page-ad', (ads) => ads.length);
    const placed = await count();
    await page.evaluate(() =>
      document.body.insertAdjacentHTML('afterbegin', '<button id="again" on="tap:consent.prompt">Privacy</button>'),
    );
    await page.click('#again');
    await page.click('#reject');
    const more = Array.from(
      { length: 60 },
      (_, i) =>
        `<p>Late paragraph ${i}: the council heard again from residents about lighting, bus routes and the old rail bridge.</p>`,
    ).join('');
    await page.evaluate((html) => document.querySelector('article')!.insertAdjacentHTML('beforeend', html), more);
    await settled(page);
    expect(await count()).toBe(placed);
  });

  it('never fetches the config when the user rejects', async () => {
    const before = configRequests();
    const { page } = await newPage(browser);
    await page.goto(server.origin + '/consent.html');
    await page.click('#reject');
    await settled(page);
    expect(configRequests()).toBe(before);
    expect(await page.$$('article page-ad:not(#manual-ad)')).toHaveLength(0);
  });
});
