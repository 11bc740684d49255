/** The admin dashboard in real Chromium: token entry, counts, SVG charts, user lookup, axe. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { hasChromium, launchBrowser } from '../browser.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultInstanceConfig } from '../../server/store/store.ts';
import { adminToken, buildApp, type Harness } from '../server/app-harness.ts';
import { entry } from '../server/store-contract.ts';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const day = (d: number) => Date.UTC(2025, 5, d, 9);

let browser: Browser;
let harness: Harness;
let origin: string;

beforeAll(async () => {
  if (!hasChromium) return;
  browser = await launchBrowser();
  harness = await buildApp({}, true);
  const { store } = harness;
  await store.ensureInstance('site', defaultInstanceConfig, day(1));
  await store.recordDecision(
    entry({
      userId: 'u1',
      pageUserId: 'p1',
      time: day(13),
      purposeConsents: { ads: true, analytics: true },
      geoGroup: 'california',
    }),
  );
  await store.recordDecision(
    entry({ userId: 'u2', time: day(14), state: 'rejected', purposeConsents: { ads: false }, geoGroup: 'eea' }),
  );
  await store.recordDecision(entry({ userId: 'u3', time: day(14), state: 'accepted' }));
  await store.recordPromptOutcome('site', '2025-06-14', 'dismiss');
  await store.recordPromptOutcome('site', '2025-06-14', 'accept');
  const view = { experiment: 'max-ads', arm: 'three', adsPlaced: 3, viewable: 1, layoutShift: 0 };
  await store.recordExperimentView('demo', view);
  await store.recordExperimentView('demo', { ...view, viewable: 3 });
  await store.recordExperimentView('demo', { ...view, arm: 'five', adsPlaced: 5, viewable: 4, layoutShift: 0.01 });
  origin = await harness.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

async function connect(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1024, height: 900 } });
  await page.goto(`${origin}/admin/`);
  await page.getByLabel('Admin token').fill(adminToken);
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.locator('#decisions-chart svg').waitFor();
  return page;
}

describe.skipIf(!hasChromium)('admin dashboard in Chromium', () => {
  it('draws counts, per-day rates and purpose acceptance', async () => {
    const page = await connect();
    expect(await page.locator('#counts dd').allTextContents()).toEqual(['1', '3', '3', '2', '1', '0']);
    expect(await page.locator('#decisions-chart svg rect').count()).toBe(2 * 3);
    expect(await page.locator('#outcomes-chart svg rect').count()).toBe(1 * 3);
    expect(await page.locator('#decisions-chart title').first().textContent()).toBe('2025-06-13 accepted: 1 (100%)');
    expect(await page.locator('#purposes-chart svg text').allTextContents()).toEqual([
      'ads',
      '50%',
      'analytics',
      '100%',
    ]);
    const groups = await page
      .locator('table.groups tr')
      .evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent)));
    expect(groups).toEqual([
      ['Group', 'Accepted', 'Custom', 'Rejected', 'Opt-out', 'Unknown'],
      ['california', '1', '0', '0', '0', '0'],
      ['eea', '0', '0', '1', '0', '0'],
      ['unknown', '1', '0', '0', '0', '0'],
    ]);
    await page.close();
  });

  it('saves the US privacy (GPP) settings, and says what the API refused', async () => {
    const page = await connect();
    await page.getByLabel('Approach').selectOption('state');
    await page.getByLabel('Section').selectOption('usca');
    await page.getByLabel('SaleOptOutNotice').fill('3');
    await page.getByRole('button', { name: 'Save US privacy settings' }).click();
    await expect
      .poll(() => page.locator('#status').textContent())
      .toBe('gpp.usca.SaleOptOutNotice: expected an integer from 0 to 2, got 3');
    await page.getByLabel('SaleOptOutNotice').fill('1');
    await page.getByRole('button', { name: 'Save US privacy settings' }).click();
    await expect.poll(() => page.locator('#status').textContent()).toBe('Saved the US privacy (GPP) settings of site.');
    expect((await harness.store.getInstance('site'))?.config.gpp).toEqual({
      approach: 'state',
      usca: { SaleOptOutNotice: 1 },
    });
    await expect.poll(() => page.locator('#gpp-json').textContent()).toContain('"SaleOptOutNotice": 1');
    await page.close();
  });

  it('shows an error for a wrong token', async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/admin/`);
    await page.getByLabel('Admin token').fill('wrong-token');
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => page.locator('#status').textContent()).toContain('not ADMIN_TOKEN');
    await page.close();
  });

  it('looks a user up by pageUserId', async () => {
    const page = await connect();
    await page.getByLabel('User id', { exact: true }).fill('p1');
    await page.getByRole('button', { name: 'Look up' }).click();
    const user = page.locator('#user-result article');
    await expect.poll(() => user.locator('h3').textContent()).toBe('User u1');
    const facts = await user.locator('.facts div').evaluateAll((rows) => rows.map((row) => row.textContent));
    expect(facts).toEqual([
      'Decisionaccepted on 2025-06-13 09:00:00 UTC',
      'Page user idp1',
      'Purposesads yes, analytics yes',
      'Policy version1',
      'Consent stringnone',
    ]);
    expect(await user.locator('table.history tbody tr').first().locator('td').allTextContents()).toEqual([
      '2025-06-13 09:00:00 UTC',
      'accepted',
      'ads yes, analytics yes',
      'https://news.example',
      'no',
    ]);
    // Dates, not epoch milliseconds; fields, not JSON.
    const text = (await page.locator('#user-result').textContent()) ?? '';
    expect(text).not.toContain(String(day(13)));
    expect(text).not.toMatch(/[{"]/);
    await page.close();
  });

  it('fits a 375 px screen with a user shown, and asks for no favicon', async () => {
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    const missing: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) missing.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${origin}/admin/`);
    await page.getByLabel('Admin token').fill(adminToken);
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.locator('#decisions-chart svg').waitFor();
    await page.getByLabel('User id', { exact: true }).fill('p1');
    await page.getByRole('button', { name: 'Look up' }).click();
    await page.locator('#user-result article').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // This server has no vendor list (the page says so); nothing else is missing.
    expect(missing).toEqual([`404 ${origin}/tcf/vendor-list.json`]);
    await page.close();
  });

  it("shows an ads client's experiment arms side by side, with the interval", async () => {
    const page = await connect();
    await page.getByLabel('Ads client').fill('demo');
    await page.getByRole('button', { name: 'Show arms' }).click();
    const table = page.getByRole('table', { name: 'Experiment max-ads' });
    await table.waitFor();
    expect(await table.locator('thead th').allTextContents()).toEqual(['Arm', 'five', 'three']);
    const rows = await table
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent)));
    // three: views 1 and 3, mean 2, s² = 2, margin 1.96 · √(2 / 2) = 1.96.
    expect(rows).toEqual([
      ['Page views', '1', '2'],
      ['Ads placed per page view', '5.00', '3.00'],
      ['Viewable impressions per page view', '4.00', '2.00'],
      ['95% confidence interval', 'needs 2 page views', '0.04 to 3.96'],
      ['Mean layout shift (CLS)', '0.010', '0.000'],
    ]);
    await page.close();
  });

  it('has no axe violations once connected', async () => {
    const page = await connect();
    await page.getByLabel('Ads client').fill('demo');
    await page.getByRole('button', { name: 'Show arms' }).click();
    await page.locator('table.experiment').waitFor();
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const result = await (
        window as unknown as { axe: { run: (c: Document) => Promise<{ violations: { id: string }[] }> } }
      ).axe.run(document);
      return result.violations.map((v) => v.id);
    });
    expect(violations).toEqual([]);
    await page.close();
  });

  // Last: it adds instances to the shared store.
  it('lists every instance in the picker, following the list pages', async () => {
    for (let i = 0; i < 1001; i++)
      await harness.store.putInstance(`extra-${String(i).padStart(4, '0')}`, defaultInstanceConfig, day(2));
    const page = await browser.newPage();
    await page.goto(`${origin}/admin/`);
    await page.getByLabel('Admin token').fill(adminToken);
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => page.locator('#instance option').count(), { timeout: 15_000 }).toBe(1002);
    expect(await page.locator('#instance option').last().textContent()).toBe('site');
    await page.close();
  });
});
