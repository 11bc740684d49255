import { readFileSync } from 'node:fs';
import { TCString } from '@iabtechlabtcf/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtProbes, consentPage, probe, storedValues, SVG, vendorCall } from './consent-fixtures.ts';
import { launchBrowser, newPage, settled, startServer, type TestServer } from './harness.ts';

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({
    '/img.svg': SVG,
    '/blocked.js': {
      body: 'window.ranExternal = (window.ranExternal || 0) + 1;',
      headers: { 'content-type': 'text/javascript' },
    },
    '/tcf/vendor-list.json': {
      body: readFileSync('fixtures/tcf/vendor-list.json', 'utf8'),
      headers: { 'content-type': 'application/json' },
    },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const CLIENT = { consentInstanceId: 'site', consentRequired: true, promptUI: 'prompt', postPromptUI: 'post' };

let count = 0;
async function open(config: object, options: Parameters<typeof consentPage>[1] = {}) {
  const path = `/blocking-${++count}.html`;
  server.page(path, consentPage(config, options));
  const test = await newPage(browser);
  await test.page.goto(server.origin + path);
  await test.page.waitForSelector('page-consent.page-built', { state: 'attached' });
  return test;
}

describe('blocking policies', () => {
  it('resolves every policy state through the vendor API', async () => {
    const { page } = await open(CLIENT);
    await page.click('#reject');
    expect(await vendorCall(page, 'getPolicyState')).toBe('insufficient');
    expect(await vendorCall(page, 'getPolicyState', '_till_responded')).toBe('insufficient');
    expect(await vendorCall(page, 'getConsentString')).toBeNull();
    expect(await vendorCall(page, 'getPurposeConsents')).toEqual({});
  });

  it('counts the prompt as skipped when there is no prompt UI: unknown at once, _till_responded builds', async () => {
    const { page } = await open({ consentInstanceId: 'site', consentRequired: true }, { inside: '' });
    expect(await vendorCall(page, 'getPolicyState')).toBe('unknown');
    expect(await vendorCall(page, 'getPolicyState', '_till_responded')).toBe('unknown');
    await expect.poll(() => builtProbes(page)).toEqual(['open', 'till-responded', 'auto-reject']);
  });
});

describe('purpose blocking', () => {
  const inside = `<div id="prompt">
      <button id="ads" on="tap:consent.setPurpose(ads=true)">Ads</button>
      <button id="no-ads" on="tap:consent.setPurpose(ads=false)">No ads</button>
      <button id="accept" on="tap:consent.accept">Accept</button>
      <button id="reject" on="tap:consent.reject">Reject</button></div>
    <div id="post"><button id="manage" on="tap:consent.prompt">Settings</button></div>`;
  const body = [
    probe('ads-only', 'data-block-on-consent-purposes="ads"'),
    probe('ads-and-default', 'data-block-on-consent data-block-on-consent-purposes="ads"'),
  ].join('');

  it('builds a purpose-blocked element when its purpose is accepted, even if consent is rejected', async () => {
    const { page } = await open(CLIENT, { inside, body });
    await page.click('#ads');
    await page.click('#reject');
    await expect.poll(() => builtProbes(page)).toEqual(['ads-only']);
  });

  it('needs both markers when an element has a policy and purposes', async () => {
    const { page } = await open(CLIENT, { inside, body });
    await page.click('#ads');
    await page.click('#accept');
    await expect.poll(() => builtProbes(page)).toEqual(['ads-only', 'ads-and-default']);
  });

  it('keeps purpose-blocked elements blocked when the purpose is not chosen, and unlays them on withdrawal', async () => {
    const { page } = await open(CLIENT, { inside, body });
    await page.click('#accept');
    await settled(page);
    expect(await builtProbes(page)).toEqual([]);
    await page.click('#manage');
    await page.click('#ads');
    await page.click('#accept');
    await expect.poll(() => builtProbes(page)).toEqual(['ads-only', 'ads-and-default']);
    await page.click('#manage');
    await page.click('#no-ads');
    await page.click('#accept');
    await expect.poll(() => builtProbes(page)).toEqual([]);
    expect((await storedValues(page))['consent:site']).toMatchObject({ purposeConsents: { ads: false } });
  });

  it('rejects a purpose accepted on an earlier visit on a plain reject: unlaid, stored false, out of the TC string', async () => {
    const tcf = {
      vendorListHref: '/tcf/vendor-list.json',
      vendors: [1, 2, 8, 25, 91],
      purposes: { ads: [2, 3, 4] },
      publisherCountryCode: 'DE',
    };
    const { page } = await open({ ...CLIENT, exposesTcfApi: true, cmpId: 300, cmpVersion: 2, tcf }, { inside, body });
    await page.click('#ads');
    await page.click('#accept');
    await page.reload();
    await page.waitForSelector('page-consent.page-built', { state: 'attached' });
    await expect.poll(() => builtProbes(page)).toEqual(['ads-only', 'ads-and-default']);
    await page.click('#manage');
    await page.click('#reject');
    await expect.poll(() => builtProbes(page)).toEqual([]);
    const stored = () =>
      storedValues(page).then(
        (values) => values['consent:site'] as { state: string; purposeConsents: object; consentString?: string },
      );
    await expect.poll(stored).toMatchObject({ state: 'rejected', consentString: expect.any(String) });
    const { state, purposeConsents, consentString } = await stored();
    expect({ state, purposeConsents }).toEqual({ state: 'rejected', purposeConsents: { ads: false } });
    const decoded = TCString.decode(consentString!);
    expect([2, 3, 4].map((id) => decoded.purposeConsents.has(id))).toEqual([false, false, false]);
  });
});

describe('text/plain scripts', () => {
  const scripts = `
    <script type="text/plain" data-block-on-consent>window.ranInline = (window.ranInline || 0) + 1;</script>
    <script type="text/plain" data-block-on-consent src="/blocked.js"></script>
    <script type="text/plain" data-block-on-consent="_till_responded">window.ranResponded = 1;</script>`;
  const ran = (page: Page) =>
    page.evaluate(() => {
      const w = window as unknown as Record<string, number | undefined>;
      return [w.ranInline ?? 0, w.ranExternal ?? 0, w.ranResponded ?? 0];
    });

  it('runs blocked scripts once, when consent allows them', async () => {
    const { page } = await open(CLIENT, { body: scripts });
    await settled(page);
    expect(await ran(page)).toEqual([0, 0, 0]);
    expect(server.requestsTo('/blocked.js')).toHaveLength(0);
    await page.click('#reject');
    await expect.poll(() => ran(page)).toEqual([0, 0, 1]);
    await page.click('#manage');
    await page.click('#accept');
    await expect.poll(() => ran(page)).toEqual([1, 1, 1]);
    await page.click('#manage');
    await page.click('#accept');
    await settled(page);
    expect(await ran(page)).toEqual([1, 1, 1]);
  });
});
