/**
 * The second layer with a full-size GVL: a synthetic list of 1,000 vendors (generated here, not
 * committed) on the bench's mobile profile (4x CPU slowdown, 412 px phone viewport). Measures
 * the time from Customize (the frame's `cmp-customize` mark) to the second layer's first paint
 * (the Element Timing entry of the layer's heading, painted in the frame that shows the layer's
 * body: Customize attaches it in the click's task once the script is there), and
 * checks that every vendor is then listed and found by the search. The figure is printed, not
 * asserted (like every bench figure).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchBrowser } from '../browser.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultInstanceConfig } from '../../server/store/store.ts';
import { buildApp, type Harness } from './app-harness.ts';

const VENDORS = 1000;
/** Runs of the measure: the machine is shared, so the minimum and the median are printed. */
const RUNS = 7;
/** The bench's "mobile" profile (bench/browser/profiles.mjs): phone viewport, 4x CPU slowdown. */
const MOBILE = { viewport: { width: 412, height: 915 }, cpuRate: 4 };

/** The fixture's purposes and texts with `count` generated vendors declaring varied purposes. */
function syntheticGvl(count: number): object {
  const base = JSON.parse(readFileSync(resolve('fixtures/tcf/vendor-list.json'), 'utf8'));
  const vendors: Record<string, object> = {};
  for (let id = 1; id <= count; id++) {
    vendors[id] = {
      id,
      name: `Vendor ${id} ${['Exchange', 'Analytics', 'Bidder', 'Measurement', 'Media'][id % 5]}`,
      purposes: [1, 2, 3, 4].filter((p) => (id + p) % 3 !== 0),
      legIntPurposes: id % 4 === 0 ? [7, 10] : [],
      flexiblePurposes: [],
      specialPurposes: [1, 2],
      features: [1],
      specialFeatures: id % 10 === 0 ? [1] : [],
      dataDeclaration: [1, 2, 3],
      usesCookies: true,
      cookieMaxAgeSeconds: 86_400 * (id % 400),
      dataRetention: { stdRetention: 30 + (id % 365), purposes: {}, specialPurposes: {} },
      urls: [{ langId: 'en', privacy: `https://vendor${id}.example/privacy` }],
    };
  }
  return { ...base, vendors };
}

let browser: Browser;
let harness: Harness;
let origin: string;

beforeAll(async () => {
  if (!hasChromium) return;
  const dir = mkdtempSync(join(tmpdir(), 'page-gvl-'));
  writeFileSync(join(dir, 'vendor-list.json'), JSON.stringify(syntheticGvl(VENDORS)));
  browser = await launchBrowser();
  harness = await buildApp({ cdnRoot: resolve('dist/cdn'), tcfVendorList: join(dir, 'vendor-list.json') }, true);
  const vendors = Array.from({ length: VENDORS }, (_, index) => index + 1);
  await harness.store.putInstance('big', { ...defaultInstanceConfig, tcf: { cmpId: 300, cmpVersion: 1, vendors, specialFeatures: [1] } }, 1);
  origin = await harness.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

describe.skipIf(!hasChromium)('second layer with 1,000 vendors', () => {
  /** Opens the prompt, waits for the second layer's script, clicks Customize under the mobile throttle; the figure of that run. */
  async function measure(): Promise<{ page: Page; paint: number; rows: number }> {
    const context = await browser.newContext({ viewport: MOBILE.viewport });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await page.goto(`${origin}/cmp/prompt.html?instance=big`);
    await page.waitForFunction(() => performance.getEntriesByName('cmp-details-ready').length > 0, undefined, { timeout: 60_000 });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: MOBILE.cpuRate });
    await page.click('#customize');
    // Element Timing: when the layer's heading was painted (with the body, attached in the click's task).
    const figures = await page.evaluate(() => new Promise<{ paint: number; rows: number }>((done) => {
      new PerformanceObserver((list) => {
        const entry = list.getEntries().find((e) => (e as PerformanceEntry & { identifier: string }).identifier === 'cmp-layer2') as (PerformanceEntry & { renderTime: number }) | undefined;
        if (entry) done({ paint: entry.renderTime - performance.getEntriesByName('cmp-customize')[0]!.startTime, rows: document.querySelectorAll('#vendor-list li').length });
      }).observe({ type: 'element', buffered: true });
    }));
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    return { page, ...figures };
  }

  it('measures the second layer\'s first paint on the mobile profile, then lists and searches every vendor', async () => {
    const runs: number[] = [];
    let page: Page | null = null;
    for (let run = 0; run < RUNS; run++) {
      await page?.context().close();
      const measured = await measure();
      page = measured.page;
      runs.push(measured.paint);
      expect(measured.paint).toBeGreaterThan(0);
      expect(measured.rows).toBeLessThan(50);
    }
    const sorted = [...runs].sort((a, b) => a - b);
    console.log(`second layer, ${VENDORS} vendors, mobile profile (4x CPU), first paint after Customize over ${RUNS} runs: ` +
      `min ${sorted[0]!.toFixed(1)} ms, median ${sorted[Math.floor(RUNS / 2)]!.toFixed(1)} ms (${runs.map((r) => r.toFixed(0)).join(', ')}); load average ${loadavg()[0]!.toFixed(1)}`);
    // The target is 100 ms (docs/decisions/server-hosted-cmp.md). A figure, not an assertion: on a
    // shared, loaded machine it measures the load too (as every bench figure here does).
    if (!page) throw new Error('no run');
    // Virtualised: a screenful first, more as the reader scrolls.
    const rows = page.locator('#vendor-list li');
    const first = await rows.count();
    expect(await rows.first().getAttribute('aria-setsize')).toBe(String(VENDORS));
    for (let count = first; count < VENDORS; ) {
      await rows.last().scrollIntoViewIfNeeded();
      await expect.poll(() => rows.count(), { timeout: 10_000 }).toBeGreaterThan(count);
      count = await rows.count();
    }
    expect(await rows.last().getAttribute('aria-posinset')).toBe(String(VENDORS));
    await page.fill('#vendor-search', 'vendor 999 ');
    await expect.poll(() => page.locator('#vendor-list .name').allTextContents()).toEqual(['Vendor 999 Media']);
    expect(await page.locator('.vendors .status').textContent()).toBe('Partners: 1');
    // Keyboard: Tab from the last row built so far reaches the next vendor, never skips to Save.
    await page.fill('#vendor-search', '');
    await expect.poll(() => rows.count()).toBeLessThan(50);
    const built = await rows.count();
    await rows.nth(built - 1).locator('summary').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('li')?.getAttribute('aria-posinset'))).toBe(String(built + 1));
    expect(await page.getByRole('switch', { name: `Vendor ${built + 1} ` }).first().isVisible()).toBe(true);
    await page.context().close();
  }, 240_000);
});
