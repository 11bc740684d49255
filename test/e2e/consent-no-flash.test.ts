/**
 * docs/consent.md, "UI" (no flash): markup written with `hidden` paints no consent UI before the runtime
 * runs; the component removes `hidden` while it shows a UI; a return visit never paints the
 * prompt, not even one frame; consent UI causes no layout shift. The scripts come late (the test
 * server delays them) so that the frames before the runtime runs are observed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isShown, POST_PROMPT, PROMPT } from './consent-fixtures.ts';
import { CDN_ROOT, launchBrowser, newPage, settled, startServer, type TestServer } from './harness.ts';

let browser: Browser;
let server: TestServer;

/** How long the test server holds back v0.js and the consent extension. */
const SCRIPT_DELAY = 1_500;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer();
  for (const file of ['v0.js', 'v0/page-consent-0.1.js']) {
    const body = readFileSync(join(CDN_ROOT, file), 'utf8');
    server.route(`/slow/${file}`, { body, delay: SCRIPT_DELAY, headers: { 'content-type': 'text/javascript' } });
  }
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const CONFIG = { consentInstanceId: 'no-flash', consentRequired: true, promptUI: 'prompt', postPromptUI: 'post' };
const ARTICLE = `<main id="article"><h1>An article</h1>${'<p>Text of the article, long enough to fill a line or two.</p>'.repeat(8)}</main>`;

/** Writes `hidden` into the opening tag of the prompt and post-prompt. */
const withHidden = (markup: string) => markup.replace(/<div id="(prompt|post)"/g, '<div id="$1" hidden');

/** The documented page: consent UIs first in `<body>`, scripts async (and late under `/slow`). */
function page(inside: string, scriptRoot: '' | '/slow'): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>no flash</title>
<script async src="${scriptRoot}/v0.js"></script>
<script async custom-element="page-consent" src="${scriptRoot}/v0/page-consent-0.1.js"></script>
</head><body><page-consent id="consent" layout="nodisplay"><script type="application/json">${JSON.stringify(CONFIG)}</script>${inside}</page-consent>
${ARTICLE}</body></html>`;
}

/**
 * Runs before the document: on every animation frame from navigation start it records whether
 * the prompt is visible and whether the consent element has built; it also sums layout shifts.
 */
const PROBE = `(() => {
  const probe = (window.noFlashProbe = { frames: 0, framesBeforeBuild: 0, paintedFrames: 0, paintedBeforeBuild: 0, shift: 0 });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) probe.shift += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
  const onFrame = () => {
    const prompt = document.getElementById('prompt');
    if (prompt) {
      const isBuilt = !!document.querySelector('page-consent.page-built');
      const isPainted = prompt.checkVisibility();
      probe.frames++;
      if (!isBuilt) probe.framesBeforeBuild++;
      if (isPainted) probe.paintedFrames++;
      if (isPainted && !isBuilt) probe.paintedBeforeBuild++;
    }
    requestAnimationFrame(onFrame);
  };
  requestAnimationFrame(onFrame);
})();`;

type Probe = {
  frames: number;
  framesBeforeBuild: number;
  paintedFrames: number;
  paintedBeforeBuild: number;
  shift: number;
};
const probeOf = (target: Page) => target.evaluate(() => (window as unknown as { noFlashProbe: Probe }).noFlashProbe);

let count = 0;
function serve(markup: string): string {
  const path = `/no-flash-${++count}.html`;
  server.page(path, markup);
  return server.origin + path;
}

/** Waits for the element to build, then for some frames more, and returns the probe. */
async function settle(target: Page): Promise<Probe> {
  await target.waitForSelector('page-consent.page-built', { state: 'attached', timeout: 10_000 });
  await settled(target);
  return probeOf(target);
}

/** A fresh reader who accepted on an earlier visit (fast scripts), then opens `url` with the probe. */
async function returnVisit(url: string) {
  const test = await newPage(browser, { viewport: { width: 360, height: 640 } });
  await test.page.goto(serve(page(withHidden(PROMPT + POST_PROMPT), '')));
  await test.page.click('#accept');
  await expect.poll(() => isShown(test.page, '#post')).toBe(true);
  await test.page.addInitScript(PROBE);
  await test.page.goto(url);
  return test;
}

const hiddenOf = (target: Page, selector: string) =>
  target.$eval(selector, (element) => element.hasAttribute('hidden'));

describe('consent UI hidden attribute', () => {
  it('removes hidden from the shown prompt and keeps it on the post-prompt, then swaps after a decision', async () => {
    const { page: target } = await newPage(browser);
    await target.goto(serve(page(withHidden(PROMPT + POST_PROMPT), '')));
    await expect.poll(() => isShown(target, '#prompt')).toBe(true);
    expect([
      await hiddenOf(target, '#prompt'),
      await hiddenOf(target, '#post'),
      await isShown(target, '#post'),
    ]).toEqual([false, true, false]);
    await target.click('#accept');
    await expect.poll(() => isShown(target, '#post')).toBe(true);
    expect([
      await hiddenOf(target, '#post'),
      await hiddenOf(target, '#prompt'),
      await isShown(target, '#prompt'),
    ]).toEqual([false, true, false]);
  });

  it('removes hidden from the prompt again when the post-prompt reopens it', async () => {
    const { page: target } = await newPage(browser);
    await target.goto(serve(page(withHidden(PROMPT + POST_PROMPT), '')));
    await target.click('#reject');
    await target.click('#manage');
    await expect.poll(() => isShown(target, '#prompt')).toBe(true);
    expect([await hiddenOf(target, '#prompt'), await hiddenOf(target, '#post')]).toEqual([false, true]);
  });
});

describe('return visit', () => {
  it('never paints the prompt, not even one frame, when the markup has hidden', async () => {
    const { page: target } = await returnVisit(serve(page(withHidden(PROMPT + POST_PROMPT), '/slow')));
    const probe = await settle(target);
    expect(probe.framesBeforeBuild, 'frames observed while the scripts were held back').toBeGreaterThan(5);
    expect(probe.paintedFrames).toBe(0);
    expect(await isShown(target, '#post')).toBe(true);
    expect(await hiddenOf(target, '#prompt')).toBe(true);
  });

  it('paints the prompt before the runtime runs when the markup lacks hidden (the probe sees a flash)', async () => {
    const { page: target } = await returnVisit(serve(page(PROMPT + POST_PROMPT, '/slow')));
    const probe = await settle(target);
    expect(probe.paintedBeforeBuild).toBeGreaterThan(0);
    expect(await isShown(target, '#prompt')).toBe(false);
  });
});

describe('first visit', () => {
  it('shows the prompt once the runtime runs, never before, with no layout shift', async () => {
    const { page: target } = await newPage(browser, { viewport: { width: 360, height: 640 } });
    await target.addInitScript(PROBE);
    await target.goto(serve(page(withHidden(PROMPT + POST_PROMPT), '/slow')));
    const probe = await settle(target);
    await expect.poll(() => isShown(target, '#prompt')).toBe(true);
    expect(probe.framesBeforeBuild).toBeGreaterThan(5);
    expect(probe.paintedBeforeBuild).toBe(0);
    expect((await probeOf(target)).shift).toBe(0);
  });

  it('shifts the layout when the markup lacks hidden (the layout-shift probe sees it)', async () => {
    const { page: target } = await newPage(browser, { viewport: { width: 360, height: 640 } });
    await target.addInitScript(PROBE);
    await target.goto(serve(page(PROMPT + POST_PROMPT, '/slow')));
    await settle(target);
    await expect.poll(async () => (await probeOf(target)).shift).toBeGreaterThan(0);
  });
});
