/**
 * The first screen (docs/decisions/first-screen-parts.md): what a first visit of a client-only
 * consent page (one inline prompt, one blocked script) requests of our files before its prompt
 * is visible, within the first-screen budget of size-budgets.json; the parts arrive only when
 * needed; a part that fails to load is one diagnostic and nothing unblocks; sized `page-*`
 * elements keep their boxes while their part is on its way (no layout shift).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdnCacheControl } from '../../server/routes/cdn.ts';
import {
  CDN_ROOT,
  launchBrowser,
  newPage,
  partPath,
  readJson,
  settled,
  startServer,
  type TestServer,
} from './harness.ts';

/** Brotli bytes (quality 11, as scripts/size.mjs) of a production CDN file. */
const brotliBytes = (file: string) =>
  brotliCompressSync(readFileSync(join(CDN_ROOT, file)), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

let browser: Browser;
let server: TestServer;

/** The files of the parts, named after their content in this build (docs/decisions/part-names.md). */
const PART = {
  actions: partPath('page-runtime-actions'),
  elements: partPath('page-runtime-elements'),
  viewport: partPath('page-runtime-viewport'),
  state: partPath('page-consent-state'),
  remote: partPath('page-consent-remote'),
  frame: partPath('page-consent-frame'),
  geo: partPath('page-consent-geo'),
};
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The line of a part that did not load: `[source] part-load-failed: expected the part to load, got "<origin><path>"`. */
const failedPart = (source: string, path: string, origin = '.*') =>
  new RegExp(`^\\[${escaped(source)}\\] part-load-failed: expected the part to load, got "${origin}${escaped(path)}"$`);

/** Resolves once the page's origin holds a return record entry (a `page-return:` item). */
const whenReturnEntry = (page: Page) =>
  page.waitForFunction(() => Object.keys(localStorage).some((name) => name.startsWith('page-return:')));

/** Removes the origin's return record entries: the stored decision stays, the next visit has no record. */
const dropReturnEntries = (page: Page) =>
  page.evaluate(() => {
    for (const name of Object.keys(localStorage)) if (name.startsWith('page-return:')) localStorage.removeItem(name);
  });

/** The consent parts the page requests from now on (every `/v0/page-consent-*` file but the core). */
function consentPartsRequested(page: Page): string[] {
  const parts: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/v0/page-consent-') && path !== '/v0/page-consent-0.1.js') parts.push(path);
  });
  return parts;
}

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({
    '/third-party.js': {
      body: 'window.thirdPartyRuns = (window.thirdPartyRuns || 0) + 1;',
      headers: { 'content-type': 'text/javascript' },
    },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const CONFIG = { consentInstanceId: 'first-screen', consentRequired: true, promptUI: 'prompt' };

/** The client-only consent page: one inline prompt, one blocked script. */
const CONSENT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>first screen</title>
<script async src="/v0.js"></script>
<script async custom-element="page-consent" src="/v0/page-consent-0.1.js"></script>
</head><body><page-consent id="consent" layout="nodisplay"><script type="application/json">${JSON.stringify(CONFIG)}</script>
<div id="prompt" hidden><p>We use cookies.</p><button id="accept" on="tap:consent.accept">Accept</button><button on="tap:consent.reject">Reject</button></div>
</page-consent><h1>An article</h1><p>Text.</p>
<script type="text/plain" data-block-on-consent src="/third-party.js"></script></body></html>`;

/** Calls `promptVisible()` in the first animation frame in which #prompt is visible. */
const PROBE = `(() => {
  const onFrame = () => {
    const prompt = document.getElementById('prompt');
    if (prompt?.checkVisibility()) return window.promptVisible(performance.getEntriesByType('resource').map((entry) => entry.name));
    requestAnimationFrame(onFrame);
  };
  requestAnimationFrame(onFrame);
})();`;

/** Paths of our CDN files requested before the prompt was visible. */
async function requestedBeforePrompt(page: Page, url: string): Promise<string[]> {
  const requested: string[] = [];
  let isVisible = false;
  page.on('request', (request) => isVisible || requested.push(request.url()));
  let resolve: (names: string[]) => void = () => {};
  const visible = new Promise<string[]>((done) => (resolve = done));
  await page.exposeFunction('promptVisible', (names: string[]) => {
    isVisible = true;
    resolve(names);
  });
  await page.addInitScript(PROBE);
  await page.goto(url);
  const inPage = await visible;
  const paths = [...requested, ...inPage]
    .map((name) => new URL(name).pathname)
    .filter((path) => path === '/v0.js' || path.startsWith('/v0/'));
  return [...new Set(paths)].map((path) => path.slice(1));
}

const FIRST_SCREEN_FILES = ['v0.js', 'v0/page-consent-0.1.js'];

describe('first screen of a client-only consent page', () => {
  it('requests only v0.js and page-consent-0.1.js before the prompt shows, within the first-screen budget', async () => {
    server.page('/first.html', CONSENT_PAGE);
    const { page, context } = await newPage(browser);
    const files = await requestedBeforePrompt(page, `${server.origin}/first.html`);
    await context.close();
    expect(files.sort()).toEqual(FIRST_SCREEN_FILES);
    const bytes = files.reduce((sum, file) => sum + brotliBytes(file), 0);
    const { budgets } = readJson('size-budgets.json') as { budgets: { files: string[]; brotli: number }[] };
    const budget = budgets.find((entry) => entry.files.join() === FIRST_SCREEN_FILES.join());
    expect(budget, 'a size-budgets.json group for exactly the first-screen files').toBeDefined();
    expect(bytes).toBeLessThanOrEqual(budget!.brotli);
  });

  it('loads the actions part at the first tap and replays it: accept runs the blocked script once', async () => {
    server.page('/accept.html', CONSENT_PAGE);
    const { page, context } = await newPage(browser);
    await page.goto(`${server.origin}/accept.html`);
    await page.waitForSelector('#prompt:visible');
    expect(server.requestsTo(PART.actions)).toHaveLength(0);
    await page.click('#accept');
    await page.waitForFunction(() => (window as unknown as { thirdPartyRuns?: number }).thirdPartyRuns === 1);
    expect(server.requestsTo(PART.actions).length).toBeGreaterThan(0);
    await settled(page);
    expect(await page.evaluate(() => (window as unknown as { thirdPartyRuns?: number }).thirdPartyRuns)).toBe(1);
    await context.close();
  });

  it('reports a part that fails to load once, and unblocks nothing', async () => {
    server.page('/broken.html', CONSENT_PAGE);
    const { page, context, messages } = await newPage(browser);
    await page.route(`**${PART.actions}`, (route) => route.fulfill({ status: 404, body: '' }));
    await page.goto(`${server.origin}/broken.html`);
    await page.waitForSelector('#prompt:visible');
    await page.click('#accept');
    await page.click('#accept');
    await expect.poll(() => messages.filter((line) => line.text.includes('part-load-failed')).length).toBe(1);
    const [line] = messages.filter((line) => line.text.includes('part-load-failed'));
    expect(line?.text).toMatch(failedPart('page-runtime', PART.actions, 'http://127\\.0\\.0\\.1:\\d+'));
    expect(
      await page.evaluate(() => (window as unknown as { thirdPartyRuns?: number }).thirdPartyRuns),
    ).toBeUndefined();
    expect(await page.isVisible('#prompt')).toBe(true);
    await context.close();
  });
});

describe('the consent state part', () => {
  it('is requested after the prompt shows on a first visit, and applies an accept given before it arrived', async () => {
    server.page('/state-late.html', CONSENT_PAGE);
    const { page, context } = await newPage(browser);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**${PART.state}`, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${server.origin}/state-late.html`);
    await page.waitForSelector('#prompt:visible');
    await page.click('#accept');
    // The click's actions part arrived; the decision waits for the state part.
    await expect.poll(() => server.requestsTo(PART.actions).length).toBeGreaterThan(0);
    expect(
      await page.evaluate(() => (window as unknown as { thirdPartyRuns?: number }).thirdPartyRuns),
    ).toBeUndefined();
    expect(await page.isVisible('#prompt')).toBe(true);
    release();
    await page.waitForFunction(() => (window as unknown as { thirdPartyRuns?: number }).thirdPartyRuns === 1);
    await page.waitForSelector('#prompt', { state: 'hidden' });
    await context.close();
  });

  it('fails with one diagnostic: the prompt stays and nothing unblocks', async () => {
    server.page('/state-broken.html', CONSENT_PAGE);
    const { page, context, messages } = await newPage(browser);
    await page.route(`**${PART.state}`, (route) => route.fulfill({ status: 404, body: '' }));
    await page.goto(`${server.origin}/state-broken.html`);
    await page.waitForSelector('#prompt:visible');
    await expect.poll(() => messages.filter((line) => line.text.includes('part-load-failed')).length).toBe(1);
    expect(messages.find((line) => line.text.includes('part-load-failed'))?.text).toMatch(
      failedPart('page-consent#consent', PART.state),
    );
    await page.click('#accept');
    await expect.poll(() => server.requestsTo(PART.actions).length).toBeGreaterThan(0);
    expect(
      await page.evaluate(() => (window as unknown as { thirdPartyRuns?: number }).thirdPartyRuns),
    ).toBeUndefined();
    expect(await page.isVisible('#prompt')).toBe(true);
    await context.close();
  });
});

describe('consent parts', () => {
  it('fails closed with one diagnostic when the remote part does not load', async () => {
    let checks = 0;
    server.route('/check', () => {
      checks++;
      return { body: { consentRequired: false } };
    });
    const config = { ...CONFIG, consentInstanceId: 'no-remote', consentRequired: 'remote', checkConsentHref: '/check' };
    server.page('/no-remote.html', CONSENT_PAGE.replace(JSON.stringify(CONFIG), JSON.stringify(config)));
    const { page, context, messages } = await newPage(browser);
    await page.route(`**${PART.remote}`, (route) => route.fulfill({ status: 404, body: '' }));
    await page.goto(`${server.origin}/no-remote.html`);
    await expect.poll(() => messages.filter((line) => line.text.includes('part-load-failed')).length).toBe(1);
    expect(messages.find((line) => line.text.includes('part-load-failed'))?.text).toMatch(
      failedPart('page-consent#consent', PART.remote),
    );
    await settled(page);
    // The server said consent is not required, but it was never asked: nothing unblocks.
    expect(checks).toBe(0);
    expect(
      await page.evaluate(() => (window as unknown as { thirdPartyRuns?: number }).thirdPartyRuns),
    ).toBeUndefined();
    await context.close();
  });

  /**
   * Opens `url` in `page`, counting the frames in which #prompt is visible, until the blocked
   * script ran and the page settled; the paths it requested.
   */
  async function visitAgain(page: Page, url: string): Promise<string[]> {
    const first = server.requests.length;
    await page.addInitScript(`(() => {
      window.promptPainted = 0;
      const onFrame = () => {
        if (document.getElementById('prompt')?.checkVisibility()) window.promptPainted++;
        requestAnimationFrame(onFrame);
      };
      requestAnimationFrame(onFrame);
    })();`);
    await page.goto(url);
    await page.waitForFunction(() => (window as unknown as { thirdPartyRuns?: number }).thirdPartyRuns === 1);
    await settled(page);
    return server.requests.slice(first).map((request) => request.path);
  }
  const runsAndPromptFrames = (page: Page) =>
    page.evaluate(() => [
      (window as unknown as { thirdPartyRuns: number }).thirdPartyRuns,
      (window as unknown as { promptPainted: number }).promptPainted,
    ]);
  const FAST_PART = '/v0/page-consent-fast-0.1.js';

  it('requests no return-visit part in a later session: the allowed script runs once, without a prompt, and the state part waits for idle', async () => {
    server.page(
      '/return.html',
      CONSENT_PAGE.replace(JSON.stringify(CONFIG), JSON.stringify({ ...CONFIG, consentInstanceId: 'return' })),
    );
    const { page, context } = await newPage(browser);
    await page.goto(`${server.origin}/return.html`);
    await page.waitForSelector('#prompt:visible');
    await page.click('#accept');
    await page.waitForFunction(() => (window as unknown as { thirdPartyRuns?: number }).thirdPartyRuns === 1);
    await whenReturnEntry(page);
    // The stored decision and its record in a browser whose cache does not hold the parts (a later session).
    const { page: later } = await newPage(browser, { storageState: await context.storageState() });
    await context.close();
    const first = server.requests.length;
    const paths = await visitAgain(later, `${server.origin}/return.html`);
    expect(paths.filter((path) => path === FAST_PART)).toEqual([]);
    expect(paths.filter((path) => path === '/third-party.js')).toHaveLength(1);
    expect(await runsAndPromptFrames(later)).toEqual([1, 0]);
    // The blocked script was requested before the consent state part.
    const order = server.requests.slice(first).map((request) => request.path);
    expect(order.indexOf('/third-party.js')).toBeLessThan(order.indexOf(PART.state));
  });
});

describe('the state part on a return visit', () => {
  it('is the one part requested for the stored decision (its parser and the signals are in it); when it fails, one diagnostic and nothing unblocks', async () => {
    server.page(
      '/state-return.html',
      CONSENT_PAGE.replace(JSON.stringify(CONFIG), JSON.stringify({ ...CONFIG, consentInstanceId: 'state-return' })),
    );
    const { page, context, messages } = await newPage(browser);
    await page.goto(`${server.origin}/state-return.html`);
    await page.waitForSelector('#prompt:visible');
    await page.click('#accept');
    await page.waitForFunction(() => (window as unknown as { thirdPartyRuns?: number }).thirdPartyRuns === 1);
    // The decision is stored, without the return record (which would start the script); the state part fails.
    await whenReturnEntry(page);
    await dropReturnEntries(page);
    await page.route(`**${PART.state}`, (route) => route.fulfill({ status: 404, body: '' }));
    const parts = consentPartsRequested(page);
    await page.reload();
    await expect.poll(() => messages.filter((line) => line.text.includes(PART.state)).length).toBe(1);
    expect(messages.find((line) => line.text.includes(PART.state))?.text).toMatch(
      failedPart('page-consent#consent', PART.state),
    );
    await settled(page);
    expect(
      await page.evaluate(() => (window as unknown as { thirdPartyRuns?: number }).thirdPartyRuns),
    ).toBeUndefined();
    // The record's writer is in the state part: without it, nothing else is requested.
    expect(parts).toEqual([PART.state]);
    await context.close();
  });
});

describe('a return visit without its record entry', () => {
  it('waits for the element, which applies the cached decision, and writes the entry again at idle with no part of its own', async () => {
    server.page(
      '/no-record.html',
      CONSENT_PAGE.replace(JSON.stringify(CONFIG), JSON.stringify({ ...CONFIG, consentInstanceId: 'no-record' })),
    );
    const { page, context } = await newPage(browser);
    await page.goto(`${server.origin}/no-record.html`);
    await page.waitForSelector('#prompt:visible');
    await page.click('#accept');
    await page.waitForFunction(() => (window as unknown as { thirdPartyRuns?: number }).thirdPartyRuns === 1);
    await whenReturnEntry(page);
    await dropReturnEntries(page);
    const parts = consentPartsRequested(page);
    await page.reload();
    await page.waitForFunction(() => (window as unknown as { thirdPartyRuns?: number }).thirdPartyRuns === 1);
    await whenReturnEntry(page);
    await settled(page);
    expect(await page.evaluate(() => document.getElementById('prompt')?.checkVisibility())).toBe(false);
    expect(parts).toEqual([PART.state]);
    await context.close();
  });
});

describe('parts of features a first visit without them never loads', () => {
  it('shows the inline prompt with one diagnostic when the CMP iframe part does not load', async () => {
    const config = { ...CONFIG, consentInstanceId: 'no-frame', promptUiSrc: '/cmp.html' };
    server.page('/no-frame.html', CONSENT_PAGE.replace(JSON.stringify(CONFIG), JSON.stringify(config)));
    const { page, context, messages } = await newPage(browser);
    await page.route(`**${PART.frame}`, (route) => route.fulfill({ status: 404, body: '' }));
    await page.goto(`${server.origin}/no-frame.html`);
    await page.waitForSelector('#prompt:visible');
    await expect.poll(() => messages.filter((line) => line.text.includes('part-load-failed')).length).toBe(1);
    expect(messages.find((line) => line.text.includes('part-load-failed'))?.text).toMatch(
      failedPart('page-consent#consent', PART.frame),
    );
    // Neither the iframe's protocol bundle nor the iframe: the part that would load them is missing.
    expect(server.requestsTo('/v0/page-consent-cmp-0.1.js')).toHaveLength(0);
    expect(await page.locator('iframe').count()).toBe(0);
    expect(
      await page.evaluate(() => (window as unknown as { thirdPartyRuns?: number }).thirdPartyRuns),
    ).toBeUndefined();
    await context.close();
  });

  it('uses the base config with one diagnostic when the geo part does not load', async () => {
    const config = { ...CONFIG, consentInstanceId: 'no-geo', geoOverride: { eea: { consentRequired: false } } };
    const geo =
      '<page-geo layout="nodisplay"><script type="application/json">{"ISOCountryGroups":{"eea":["de"]}}</script></page-geo>';
    server.page(
      '/no-geo.html',
      CONSENT_PAGE.replace(JSON.stringify(CONFIG), JSON.stringify(config)).replace('<h1>', `${geo}<h1>`),
    );
    const { page, context, messages } = await newPage(browser);
    await page.route(`**${PART.geo}`, (route) => route.fulfill({ status: 404, body: '' }));
    await page.goto(`${server.origin}/no-geo.html`);
    // No group matched: the base config's prompt, and nothing unblocked.
    await page.waitForSelector('#prompt:visible');
    await expect.poll(() => messages.filter((line) => line.text.includes('part-load-failed')).length).toBe(1);
    expect(messages.find((line) => line.text.includes('part-load-failed'))?.text).toMatch(
      failedPart('page-consent#consent', PART.geo),
    );
    expect(
      await page.evaluate(() => (window as unknown as { thirdPartyRuns?: number }).thirdPartyRuns),
    ).toBeUndefined();
    await context.close();
  });

  it('loads the viewport part at the first task and runs the tasks given before it arrived, reads before writes', async () => {
    const extension = `<script>(self.PAGE = self.PAGE || []).push((page) => {
      window.order = [];
      window.scrollTop = page.viewport.getScrollTop();
      page.viewport.mutate(() => window.order.push('mutate'));
      page.viewport.measure(() => window.order.push('measure:' + page.viewport.getPageBox(document.querySelector('h1')).height));
    });</script>`;
    server.page('/viewport.html', CONSENT_PAGE.replace('</body>', `${extension}</body>`));
    const { page, context } = await newPage(browser);
    const before = server.requestsTo(PART.viewport).length;
    await page.goto(`${server.origin}/viewport.html`);
    await page.waitForFunction(() => (window as unknown as { order?: string[] }).order?.length === 2);
    const [order, scrollTop] = await page.evaluate(() => [
      (window as unknown as { order: string[] }).order,
      (window as unknown as { scrollTop: number }).scrollTop,
    ]);
    expect(order).toEqual([expect.stringMatching(/^measure:\d+(\.\d+)?$/), 'mutate']);
    expect(order[0]).not.toBe('measure:0');
    expect(scrollTop).toBe(0);
    expect(server.requestsTo(PART.viewport)).toHaveLength(before + 1);
    await context.close();
  });
});

/** README.md "A complete page", with local URLs. */
const COMPLETE_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>An article</title>
<script async src="/v0.js"></script>
<script async custom-element="page-consent" src="/v0/page-consent-0.1.js"></script>
<style>#consent-ui { background: #fff; padding: 1rem; box-shadow: 0 -2px 8px #0003; }</style>
</head><body>
<page-consent id="consent" layout="nodisplay"><script type="application/json">{"consentInstanceId": "my-site", "consentRequired": true, "promptUI": "consent-ui", "postPromptUI": "consent-settings"}</script>
<div id="consent-ui" hidden><p>We and our partners use cookies for ads and measurement.</p>
<button id="accept" on="tap:consent.accept">Accept</button><button on="tap:consent.reject">Reject</button></div>
<div id="consent-settings" hidden><button on="tap:consent.prompt">Privacy settings</button></div>
</page-consent>
<h1>An article</h1>
<page-img id="photo" src="/photo.svg" layout="responsive" width="16" height="9" alt="A photo"></page-img>
<p id="text">Text of the article.</p>
<page-ad id="ad" data-block-on-consent type="fake" width="300" height="250"></page-ad>
<page-pixel data-block-on-consent src="/hit?page=SOURCE_URL"></page-pixel>
<p id="end">The end.</p>
</body></html>`;

describe('sized page-* elements before their part arrives', () => {
  it('reserve their boxes at once: no layout shift when the elements part comes late', async () => {
    server.route('/photo.svg', {
      body: '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="9"></svg>',
      headers: { 'content-type': 'image/svg+xml' },
    });
    server.route('/hit', { body: '' });
    server.page('/complete.html', COMPLETE_PAGE);
    const { page, context } = await newPage(browser, { viewport: { width: 800, height: 600 } });
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**${PART.elements}`, async (route) => {
      await held;
      await route.continue();
    });
    const first = server.requests.length;
    await page.goto(`${server.origin}/complete.html`, { waitUntil: 'commit' });
    await page.waitForSelector('page-img.page-layout-responsive');
    // The shift measured is the one of the parts arriving and building, from the first frame
    // with the reserved boxes (not the one of v0.js arriving after the first paint).
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.evaluate(() => {
      const scope = window as unknown as { shift: number };
      scope.shift = 0;
      new PerformanceObserver((list) => {
        // Without recent input, as CLS counts (the prompt giving way to the post-prompt follows the click).
        for (const entry of list.getEntries()) {
          if ((entry as unknown as { hadRecentInput: boolean }).hadRecentInput) continue;
          scope.shift += (entry as unknown as { value: number }).value;
          (scope as unknown as { sources: string[] }).sources = (
            (scope as unknown as { sources?: string[] }).sources ?? []
          ).concat(
            (
              entry as unknown as { sources: { node?: Element; previousRect: DOMRect; currentRect: DOMRect }[] }
            ).sources.map(
              (source) =>
                `${source.node?.nodeName}#${source.node?.id} ${JSON.stringify(source.previousRect)} -> ${JSON.stringify(source.currentRect)}`,
            ),
          );
        }
      }).observe({ type: 'layout-shift' });
    });
    const box = (selector: string) =>
      page.$eval(selector, (element) => element.getBoundingClientRect().toJSON() as DOMRect);
    const before = { photo: await box('#photo'), ad: await box('#ad'), end: await box('#end') };
    expect(before.photo.height).toBeCloseTo((before.photo.width * 9) / 16, 0);
    expect([before.ad.width, before.ad.height]).toEqual([300, 250]);
    expect(await page.$('#photo img')).toBeNull();
    release();
    await page.waitForSelector('#photo img');
    // What the page requested of our files before the reader acted: the core and the elements part.
    const ours = server.requests
      .slice(first)
      .map((request) => request.path)
      .filter((path) => path.startsWith('/v0'));
    expect(ours).toEqual(expect.arrayContaining(['/v0.js', '/v0/page-consent-0.1.js', PART.elements]));
    expect(ours).not.toContain(PART.actions);
    await page.click('#accept');
    await page.waitForSelector('#ad .page-fake-ad');
    expect(await box('#end')).toEqual(before.end);
    expect(
      await page.evaluate(() => {
        const { shift, sources } = window as unknown as { shift: number; sources?: string[] };
        return { shift, sources };
      }),
    ).toEqual({ shift: 0, sources: undefined });
    await context.close();
  });
});
