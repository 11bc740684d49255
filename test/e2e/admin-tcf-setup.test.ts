/**
 * The hosted-CMP example's admin route, as a publisher follows it: the built server started as
 * `npm start` starts it, on a vendor list of 1,000 vendors (the fixture's and made-up partners),
 * the example's instance not set up yet; the admin dashboard at 375 px picks the vendors (pages,
 * search, select all and clear of a filter), maps the page's purposes to TCF purposes, sets a
 * special feature and saves; then the example's "Accept all" grants the page's purposes and its
 * components build. No console error and no failed request on the way (no favicon 404). Then
 * the publisher fields of the same section (restrictions, own purposes, Google's ATPs from the
 * fixture list, the site group): set, mirrored in the config JSON, saved, read back, and the
 * server's refusal of a restriction shown beside them.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer } from '../server/server-process.ts';
import { launchBrowser, newPage, type TestPage } from './harness.ts';

const TOKEN = 'admin-route-token-0123456789';
const INSTANCE = 'examples-hosted-cmp';
let browser: Browser;
let server: ServerProcess;
let dir = '';

/** The fixture's vendors (1, 2, 8, 25, 52, ...) and made-up partners up to 1,000 vendors. */
function largeVendorList(): string {
  const gvl = JSON.parse(readFileSync('fixtures/tcf/vendor-list.json', 'utf8'));
  const template = Object.values(gvl.vendors)[0] as Record<string, unknown>;
  let id = 100;
  while (Object.keys(gvl.vendors).length < 1000) {
    id += 1;
    gvl.vendors[id] = {
      ...template,
      id,
      name: `Partner ${String(id).padStart(4, '0')}`,
      specialFeatures: [],
      urls: [{ langId: 'en', privacy: `https://partner${id}.example/privacy` }],
      deviceStorageDisclosureUrl: `https://partner${id}.example/device-storage.json`,
    };
  }
  return JSON.stringify(gvl);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'page-admin-route-'));
  writeFileSync(join(dir, 'vendor-list.json'), largeVendorList());
  server = await startServer(
    {
      HOST: 'localhost',
      ADMIN_TOKEN: TOKEN,
      TCF_VENDOR_LIST: join(dir, 'vendor-list.json'),
      DATABASE_URL: `sqlite:${join(dir, 'page.db')}`,
    },
    50_000,
  );
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  server?.child.kill('SIGTERM');
  await server?.exited();
  rmSync(dir, { recursive: true, force: true });
});

async function open(path: string, width: number): Promise<TestPage & { failed: string[] }> {
  const test = await newPage(browser, { viewport: { width, height: 800 } });
  const failed: string[] = [];
  test.context.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
  test.context.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.url()}: ${response.status()}`);
  });
  await test.page.goto(`${server.url}${path}`);
  return { ...test, failed };
}

const problems = ({ messages, errors }: TestPage) => [
  ...messages.filter((m) => m.type === 'error').map((m) => m.text),
  ...errors,
];

const api = async (path: string, init: RequestInit = {}) => {
  const response = await fetch(`${server.url}/admin/api/instances/${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
  });
  expect(response.status).toBe(200);
  return response.json();
};

/** The admin dashboard connected (the token from the URL), showing `instance` once the GVL and ATP list are in. */
async function openInstance(instance: string, width: number) {
  const admin = await open(`/admin/#token=${TOKEN}`, width);
  await admin.page.locator('#vendors-section').waitFor({ state: 'visible' });
  await expect
    .poll(() => admin.page.locator('#atp-status').textContent(), { timeout: 15_000 })
    .toBe("Google's ATP list: 4 ATPs.");
  await admin.page.locator('#instance').selectOption(instance);
  await expect.poll(() => admin.page.locator('#config-id').inputValue()).toBe(instance);
  return admin;
}

describe('the hosted-CMP example set up through the admin dashboard', () => {
  it('picks vendors at 375 px, maps the purposes, saves, and the example grants them on Accept all', async () => {
    // An instance as a server without development defaults has it: no purposes, no TCF settings.
    await api(INSTANCE, { method: 'PUT', body: '{}' });

    const admin = await open(`/admin/#token=${TOKEN}`, 375);
    const { page } = admin;
    await page.locator('#vendors-section').waitFor({ state: 'visible' });
    await page.locator('#instance').selectOption(INSTANCE);
    await expect
      .poll(() => page.locator('#gvl-status').textContent(), { timeout: 15_000 })
      .toMatch(/, 1000 vendors\.$/);
    // Without TCF_TRANSLATIONS_DIR only English is complete: every other reader gets the English prompt.
    await expect
      .poll(() => page.locator('#tcf-languages').textContent())
      .toMatch(
        /^Prompt languages complete \(own texts and IAB translation\): en\. Shown in English instead: bg \(no purposes-bg\.json\), .*nb \(no purposes-no\.json\)/,
      );
    await expect.poll(() => page.locator('#vendor-range').textContent()).toBe('Vendors 1-50 of 1000 (page 1 of 20).');
    expect(await page.locator('#vendor-options li').count()).toBe(50);

    // Every vendor is reachable: page to the last one.
    for (let next = 1; next < 20; next += 1) await page.getByRole('button', { name: 'Next vendors' }).click();
    expect(await page.locator('#vendor-range').textContent()).toBe('Vendors 951-1000 of 1000 (page 20 of 20).');
    expect(await page.getByRole('button', { name: 'Next vendors' }).isDisabled()).toBe(true);
    expect(await page.locator('#vendor-options li').last().textContent()).toContain('Sample Analytics (2)');

    // Select all, then clear the made-up partners (a filter): the fixture's vendors stay.
    await page.getByRole('button', { name: 'Select all shown' }).click();
    expect(await page.locator('#tcf-selection').textContent()).toMatch(/^1000 vendors selected;/);
    await page.getByLabel('Search the vendor list').fill('partner');
    await expect
      .poll(() => page.locator('#vendor-range').textContent())
      .toBe('Vendors 1-50 of 994 matching (page 1 of 20).');
    await page.getByRole('button', { name: 'Clear shown' }).click();
    expect(await page.locator('#tcf-selection').textContent()).toMatch(/^6 vendors selected;/);
    await page.getByLabel('Search the vendor list').fill('');
    await page.getByLabel('Selected only').check();
    await expect
      .poll(() => page.locator('#vendor-range').textContent())
      .toBe('Vendors 1-6 of 6 matching (page 1 of 1).');

    // The page's purposes, each mapped to TCF purposes, and a special feature.
    await page.getByLabel('Purposes asked (page purpose ids, comma-separated)').fill('ads, measurement');
    const ads = page.locator('fieldset[data-page-purpose="ads"]');
    const measurement = page.locator('fieldset[data-page-purpose="measurement"]');
    for (const id of [1, 2, 3, 4]) await ads.getByRole('checkbox', { name: new RegExp(`^${id}\\. `) }).check();
    for (const id of [1, 7, 8, 9]) await measurement.getByRole('checkbox', { name: new RegExp(`^${id}\\. `) }).check();
    expect(await page.locator('#tcf-purpose-map li').first().textContent()).toMatch(/^1\. .*: ads, measurement$/);
    await page.locator('#special-features').getByRole('checkbox', { name: /^1\. / }).check();
    await page.getByLabel('CMP id').fill('300');
    await page.getByLabel('Publisher country').fill('DE');

    // Nothing the server would refuse is listed under the fields.
    expect(await page.locator('#tcf-settings-problems li').allTextContents()).toEqual([]);
    // At 375 px nothing is wider than the screen; every control is labelled.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // Nothing the server would refuse is listed under the fields.
    expect(await page.locator('#tcf-settings-problems li').allTextContents()).toEqual([]);
    // At 375 px nothing is wider than the screen; every control is labelled.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const { violations } = await new AxeBuilder({ page }).include('#vendors-section').analyze();
    expect(violations.map((violation) => violation.id)).toEqual([]);

    await page.getByRole('button', { name: 'Save TCF settings' }).click();
    await expect
      .poll(() => page.locator('#status').textContent())
      .toBe(`Saved the TCF settings of ${INSTANCE}: 6 vendors, purposes asked: ads, measurement.`);
    const stored = await api(INSTANCE);
    expect(stored.config.purposeConsentRequired).toEqual(['ads', 'measurement']);
    expect(stored.config.tcf).toMatchObject({
      cmpId: 300,
      cmpVersion: 1,
      purposes: { ads: [1, 2, 3, 4], measurement: [1, 7, 8, 9] },
      specialFeatures: [1],
      publisherCountryCode: 'DE',
    });
    expect(stored.config.tcf.vendors).toHaveLength(6);
    // Reloaded from the store, the mapping reads back as saved.
    expect(await page.getByLabel('Purposes asked (page purpose ids, comma-separated)').inputValue()).toBe(
      'ads, measurement',
    );
    expect(await measurement.getByRole('checkbox', { name: /^7\. / }).isChecked()).toBe(true);
    expect(await ads.getByRole('checkbox', { name: /^7\. / }).isChecked()).toBe(false);
    expect(problems(admin)).toEqual([]);
    expect(admin.failed).toEqual([]);

    const example = await open('/examples/hosted-cmp.html', 1000);
    await example.page.waitForSelector('.page-consent-frame iframe', { state: 'visible' });
    const frame = example.page.frameLocator('.page-consent-frame iframe');
    expect((await frame.locator('#vendor-line').textContent())?.trim()).toBe('View our partners (6)');
    await frame.locator('#accept').click();
    await expect
      .poll(() => example.page.textContent('[data-consent-status]'), { timeout: 15_000 })
      .toBe('state: accepted\npurposes: ads yes, measurement yes');
    await expect
      .poll(
        () =>
          example.page
            .locator('example-widget')
            .evaluateAll((widgets) => widgets.map((w) => (w as HTMLElement).dataset['state'])),
        { timeout: 15_000 },
      )
      .toEqual(['loaded', 'loaded']);
    await expect
      .poll(() => example.page.textContent('#tc-data'), { timeout: 15_000 })
      .toContain('specialFeatureOptins: [1]');
    expect(problems(example)).toEqual([]);
    // The outcome beacon and the keepalive update may be reported aborted as the frame goes.
    expect(
      example.failed.filter((line) => !/\/cmp\/outcome\?|\/consent\/update: net::ERR_ABORTED$/.test(line)),
    ).toEqual([]);
  }, 120_000);

  it('sets restrictions, own purposes, ATPs and the site group in the form, saves them and shows a refusal beside them', async () => {
    const INSTANCE = 'tcf-publisher-fields';
    await api(INSTANCE, {
      method: 'PUT',
      body: JSON.stringify({ tcf: { cmpId: 300, cmpVersion: 1, vendors: [1, 8, 52] } }),
    });
    const admin = await openInstance(INSTANCE, 375);
    const { page } = admin;

    // A restriction: purpose 2 on legitimate interest only, for Demo Bidder (8), among the selected vendors.
    // From the keyboard: the new row takes the focus.
    await page.getByRole('button', { name: 'Add restriction' }).press('Enter');
    const restriction = page.locator('fieldset[data-restriction="1"]');
    expect(await restriction.getByLabel('Purpose').evaluate((select) => select === document.activeElement)).toBe(true);
    expect(await restriction.locator('label.inline').allTextContents()).toEqual([
      ' Demo Bidder (8)',
      ' Example Exchange (1)',
      ' Illustrative Personalisation (52)',
    ]);
    await restriction.getByLabel('Purpose').selectOption('2');
    await restriction.getByLabel('Type').selectOption('requireLi');
    await restriction.getByRole('checkbox', { name: 'Demo Bidder (8)' }).check();

    // The publisher's own purposes and one custom purpose.
    for (const id of [1, 3])
      await page
        .locator('#publisher-consent')
        .getByRole('checkbox', { name: new RegExp(`^${id}\\. `) })
        .check();
    await page.locator('#publisher-li').getByRole('checkbox', { name: /^7\. / }).check();
    await page.getByRole('button', { name: 'Add custom purpose' }).click();
    const custom = page.locator('fieldset[data-custom-purpose="1"]');
    await custom.getByLabel('Name').fill('Newsletter');
    await custom.getByLabel('Description').fill('Our weekly letter');

    // Two ATPs chosen by name from the server's list, one found by its id.
    await page.getByRole('radio', { name: 'Chosen ATPs' }).check();
    await page.getByLabel("Search Google's ATP list").fill('social');
    expect(await page.locator('#atp-options li').allTextContents()).toEqual([' Fixture Social Ads (made up) (89)']);
    await page.getByRole('checkbox', { name: 'Fixture Social Ads (made up) (89)' }).check();
    await page.getByLabel("Search Google's ATP list").fill('3');
    await page.getByRole('checkbox', { name: 'Fixture Ad Partner (made up) (3)' }).check();
    expect(await page.locator('#atp-selection').textContent()).toBe(
      '2 ATPs chosen: Fixture Ad Partner (made up); Fixture Social Ads (made up).',
    );

    await page.getByLabel('Site group name').fill('Daily News Group');
    await page.getByLabel('URL of the page listing its sites').fill('https://news.example/our-sites');

    // The fields are in the config JSON as they change; an edit of the JSON shows in the fields.
    const expected = {
      cmpId: 300,
      cmpVersion: 1,
      vendors: [1, 8, 52],
      publisherRestrictions: [{ purpose: 2, type: 'requireLi', vendors: [8] }],
      publisherPurposes: {
        consent: [1, 3],
        legitimateInterest: [7],
        custom: [{ id: 1, name: 'Newsletter', description: 'Our weekly letter', legalBasis: 'consent' }],
      },
      googleAtps: [3, 89],
      siteGroup: { name: 'Daily News Group', url: 'https://news.example/our-sites' },
    };
    const editor = page.locator('#config');
    expect(JSON.parse(await editor.inputValue()).tcf).toEqual(expected);
    await editor.fill((await editor.inputValue()).replace('Daily News Group', 'Daily News Sites'));
    expect(await page.getByLabel('Site group name').inputValue()).toBe('Daily News Sites');
    await page.getByLabel('Site group name').fill('Daily News Group');

    // Nothing the server would refuse is listed under the fields.
    expect(await page.locator('#tcf-settings-problems li').allTextContents()).toEqual([]);
    // At 375 px nothing is wider than the screen; every control is labelled.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    const { violations } = await new AxeBuilder({ page }).include('#vendors-section').analyze();
    expect(violations.map((violation) => violation.id)).toEqual([]);

    await page.getByRole('button', { name: 'Save TCF settings' }).click();
    await expect
      .poll(() => page.locator('#status').textContent())
      .toMatch(/^Saved the TCF settings of tcf-publisher-fields: 3 vendors/);
    expect((await api(INSTANCE)).config.tcf).toEqual(expected);

    // Reloaded, the fields read the stored settings back.
    await page.reload();
    await page.locator('#vendors-section').waitFor({ state: 'visible' });
    await page.locator('#instance').selectOption(INSTANCE);
    await expect.poll(() => page.getByLabel('Site group name').inputValue()).toBe('Daily News Group');
    expect(await restriction.getByLabel('Purpose').inputValue()).toBe('2');
    expect(await restriction.getByLabel('Type').inputValue()).toBe('requireLi');
    expect(await restriction.getByRole('checkbox', { name: 'Demo Bidder (8)' }).isChecked()).toBe(true);
    expect(await page.locator('#publisher-li').getByRole('checkbox', { name: /^7\. / }).isChecked()).toBe(true);
    expect(await custom.getByLabel('Name').inputValue()).toBe('Newsletter');
    expect(await page.getByRole('radio', { name: 'Chosen ATPs' }).isChecked()).toBe(true);
    await expect
      .poll(() => page.locator('#atp-selection').textContent())
      .toBe('2 ATPs chosen: Fixture Ad Partner (made up); Fixture Social Ads (made up).');

    // Require legitimate interest on purpose 1 (consent only): the server's 400 shows beside the fields; nothing is stored.
    await restriction.getByLabel('Purpose').selectOption('1');
    expect(await page.locator('#tcf-settings-problems li').allTextContents()).toEqual([
      '[admin#config] consent-tcf-restriction-invalid: expected tcf.publisherRestrictions[0].purpose: a purpose requireLi can apply to (2, 7, 8, 9, 10, 11; purposes 1 and 3 to 6 are consent only), got 1',
    ]);
    await page.getByRole('button', { name: 'Save TCF settings' }).click();
    const refusal =
      'tcf.publisherRestrictions[0].purpose: expected a purpose requireLi can apply to (2, 7, 8, 9, 10, 11; purposes 1 and 3 to 6 are consent only), got 1';
    await expect.poll(() => page.locator('#tcf-error').textContent()).toBe(refusal);
    expect(await page.getByRole('alert').filter({ hasText: refusal }).count()).toBe(1);
    expect((await api(INSTANCE)).config.tcf).toEqual(expected);
    // The same refusal for the config editor's save, beside both.
    await page.getByRole('button', { name: 'Save config' }).click();
    await expect.poll(() => page.locator('#config-error').textContent()).toBe(refusal);
    expect(await page.locator('#tcf-error').textContent()).toBe(refusal);
    expect(problems(admin).filter((text) => !text.includes('status of 400'))).toEqual([]);
  }, 60_000);
});
