import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConsoleLine,
  launchBrowser,
  newPage,
  settled,
  startServer,
  type TestPage,
  type TestServer,
} from './harness.ts';
import { articlePage, CONFIG, IMAGE_ROUTES, waitForPlacement } from './fixtures/auto-ads/pages.ts';

let browser: Browser;
let server: TestServer;
/**
 * One page for the two diagnostic tables, navigated anew for each row: a row checks what one page
 * view logs and requests, not that nothing carries over from another.
 */
let shared: TestPage;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({
    ...IMAGE_ROUTES,
    '/ads/500': { status: 500, body: CONFIG },
    '/ads/empty': { body: '', headers: { 'content-type': 'application/json' } },
    '/ads/broken': { body: '{"placements": [', headers: { 'content-type': 'application/json' } },
  });
  shared = await newPage(browser);
});
afterAll(async () => {
  await shared?.context.close();
  await browser?.close();
  await server?.close();
});

const diagnostics = (messages: ConsoleLine[]) => messages.filter((m) => m.text.startsWith('[page-auto-ads'));

async function openAndSettle(path: string, autoAds: string) {
  server.page(path, articlePage({ autoAds }));
  const test = shared;
  test.messages.length = 0;
  test.errors.length = 0;
  await test.page.goto(server.origin + path);
  await test.page.waitForFunction(() => document.querySelector('page-auto-ads')?.classList.contains('page-built'));
  await settled(test.page);
  return test;
}

describe('auto ads failures', () => {
  it.each([
    ['a 500 answer', '/ads/500', 'auto-ads-config-fetch-failed: expected a 2xx answer from', 'got "HTTP 500"'],
    ['an empty body', '/ads/empty', 'auto-ads-config-invalid: expected a JSON object', 'got ""'],
    ['invalid JSON', '/ads/broken', 'auto-ads-config-invalid: expected a JSON object', 'got "{"placements": ["'],
    [
      'a refused connection',
      'https://127.0.0.1:1/ads',
      'auto-ads-config-fetch-failed: expected a 2xx answer from',
      'got "TypeError: Failed to fetch"',
    ],
  ])('logs one error for %s and places no ads', async (_name, url, start, end) => {
    const path = `/fail-${url.replace(/\W/g, '')}.html`;
    const { page, messages } = await openAndSettle(path, `type="custom" data-config-url="${url}"`);
    const lines = diagnostics(messages);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.type).toBe('error');
    expect(lines[0]?.text.startsWith(`[page-auto-ads] ${start}`)).toBe(true);
    expect(lines[0]?.text.endsWith(end)).toBe(true);
    expect(await page.$$('article page-ad:not(#manual-ad)')).toHaveLength(0);
  });

  it.each([
    [
      'no type',
      'data-config-url="/ads/config"',
      '[page-auto-ads] auto-ads-type-missing: expected type adsense|doubleclick|custom, got nothing',
    ],
    [
      'an unknown type',
      'type="alright"',
      '[page-auto-ads] auto-ads-type-unknown: expected type adsense|doubleclick|custom, got "alright"',
    ],
    [
      'adsense without data-ad-client',
      'type="adsense" id="aa"',
      '[page-auto-ads#aa] auto-ads-attribute-missing: expected a data-ad-client attribute for type adsense, got nothing',
    ],
    [
      'a cross-origin http config URL',
      `type="custom" data-config-url="http://localhost:1/c"`,
      '[page-auto-ads] auto-ads-config-url-invalid: expected an https or same-origin http(s) data-config-url, got "http://localhost:1/c"',
    ],
  ])('reports %s and requests nothing', async (_name, autoAds, line) => {
    const before = server.requests.length;
    const { messages } = await openAndSettle(`/markup-${before}.html`, autoAds);
    expect(diagnostics(messages).map((m) => m.text)).toEqual([line]);
    const paths = server.requests.slice(before).map((r) => r.path);
    expect(paths.filter((p) => p.startsWith('/ads'))).toEqual([]);
  });

  it('uses the adsense config URL and inserts ads of its network', async () => {
    const { page, messages } = await newPage(browser);
    const seen: string[] = [];
    await page.route('https://pagead2.googlesyndication.com/**', (route) => {
      seen.push(route.request().url());
      return route.fulfill({
        headers: { 'access-control-allow-origin': server.origin, 'content-type': 'application/json' },
        body: JSON.stringify({ ...CONFIG, attributes: { 'data-tag-origin': 'test' } }),
      });
    });
    server.page('/adsense.html', articlePage({ autoAds: 'type="adsense" data-ad-client="ca-pub-1234"' }));
    await page.goto(server.origin + '/adsense.html');
    await waitForPlacement(page);
    expect(seen.filter((url) => url.includes('/getconfig/'))).toEqual([
      `https://pagead2.googlesyndication.com/getconfig/ama?client=ca-pub-1234&plah=127.0.0.1&ama_t=amp&url=${encodeURIComponent(server.origin + '/adsense.html')}`,
    ]);
    // Besides the config, only AdSense's own script (once), for the slots that were laid out.
    expect(
      seen
        .filter((url) => !url.includes('/getconfig/'))
        .every((url) => url.includes('/pagead/js/adsbygoogle.js?client=ca-pub-1234')),
    ).toBe(true);
    const ad = await page.$eval('article page-ad:not(#manual-ad)', (element) => [
      element.getAttribute('type'),
      element.getAttribute('data-ad-client'),
      element.getAttribute('data-tag-origin'),
    ]);
    expect(ad).toEqual(['adsense', 'ca-pub-1234', 'test']);
    // The runtime's page-ad renders the adsense network (docs/decisions/page-ad-networks.md).
    expect(messages.some((m) => m.text.includes('unsupported-ad-type'))).toBe(false);
  });
});
