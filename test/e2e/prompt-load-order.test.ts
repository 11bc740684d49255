/**
 * The hosted prompt loads its second layer and the GVL only after the first layer is painted
 * (docs/decisions/server-hosted-cmp.md, "After the first paint"): real Chromium against the
 * real server with the GVL fixture. A probe in the frame (an init script) notes when the first
 * layer was painted: the Element Timing entry of Accept all's text (`elementtiming="cmp-layer1"`
 * in the page), whose `paintTime` is the rendering update that painted it (its `renderTime`,
 * when the compositor showed it, comes later and is not the page's to wait for); the Resource
 * Timing entries give when the requests for `cmp/details-0.1.js` and `/tcf/vendor-list.json`
 * started. All on the frame's own clock.
 */
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultInstanceConfig } from '../../server/store/store.ts';
import { hasChromium, launchBrowser } from '../browser.ts';
import { buildApp, type Harness } from '../server/app-harness.ts';

const tcf = { cmpId: 300, cmpVersion: 2, vendors: [1, 2, 8, 25, 52], specialFeatures: [1], publisherCountryCode: 'DE' };

/** Runs in the frame before its scripts: when the rendering update that painted Accept all's text ran, and when it was shown. */
const probe = `(() => {
  const marks = (self.loadOrder = { painted: null, presented: null });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.identifier === 'cmp-layer1') Object.assign(marks, { painted: entry.paintTime, presented: entry.renderTime });
    }
  }).observe({ type: 'element', buffered: true });
})();`;

type Order = { painted: number; presented: number; details: number; gvl: number };

let browser: Browser;
let harness: Harness;
let origin: string;

beforeAll(async () => {
  if (!hasChromium) return;
  browser = await launchBrowser();
  harness = await buildApp(
    { cdnRoot: resolve('dist/cdn'), tcfVendorList: resolve('fixtures/tcf/vendor-list.json') },
    true,
  );
  await harness.store.putInstance('order-tcf', { ...defaultInstanceConfig, tcf }, 1);
  origin = await harness.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

describe.skipIf(!hasChromium)("the hosted prompt's load order", () => {
  it("requests the second layer's script and the GVL only after the first layer's buttons are painted", async () => {
    const context = await browser.newContext({ viewport: { width: 412, height: 915 } });
    await context.addInitScript({ content: probe });
    const page = await context.newPage();
    await page.goto(`${origin}/cmp/prompt.html?instance=order-tcf`);
    await page.waitForFunction(() => performance.getEntriesByName('cmp-details-ready').length > 0);
    await page.waitForFunction(() =>
      performance.getEntriesByType('resource').some((entry) => entry.name.endsWith('/tcf/vendor-list.json')),
    );
    await page.waitForFunction(
      () => (self as unknown as { loadOrder: { painted: number | null } }).loadOrder.painted !== null,
    );
    const order: Order = await page.evaluate(() => {
      const startOf = (suffix: string) =>
        performance.getEntriesByType('resource').find((entry) => new URL(entry.name).pathname.endsWith(suffix))
          ?.startTime ?? -1;
      return {
        ...(self as unknown as { loadOrder: { painted: number; presented: number } }).loadOrder,
        details: startOf('/cmp/details-0.1.js'),
        gvl: startOf('/tcf/vendor-list.json'),
      };
    });
    // Accept all's text was painted (and then shown) ...
    expect(order.painted).toBeGreaterThan(0);
    expect(order.presented).toBeGreaterThanOrEqual(order.painted);
    // ... before the second layer's script was requested, and the GVL after that.
    expect(order.details).toBeGreaterThan(order.painted);
    expect(order.gvl).toBeGreaterThan(order.details);
    await context.close();
  });
});
