import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, startServer, type TestServer } from './harness.ts';
import { articlePage, CONFIG, IMAGE_ROUTES, PLACEMENTS, waitForPlacement } from './fixtures/auto-ads/pages.ts';

const SCREENSHOT = 'test-results/auto-ads-debug-overlay.png';

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  browser = await launchBrowser();
  const config = { ...CONFIG, placements: [...PLACEMENTS, { anchor: { selector: '.comments' }, pos: 2, type: 1 }] };
  server = await startServer({ ...IMAGE_ROUTES, '/ads/config': { body: config } });
  server.page('/debug.html', articlePage());
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('auto ads debug overlay', () => {
  it('draws every candidate with its outcome and the constraints in force', async () => {
    const { page } = await newPage(browser, { viewport: { width: 1000, height: 700 } });
    await page.goto(`${server.origin}/debug.html#page-ads-debug`);
    await waitForPlacement(page);
    await page.waitForSelector('page-ads-debug pre');
    const labels = await page.$$eval('page-ads-debug span', (spans) =>
      spans.map((span) => span.textContent?.trim() ?? ''),
    );
    const outcomes = new Set(labels.map((label) => label.split(' ')[1]));
    expect(outcomes).toEqual(new Set(['in-viewport', 'placed', 'too-near', 'denied-ancestor']));
    expect(labels.filter((label) => label.endsWith(' placed'))).toHaveLength(
      await page.$$eval('article page-ad:not(#manual-ad)', (ads) => ads.length),
    );
    const panel = await page.textContent('page-ads-debug pre');
    expect(panel).toContain('max 8');
    expect(panel).toContain('spacing: 1vp, from 3 ads 2vp, from 6 ads 3vp');
    expect(panel).toContain('no anchor: placement 4 (.comments)');
    expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBe(0);
    mkdirSync('test-results', { recursive: true });
    await page.evaluate(() => window.scrollTo(0, 400));
    await page.screenshot({ path: SCREENSHOT });
    await page.screenshot({ path: SCREENSHOT.replace('.png', '-full.png'), fullPage: true });
  });

  it.each([1000, 375])('puts no label over the text of a paragraph or heading at %i px', async (width) => {
    const { page } = await newPage(browser, { viewport: { width, height: 700 } });
    await page.goto(`${server.origin}/debug.html#page-ads-debug`);
    await waitForPlacement(page);
    await page.waitForSelector('page-ads-debug span');
    const found = await page.evaluate(() => {
      const texts: DOMRect[] = [];
      for (const block of document.querySelectorAll(
        'main p, main h1, main h2, main li, main figcaption, main blockquote',
      )) {
        const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (!node.textContent?.trim()) continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          texts.push(...range.getClientRects());
        }
      }
      const labels = [...document.querySelectorAll('page-ads-debug span')].map((span) => ({
        text: span.textContent ?? '',
        box: span.getBoundingClientRect(),
      }));
      const overlaps = (a: DOMRect, b: DOMRect) =>
        a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const covering = labels
        .filter(({ box }) => texts.some((text) => overlaps(box, text)))
        .map(({ text, box }) => `${text.trim()} at ${Math.round(box.top + scrollY)}`);
      return { labels: labels.length, texts: texts.length, covering };
    });
    expect(found.labels).toBeGreaterThan(5);
    expect(found.texts).toBeGreaterThan(20);
    expect(found.covering).toEqual([]);
  });

  it('draws nothing without the hash', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.origin}/debug.html`);
    await waitForPlacement(page);
    expect(await page.$('page-ads-debug')).toBeNull();
  });
});
