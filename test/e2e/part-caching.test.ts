/**
 * Parts named after their content (docs/decisions/part-names.md) in Chromium, with our files
 * served by the reference server's CDN route (server/routes/cdn.ts): each part comes with a
 * year's immutable caching and each entry file with five minutes, and a return visit with a warm
 * cache requests none of our files.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app.ts';
import { cdnCacheControl, partCacheControl } from '../../server/routes/cdn.ts';
import { createMemoryStore } from '../../server/store/memory-store.ts';
import { CDN_ROOT, launchBrowser, newPage, readJson, settled, startServer, type TestServer } from './harness.ts';

let browser: Browser;
let server: TestServer;
let close = async () => {};
/** The Cache-Control the reference server sent, by path. */
const cacheControls = new Map<string, string>();

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({
    '/third-party.js': {
      body: 'window.thirdPartyRuns = (window.thirdPartyRuns || 0) + 1;',
      headers: { 'content-type': 'text/javascript' },
    },
  });
  const app = createApp({
    store: createMemoryStore(),
    allowedOrigins: [],
    adminToken: null,
    trustedCountryHeader: null,
    adsConfigDir: null,
    countryLookup: () => null,
    cdnRoot: CDN_ROOT,
  });
  await app.ready();
  close = () => app.close();
  const files = [
    'v0.js',
    ...readdirSync(join(CDN_ROOT, 'v0'))
      .filter((name) => name.endsWith('.js'))
      .map((name) => `v0/${name}`),
  ];
  for (const file of files) {
    server.route(`/${file}`, async (request) => {
      const ifNoneMatch = request.headers['if-none-match'];
      const response = await app.inject({
        url: request.path,
        headers: ifNoneMatch ? { 'if-none-match': String(ifNoneMatch) } : {},
      });
      const headers = Object.fromEntries(
        ['content-type', 'cache-control', 'etag'].flatMap((name) =>
          response.headers[name] ? [[name, String(response.headers[name])]] : [],
        ),
      );
      cacheControls.set(request.path, headers['cache-control'] ?? '');
      return { status: response.statusCode, body: response.body, headers };
    });
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await close();
});

const CONFIG = { consentInstanceId: 'part-caching', consentRequired: true, promptUI: 'prompt' };
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>part caching</title>
<script async src="/v0.js"></script>
<script async custom-element="page-consent" src="/v0/page-consent-0.1.js"></script>
</head><body><page-consent id="consent" layout="nodisplay"><script type="application/json">${JSON.stringify(CONFIG)}</script>
<div id="prompt" hidden><button id="accept" on="tap:consent.accept">Accept</button></div>
</page-consent><p>Text.</p>
<script type="text/plain" data-block-on-consent src="/third-party.js"></script></body></html>`;

const thirdPartyRuns = () => (window as unknown as { thirdPartyRuns?: number }).thirdPartyRuns === 1;

describe('parts named after their content', () => {
  it('are cached for a year and requested once: a return visit with a warm cache requests none of our files', async () => {
    server.page('/article.html', PAGE);
    const { page } = await newPage(browser);
    // A first visit decides; a second one loads what a return visit needs (the stored decision's parser).
    await page.goto(`${server.origin}/article.html`);
    await page.click('#accept');
    await page.waitForFunction(thirdPartyRuns);
    await page.waitForFunction(() => Object.keys(localStorage).some((name) => name.startsWith('page-return:')));
    await settled(page);
    await page.goto(`${server.origin}/article.html`);
    await page.waitForFunction(thirdPartyRuns);
    await settled(page);
    const { files } = readJson(join(CDN_ROOT, 'part-names.json')) as { files: Record<string, string> };
    const parts = new Set(Object.values(files).map((file) => `/${file}`));
    const requested = [...cacheControls.keys()];
    // The consent state part and the runtime's actions part at least (the Accept's click).
    for (const part of ['v0/page-consent-state.js', 'v0/page-runtime-actions.js'])
      expect(requested, part).toContain(`/${files[part]}`);
    for (const path of requested)
      expect(cacheControls.get(path), path).toBe(parts.has(path) ? partCacheControl : cdnCacheControl);

    const first = server.requests.length;
    await page.goto(`${server.origin}/article.html`);
    await page.waitForFunction(thirdPartyRuns);
    await settled(page);
    expect(server.requests.slice(first).map((request) => request.path)).toEqual(['/article.html', '/third-party.js']);
  });
});
