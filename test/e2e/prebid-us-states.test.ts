/**
 * Prebid.js's US activity controls on our GPP strings (docs/consent.md, "US privacy: GPP
 * sections"): the reference server, behind a trusted proxy, places the reader in a state from the
 * CDN's headers (docs/geo.md), the reader's decision gives that state's section or `usnat`, and
 * Prebid's `gppControl_usstates` and `gppControl_usnat` decide from the string whether the bidder
 * receives the reader's user ids (`transmitEids`) and may sync (`syncUser`). The proxy is played by
 * the browser context, which adds Cloudflare's headers to every request it sends.
 */
import { GppModel } from '@iabgpp/cmpapi';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentPage } from './consent-fixtures.ts';
import { launchBrowser, newPage, startServer, type TestPage, type TestServer } from './harness.ts';
import { type GeoReference, startGeoReference } from './reference-geo.ts';
import { bundlePrebid, prebidSetup } from './prebid-fixture.ts';

let browser: Browser;
let server: TestServer;
let reference: GeoReference;
let referenceOrigin = '';

beforeAll(async () => {
  const prebid = await bundlePrebid(['gppControl_usnat', 'gppControl_usstates']);
  browser = await launchBrowser();
  server = await startServer({
    '/prebid.js': { body: prebid, headers: { 'content-type': 'text/javascript' } },
    '/update': { body: { receiptId: null } },
    '/sync.gif': { status: 204 },
  });
  reference = await startGeoReference();
  referenceOrigin = reference.origin;
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await reference?.close();
});

const CONFIG = {
  consentRequired: true,
  promptUI: 'prompt',
  postPromptUI: 'post',
  gpc: 'reject',
  onUpdateHref: '/update',
  exposesGppApi: true,
  gpp: {
    approach: 'state',
    usnat: {
      SharingNotice: 1,
      SaleOptOutNotice: 1,
      SharingOptOutNotice: 1,
      TargetedAdvertisingOptOutNotice: 1,
      SensitiveDataProcessingOptOutNotice: 1,
      SensitiveDataLimitUseNotice: 1,
      MspaCoveredTransaction: 2,
      MspaOptOutOptionMode: 0,
      MspaServiceProviderMode: 0,
    },
  },
};

let count = 0;
/** A page with our prompt and Prebid, `<page-geo>` from the reference server, opened by a reader the CDN places in `state`. */
async function open(state: string, hasGpc: boolean): Promise<TestPage> {
  const n = ++count;
  const page = consentPage(
    { ...CONFIG, consentInstanceId: `states-${n}` },
    {
      body: `<p><button id="do-not-sell" on="tap:consent.optOut">Do Not Sell or Share My Personal Information</button></p>
        ${prebidSetup(['gpp'], 10000, { activities: true })}`,
      geo: { ISOCountryGroups: { us: ['us'] } },
    },
  ).replace('src="/v0/page-geo-0.1.js"', `src="${referenceOrigin}/v0/page-geo-0.1.js"`);
  server.page(`/states-${n}.html`, page);
  const test = await newPage(browser, { extraHTTPHeaders: { 'cf-ipcountry': 'US', 'cf-region-code': state } });
  if (hasGpc)
    await test.page.addInitScript(() =>
      Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }),
    );
  await test.page.goto(`${server.origin}/states-${n}.html`);
  await test.page.waitForSelector('page-consent.page-built', { state: 'attached' });
  return test;
}

type Saw = {
  gppConsent?: { gppString: string; applicableSections: number[] };
  eids?: { source: string }[] | null;
};
const runAuction = (page: Page) =>
  page.evaluate(() => (window as never as { runAuction(): Promise<Saw | string> }).runAuction()) as Promise<Saw>;

/** Prebid's activity controls denied the bidder's user sync: its log says so, and no sync was requested since `before`. */
async function expectSyncDenied({ messages }: TestPage, before: number) {
  await expect
    .poll(() => messages.some((line) => /denied 'syncUser' for 'bidder\.recorder'/.test(line.text)))
    .toBe(true);
  expect(server.requestsTo('/sync.gif')).toHaveLength(before);
}
/** The bidder's image sync was fired. */
const expectSynced = async (before: number) =>
  expect.poll(() => server.requestsTo('/sync.gif').length).toBeGreaterThan(before);

describe('Prebid.js activity controls on GPP state sections', () => {
  it('denies user ids and syncs for a California reader with GPC: a usca section opted out of sale and sharing', async () => {
    const test = await open('CA', true);
    const before = server.requestsTo('/sync.gif').length;
    const saw = await runAuction(test.page);
    expect(saw.gppConsent!.applicableSections).toEqual([8]);
    const usca = new GppModel(saw.gppConsent!.gppString);
    expect([usca.getFieldValue('usca', 'SaleOptOut'), usca.getFieldValue('usca', 'SharingOptOut')]).toEqual([1, 1]);
    expect(saw.eids).toBeNull();
    await expectSyncDenied(test, before);
  });

  it('lets a California reader without GPC who accepts through: ids passed and the sync fired', async () => {
    const test = await open('CA', false);
    await test.page.click('#accept');
    const before = server.requestsTo('/sync.gif').length;
    const saw = await runAuction(test.page);
    expect(saw.gppConsent!.applicableSections).toEqual([8]);
    expect(new GppModel(saw.gppConsent!.gppString).getFieldValue('usca', 'SaleOptOut')).toBe(2);
    expect(saw.eids).toEqual([{ source: 'id.example', uids: [{ id: 'reader-1', atype: 1 }] }]);
    await expectSynced(before);
  });

  it('denies user ids and syncs for a Virginia reader who used the Do-Not-Sell control: usva opted out', async () => {
    const test = await open('VA', false);
    await test.page.click('#do-not-sell');
    const before = server.requestsTo('/sync.gif').length;
    const saw = await runAuction(test.page);
    expect(saw.gppConsent!.applicableSections).toEqual([9]);
    const usva = new GppModel(saw.gppConsent!.gppString);
    expect([usva.getFieldValue('usva', 'SaleOptOut'), usva.getFieldValue('usva', 'TargetedAdvertisingOptOut')]).toEqual(
      [1, 1],
    );
    expect(saw.eids).toBeNull();
    await expectSyncDenied(test, before);
  });

  it('runs a full auction for a Texas reader with no opt-out (ustx)', async () => {
    const test = await open('TX', false);
    await test.page.click('#accept');
    const before = server.requestsTo('/sync.gif').length;
    const saw = await runAuction(test.page);
    expect(saw.gppConsent!.applicableSections).toEqual([16]);
    expect(new GppModel(saw.gppConsent!.gppString).getFieldValue('ustx', 'SaleOptOut')).toBe(2);
    expect(saw.eids).toHaveLength(1);
    await expectSynced(before);
  });

  it('gives a reader in a state without a section usnat, which Prebid enforces: reject denies ids and syncs', async () => {
    const test = await open('NY', false);
    await test.page.click('#reject');
    const before = server.requestsTo('/sync.gif').length;
    const saw = await runAuction(test.page);
    expect(saw.gppConsent!.applicableSections).toEqual([7]);
    expect(new GppModel(saw.gppConsent!.gppString).getFieldValue('usnat', 'SaleOptOut')).toBe(1);
    expect(saw.eids).toBeNull();
    await expectSyncDenied(test, before);
  });
});
