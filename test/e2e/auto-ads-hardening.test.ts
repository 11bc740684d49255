/**
 * A remote auto-ads config never weakens the page's consent policy nor reaches into the page
 * (docs/auto-ads.md, "Config format"): its consent markers and script URLs are dropped, with diagnostics.
 */
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTICLE, articlePage, CONFIG, IMAGE_ROUTES, waitForPlacement } from './fixtures/auto-ads/pages.ts';
import {
  CDN_ROOT,
  type ConsoleLine,
  launchBrowser,
  newPage,
  settled,
  startServer,
  type TestServer,
} from './harness.ts';

const CONSENT_BUNDLE = `${CDN_ROOT}/v0/page-consent-0.1.js`;

const CONSENT = `<page-consent id="consent" layout="nodisplay">
  <script type="application/json">{"consentInstanceId": "auto-ads-hardening", "consentRequired": true, "promptUI": "prompt"}</script>
  <div id="prompt"><button id="accept" on="tap:consent.accept">Accept</button><button id="reject" on="tap:consent.reject">Reject</button></div>
</page-consent>`;
const META = '<meta name="page-consent-blocking" content="page-ad">';
/** Marks the page when a payload runs. */
const PROBE = '<script>window.__ran = [];</script>';

const weakening = { type: 'custom', 'data-src': '/creative?weak', 'data-block-on-consent': '_till_responded' };
const scripted = (src: string) => ({
  ...CONFIG,
  attributes: { type: 'custom', 'data-src': src },
  optInStatus: [2],
  stickyAdAttributes: { 'data-src': src },
});
const JAVASCRIPT = "javascript:window.top.__ran.push('js')";
const DATA = "data:text/html,<script>parent.__ran.push('data')</script>";

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  // These tests need the consent bundle: without it they fail here, never skip.
  if (!existsSync(CONSENT_BUNDLE)) throw new Error(`${CONSENT_BUNDLE} is missing: run node scripts/build.mjs`);
  browser = await launchBrowser();
  server = await startServer({
    ...IMAGE_ROUTES,
    '/ads/weakening': { body: { ...CONFIG, attributes: weakening, optInStatus: [2], stickyAdAttributes: weakening } },
    '/ads/javascript': { body: scripted(JAVASCRIPT) },
    '/ads/data': { body: scripted(DATA) },
    '/creative': { body: '<p>ad</p>' },
  });
  server.page(
    '/weakening.html',
    articlePage({
      autoAds: 'type="custom" data-config-url="/ads/weakening"',
      body: CONSENT + ARTICLE,
      head: META,
      extensions: ['page-auto-ads', 'page-consent'],
    }),
  );
  for (const name of ['javascript', 'data']) {
    server.page(`/${name}.html`, articlePage({ autoAds: `type="custom" data-config-url="/ads/${name}"`, head: PROBE }));
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const lines = (messages: ConsoleLine[], code: string) =>
  messages.filter((m) => m.text.includes(` ${code}: `)).map((m) => m.text);

describe('auto ads: a config cannot weaken consent', () => {
  it('builds no inserted ad and requests nothing after the user rejects, despite a config _till_responded', async () => {
    const { page, messages } = await newPage(browser);
    await page.goto(server.origin + '/weakening.html');
    const [placed] = await waitForPlacement(page);
    expect(placed?.adsPlaced).toBeGreaterThan(0);
    await page.click('#reject');
    await settled(page);
    const inserted = await page.$$eval('page-ad:not(#manual-ad)', (ads) =>
      ads.map((ad) => [ad.getAttribute('data-block-on-consent'), ad.classList.contains('page-built')]),
    );
    expect(inserted.length).toBeGreaterThan(1);
    expect(inserted.every(([marker, isBuilt]) => marker === null && !isBuilt)).toBe(true);
    expect(await page.$$('page-ad iframe')).toHaveLength(0);
    expect(server.requestsTo('/creative')).toEqual([]);
    expect(lines(messages, 'auto-ads-consent-attribute-dropped')).toEqual([
      '[page-auto-ads] auto-ads-consent-attribute-dropped: expected attributes.data-block-on-consent: no consent marker (the page sets them), got "data-block-on-consent"',
      '[page-auto-ads] auto-ads-consent-attribute-dropped: expected stickyAdAttributes.data-block-on-consent: no consent marker (the page sets them), got "data-block-on-consent"',
    ]);
  });

  it('builds the inserted ads once the user accepts', async () => {
    const { page } = await newPage(browser);
    await page.goto(server.origin + '/weakening.html');
    await waitForPlacement(page);
    await page.click('#accept');
    await page.waitForFunction(() => document.querySelector('page-ad:not(#manual-ad) iframe'));
    // The frame is in the document before its request reaches the test server.
    await expect.poll(() => server.requestsTo('/creative').length).toBeGreaterThan(0);
  });
});

describe('auto ads: config URLs follow the URL rule', () => {
  it.each([
    ['javascript:', 'javascript', JAVASCRIPT],
    ['data:', 'data', DATA],
  ])('creates no frame for a %s data-src, logs auto-ads-url-refused and runs nothing', async (_name, path, src) => {
    const { page, messages, errors } = await newPage(browser);
    await page.goto(`${server.origin}/${path}.html`);
    const [placed] = await waitForPlacement(page);
    expect(placed?.adsPlaced).toBeGreaterThan(0);
    await settled(page);
    expect(await page.$$('iframe')).toHaveLength(0);
    expect(lines(messages, 'auto-ads-url-refused')).toEqual([
      `[page-auto-ads] auto-ads-url-refused: expected attributes.data-src: an http(s) or relative URL, got "${src.length > 60 ? `${src.slice(0, 57)}...` : src}"`,
      `[page-auto-ads] auto-ads-url-refused: expected stickyAdAttributes.data-src: an http(s) or relative URL, got "${src.length > 60 ? `${src.slice(0, 57)}...` : src}"`,
    ]);
    expect(
      await page.$$eval('page-ad:not(#manual-ad)', (ads) => ads.filter((ad) => ad.hasAttribute('data-src')).length),
    ).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __ran: string[] }).__ran)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
