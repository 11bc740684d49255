/**
 * The second layer with a full-size GVL: a synthetic list of 1,000 vendors (generated here, not
 * committed): a screenful of rows first, every vendor listed as the reader scrolls, found by the
 * search, and reached by Tab. The time to the layer's first paint is a figure of the bench
 * (`npm run bench -- hosted`, bench/README.md), not of this test.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { hasChromium, launchBrowser } from '../browser.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticGvl } from '../../fixtures/tcf/synthetic-gvl.mjs';
import { defaultInstanceConfig } from '../../server/store/store.ts';
import { buildApp, type Harness } from '../server/app-harness.ts';

const VENDORS = 1000;

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
  await harness.store.putInstance(
    'big',
    { ...defaultInstanceConfig, tcf: { cmpId: 300, cmpVersion: 1, vendors, specialFeatures: [1] } },
    1,
  );
  origin = await harness.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

describe.skipIf(!hasChromium)('second layer with 1,000 vendors', () => {
  it('opens on a screenful of rows, then lists, searches and tabs through every vendor', async () => {
    const page = await browser.newPage({ viewport: { width: 412, height: 915 } });
    await page.goto(`${origin}/cmp/prompt.html?instance=big`);
    await page.waitForFunction(() => performance.getEntriesByName('cmp-details-ready').length > 0, undefined, {
      timeout: 60_000,
    });
    await page.click('#customize');
    // Virtualised: a screenful first, more as the reader scrolls.
    const rows = page.locator('#vendor-list li');
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    const first = await rows.count();
    expect(first).toBeLessThan(50);
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
    // The whole list again (not the search's one row): its rows count all the vendors.
    await expect.poll(() => rows.first().getAttribute('aria-setsize')).toBe(String(VENDORS));
    const built = await rows.count();
    expect(built).toBeGreaterThan(1);
    expect(built).toBeLessThan(50);
    await rows
      .nth(built - 1)
      .locator('summary')
      .focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('li')?.getAttribute('aria-posinset'))).toBe(
      String(built + 1),
    );
    expect(
      await page
        .getByRole('switch', { name: `Vendor ${built + 1} ` })
        .first()
        .isVisible(),
    ).toBe(true);
    await page.close();
  }, 120_000);
});
