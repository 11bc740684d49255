/**
 * The return-visit fast path: a cached decision starts the blocked scripts it allows before
 * `v0.js` has run (served here late), from the inline copy `page-consent-fast-0.1.js` (the
 * consent extension leaves the return visit to v0.js's return record); anything it cannot
 * decide for every geo group waits for the components, and nothing runs twice.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { CDN_ROOT, launchBrowser, newPage, settled, startServer, type TestServer } from './harness.ts';

const DAY_MS = 86_400_000;

let browser: Browser;
let server: TestServer;
/** The `/slow/` scripts answer once the test has read what ran before them (`earlyThenLate`). */
let slowHeld = Promise.resolve();
let releaseSlow = () => {};

const cdn = (path: string) =>
  readFileSync(`${CDN_ROOT}/${path}`, 'utf8').replace(/\n\/\/# sourceMappingURL=.*\n?$/, '');
const script = { headers: { 'content-type': 'text/javascript' } };

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({
    '/slow/v0.js': () => slowHeld.then(() => ({ ...script, body: cdn('v0.js') })),
    '/slow/v0/page-consent-0.1.js': () => slowHeld.then(() => ({ ...script, body: cdn('v0/page-consent-0.1.js') })),
    '/fast/v0/page-consent-0.1.js': { ...script, body: cdn('v0/page-consent-0.1.js') },
    '/fast/v0.js': { ...script, body: cdn('v0.js') },
    '/late/v0/page-consent-0.1.js': { ...script, body: cdn('v0/page-consent-0.1.js'), delay: 800 },
    '/third.js': { ...script, body: 'window.third = (window.third || 0) + 1;' },
    '/blank.html': { body: '<!doctype html><title>blank</title>' },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

type PageOptions = {
  readonly config?: object;
  readonly inline?: boolean;
  readonly consentScript?: 'fast' | 'slow';
  readonly visit?: number;
};

/** A page with slow `v0.js`; the consent extension fast or slow; the fast path inlined or not. */
function fastPage({
  config = { consentInstanceId: 'site', consentRequired: true, promptUI: 'prompt' },
  inline = false,
  consentScript = 'fast',
  visit = 0,
}: PageOptions) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>fast path</title>
<script async src="/slow/v0.js"></script>
<script async custom-element="page-consent" src="/${consentScript}/v0/page-consent-0.1.js"></script>
</head><body>
<page-consent id="consent" layout="nodisplay"><script type="application/json">${JSON.stringify(config)}</script>
<div id="prompt" hidden><button on="tap:consent.accept">Accept</button></div></page-consent>
${inline ? `<script>${cdn('v0/page-consent-fast-0.1.js')}</script>` : ''}
<p>Article text.</p>
<script type="text/plain" data-block-on-consent>window.runs = (window.runs || []).concat('default');</script>
<script type="text/plain" data-block-on-consent="_till_responded">window.runs = (window.runs || []).concat('responded');</script>
<script type="text/plain" data-block-on-consent-purposes="ads">window.runs = (window.runs || []).concat('ads');</script>
<script type="text/plain" data-block-on-consent src="/third.js?${visit}"></script>
</body></html>`;
}

/** Stores `decision` for instance `site` in the site store's format, on `page`'s current origin. */
const storeDecision = (page: Page, decision: object) =>
  page.evaluate(
    (values) => {
      const bytes = new TextEncoder().encode(JSON.stringify({ version: 1, values }));
      localStorage.setItem(`page-store:${location.hostname}`, btoa(String.fromCharCode(...bytes)));
    },
    { 'consent:site': decision },
  );

let count = 0;
/** Stores `decision` for instance `site` (the site store's format), then opens a page. */
async function returnVisit(decision: object | null, options: PageOptions = {}) {
  const visit = ++count;
  const path = `/fast-${visit}.html`;
  server.page(path, fastPage({ ...options, visit }));
  const test = await newPage(browser);
  slowHeld = new Promise((resolve) => (releaseSlow = resolve));
  onTestFinished(() => releaseSlow());
  await test.page.goto(`${server.origin}/blank.html`);
  if (decision) await storeDecision(test.page, decision);
  await test.page.goto(`${server.origin}${path}`, { waitUntil: 'domcontentloaded' });
  return {
    ...test,
    thirdRequests: () => server.requests.filter((request) => request.url === `/third.js?${visit}`).length,
  };
}

const accepted = (extra: object = {}) => ({ version: 2, state: 'accepted', time: Date.now(), ...extra });
const state = (page: Page) =>
  page.evaluate(() => ({
    runs: (window as never as { runs?: string[] }).runs ?? [],
    third: (window as never as { third?: number }).third ?? 0,
    isRuntimeLoaded: !!document.querySelector('page-consent.page-built'),
  }));

/** What ran before `v0.js` arrived (the page settled while the `/slow/` scripts are held), then what ran once everything loaded. */
async function earlyThenLate(page: Page) {
  await settled(page, { ignore: ['/slow/'] });
  const early = await state(page);
  releaseSlow();
  await page.waitForSelector('page-consent.page-built', { state: 'attached', timeout: 10_000 });
  await settled(page);
  return { early, late: await state(page) };
}

describe('return-visit fast path', () => {
  it('is not run by the consent extension: without the inline copy nothing starts before v0.js, then each allowed script once', async () => {
    const { page, thirdRequests } = await returnVisit(accepted({ purposeConsents: { ads: true } }));
    const { early, late } = await earlyThenLate(page);
    expect(early).toEqual({ runs: [], third: 0, isRuntimeLoaded: false });
    expect(late).toEqual({ runs: ['default', 'responded', 'ads'], third: 1, isRuntimeLoaded: true });
    expect(thirdRequests()).toBe(1);
  });

  it('does the same from the inline copy while every script is still on its way', async () => {
    const { page } = await returnVisit(accepted(), { inline: true, consentScript: 'slow' });
    const { early, late } = await earlyThenLate(page);
    expect(early).toEqual({ runs: ['default', 'responded'], third: 1, isRuntimeLoaded: false });
    // The purpose was never accepted: the components keep it blocked too.
    expect(late.runs).toEqual(['default', 'responded']);
    expect(late.third).toBe(1);
  });

  it('starts only the any-answer scripts for a rejected decision', async () => {
    const { page, thirdRequests } = await returnVisit(
      { version: 2, state: 'rejected', time: Date.now() },
      { inline: true, consentScript: 'slow' },
    );
    const { early, late } = await earlyThenLate(page);
    expect(early).toEqual({ runs: ['responded'], third: 0, isRuntimeLoaded: false });
    expect(late).toMatchObject({ runs: ['responded'], third: 0 });
    expect(thirdRequests()).toBe(0);
  });

  it('waits for the components without a decision, and when any geo group would see it expired', async () => {
    const geo = {
      consentInstanceId: 'site',
      consentRequired: true,
      promptUI: 'prompt',
      geoOverride: { eea: { consentLifetimeDays: 30 } },
    };
    const old = await returnVisit(accepted({ time: Date.now() - 60 * DAY_MS }), {
      config: geo,
      inline: true,
      consentScript: 'slow',
    });
    const expired = await earlyThenLate(old.page);
    expect(expired.early).toEqual({ runs: [], third: 0, isRuntimeLoaded: false });
    // Without <page-geo> the components use the base lifetime (390 days): the decision stands.
    expect(expired.late).toMatchObject({ runs: ['default', 'responded'], third: 1 });
    const none = await returnVisit(null, { inline: true, consentScript: 'slow' });
    const undecided = await earlyThenLate(none.page);
    expect(undecided.early).toEqual({ runs: [], third: 0, isRuntimeLoaded: false });
    expect(undecided.late).toMatchObject({ runs: [], third: 0 });
  });

  it('starts nothing for a config the components refuse', async () => {
    const { page, thirdRequests } = await returnVisit(accepted(), {
      config: { consentInstanceId: 'site', promptUI: 'prompt' },
      inline: true,
      consentScript: 'slow',
    });
    const { early, late } = await earlyThenLate(page);
    expect(early.runs).toEqual([]);
    expect(late).toMatchObject({ runs: [], third: 0 });
    expect(thirdRequests()).toBe(0);
  });

  it('leaves a Consent Mode page to the element, so the default reaches dataLayer before any script', async () => {
    const config = {
      consentInstanceId: 'site',
      consentRequired: true,
      promptUI: 'prompt',
      consentModeMapping: { ad_storage: 'consent' },
    };
    const { page } = await returnVisit(accepted(), { config, inline: true, consentScript: 'slow' });
    const { early, late } = await earlyThenLate(page);
    expect(early).toEqual({ runs: [], third: 0, isRuntimeLoaded: false });
    expect(late).toMatchObject({ runs: ['default', 'responded'], third: 1 });
    // The element sent the default first, then the update; the scripts ran after both.
    const calls = await page.evaluate(() =>
      (window as never as { dataLayer: ArrayLike<unknown>[] }).dataLayer.map((call) =>
        Array.from(call).slice(0, 2).join(' '),
      ),
    );
    expect(calls.slice(0, 2)).toEqual(['consent default', 'consent update']);
  });

  it('starts the first script from the return record before any consent part is requested', async () => {
    const path = '/runtime-first.html';
    server.page(
      path,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>runtime first</title>
<script async src="/fast/v0.js"></script>
<script async custom-element="page-consent" src="/late/v0/page-consent-0.1.js"></script>
</head><body>
<page-consent id="consent" layout="nodisplay"><script type="application/json">{"consentInstanceId":"site","consentRequired":true,"promptUI":"prompt"}</script>
<div id="prompt" hidden></div></page-consent>
<script type="text/plain" data-block-on-consent>window.order = [!!window.PAGE_RUNTIME, !!customElements.get('page-consent'), performance.getEntriesByType('resource').some((entry) => entry.name.includes('/v0/page-consent-') && !entry.name.includes('/v0/page-consent-0.1.js'))];</script>
</body></html>`,
    );
    const { page } = await newPage(browser);
    await page.goto(`${server.origin}/blank.html`);
    await storeDecision(page, accepted());
    // A first page with the decision writes the return record (at idle); the next one replays it.
    await page.goto(`${server.origin}${path}`);
    await page.waitForFunction(() => Object.keys(localStorage).some((name) => name.startsWith('page-return:')));
    await page.goto(`${server.origin}${path}`);
    await page.waitForSelector('page-consent.page-built', { state: 'attached', timeout: 10_000 });
    // The runtime and the element were there, none of the element's parts: the script did not wait for its set-up.
    expect(await page.evaluate(() => (window as never as { order?: boolean[] }).order)).toEqual([true, true, false]);
  });

  it('waits for a script the parser has not finished (its text arriving in two parts)', async () => {
    const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>streamed</title></head><body>
<page-consent id="consent" layout="nodisplay"><script type="application/json">{"consentInstanceId":"site","consentRequired":true,"promptUI":"prompt"}</script>
<div id="prompt" hidden></div></page-consent>
<script>${cdn('v0/page-consent-fast-0.1.js')}</script>
<script type="text/plain" data-block-on-consent>window.parts = (window.parts || []).concat([['a'`;
    const tail = `, 'b']]);</script><p>After the script.</p></body></html>`;
    let sendTail = () => {};
    const streamer = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      if (request.url !== '/streamed.html') return response.end('<!doctype html><title>blank</title>');
      response.write(head + ' '.repeat(4096));
      // The tail waits for the test to have read the page mid-parse (or 10 s, should it fail first).
      const timer = setTimeout(() => response.end(tail), 10_000);
      sendTail = () => {
        clearTimeout(timer);
        response.end(tail);
      };
    });
    await new Promise<void>((resolve) => streamer.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(streamer.address() as AddressInfo).port}`;
    try {
      const { page } = await newPage(browser);
      await page.goto(`${origin}/blank.html`);
      await storeDecision(page, accepted());
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      // Counts storage reads: the inline copy reads nothing while no blocked script is parsed.
      await page.addInitScript(() => {
        const { getItem } = Storage.prototype;
        Storage.prototype.getItem = function (this: Storage, key: string) {
          (window as never as { reads: number }).reads = ((window as never as { reads?: number }).reads ?? 0) + 1;
          return getItem.call(this, key);
        };
      });
      await page.goto(`${origin}/streamed.html`, { waitUntil: 'commit' });
      await page.waitForSelector('#prompt', { state: 'attached' });
      await page.waitForTimeout(200);
      // Read while the blocked script's text is still on its way (the tail is sent after this).
      const early = await page.evaluate(() => ({
        state: document.readyState,
        reads: (window as never as { reads?: number }).reads ?? 0,
      }));
      expect(early).toEqual({ state: 'loading', reads: 0 });
      sendTail();
      await page.waitForLoadState('load');
      await settled(page);
      expect(await page.evaluate(() => (window as never as { parts?: unknown }).parts ?? null)).toEqual([['a', 'b']]);
      expect(await page.evaluate(() => (window as never as { reads?: number }).reads ?? 0)).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    } finally {
      streamer.closeAllConnections();
      await new Promise((resolve) => streamer.close(resolve));
    }
  });
});
