/**
 * Publisher restrictions reach a real Prebid.js (docs/consent.md, "Publisher restrictions and
 * purposes"): the inline prompt's TC string carries `tcf.publisherRestrictions`, `__tcfapi`
 * reports them in `publisher.restrictions`, and Prebid's `tcfControl` drops a bidder whose GVL
 * vendor is "not allowed" purpose 2 from the auction while an unrestricted one bids. A bad entry
 * and one the vendor list does not allow are reported once each, and the rest still applies.
 */
import { readFileSync } from 'node:fs';
import { PurposeRestriction, RestrictionType, TCString } from '@iabtechlabtcf/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idsOf } from '../../src/tcf/tc-string.ts';
import { consentPage, diagnosticsOf } from './consent-fixtures.ts';
import { launchBrowser, newPage, startServer, type TestServer } from './harness.ts';
import { bundlePrebid } from './prebid-fixture.ts';

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  const prebid = await bundlePrebid(['tcfControl']);
  browser = await launchBrowser();
  server = await startServer({
    '/prebid.js': { body: prebid, headers: { 'content-type': 'text/javascript' } },
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

/**
 * Two recording bidders on GVL vendors 1 ("alpha") and 8 ("beta"), their legal bases as the
 * fixture GVL declares them, and `tcfControl`'s default rules (purposes 1 and 2, vendors
 * enforced). `runAuction()` resolves with the bidders whose requests were built.
 */
const PREBID = `<script>
  window.pbjs = window.pbjs || { que: [] };
  window.called = [];
  pbjs.que.push(() => {
    for (const code of ['alpha', 'beta'])
      pbjs.registerBidAdapter(undefined, code, {
        code,
        supportedMediaTypes: ['banner'],
        isBidRequestValid: () => true,
        buildRequests(bids) {
          window.called.push(code);
          return [];
        },
        interpretResponse: () => [],
      });
    pbjs.setConfig({
      debug: true,
      consentManagement: { gdpr: { cmpApi: 'iab', timeout: 10000 } },
      gvlMapping: { alpha: 1, beta: 8 },
      gvlLegalBasisMapping: {
        1: { purposes: [1, 2, 3, 4], legIntPurposes: [7, 10], flexiblePurposes: [2, 7, 10], specialFeatures: [1] },
        8: { purposes: [1, 2, 3, 4, 7], legIntPurposes: [], flexiblePurposes: [2, 7], specialFeatures: [1, 2] },
      },
    });
    pbjs.addAdUnits([{ code: 'slot', mediaTypes: { banner: { sizes: [[300, 250]] } },
      bids: [{ bidder: 'alpha', params: {} }, { bidder: 'beta', params: {} }] }]);
  });
  window.runAuction = () =>
    new Promise((resolve) => {
      window.called = [];
      const timer = setTimeout(() => resolve('cancelled'), 15000);
      pbjs.que.push(() =>
        pbjs.requestBids({
          timeout: 2000,
          bidsBackHandler: () => {
            clearTimeout(timer);
            resolve([...window.called].sort());
          },
        }),
      );
    });
</script>
<script async src="/prebid.js"></script>`;

const NOT_ALLOWED = { purpose: 2, type: 'notAllowed', vendors: [8] };

let count = 0;
async function open(tcf: object) {
  const n = ++count;
  const config = {
    consentInstanceId: `restricted-${n}`,
    consentRequired: true,
    promptUI: 'prompt',
    postPromptUI: 'post',
    exposesTcfApi: true,
    cmpId: 300,
    cmpVersion: 2,
    tcf: { vendorListHref: '/tcf/vendor-list.json', vendors: [1, 8], publisherCountryCode: 'DE', ...tcf },
  };
  server.page(`/restricted-${n}.html`, consentPage(config, { body: PREBID }));
  const test = await newPage(browser);
  await test.page.goto(`${server.origin}/restricted-${n}.html`);
  await test.page.waitForSelector('page-consent.page-built', { state: 'attached' });
  return test;
}

const runAuction = (page: Page) =>
  page.evaluate(() => (window as never as { runAuction(): Promise<string[] | string> }).runAuction());
const tcData = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<{ tcString: string; publisher?: { restrictions: unknown } }>((resolve) =>
        (window as never as { __tcfapi: (...args: unknown[]) => void }).__tcfapi('getTCData', 2, resolve),
      ),
  );

describe('publisher restrictions with Prebid.js tcfControl', () => {
  it('lets both bidders bid after accept when nothing is restricted', async () => {
    const { page } = await open({});
    await page.click('#accept');
    expect(await runAuction(page)).toEqual(['alpha', 'beta']);
    expect((await tcData(page)).publisher?.restrictions).toEqual({});
  });

  it('drops the bidder whose vendor is not allowed purpose 2, and the unrestricted one bids', async () => {
    const { page, messages } = await open({ publisherRestrictions: [NOT_ALLOWED] });
    await page.click('#accept');
    expect(await runAuction(page)).toEqual(['alpha']);
    const data = await tcData(page);
    expect(data.publisher?.restrictions).toEqual({ 2: { 8: 0 } });
    // The string still consents to vendor 8 (its other purposes are consented); the restriction is what drops it.
    const model = TCString.decode(data.tcString);
    expect(idsOf(model.vendorConsents)).toEqual([1, 8]);
    expect(model.publisherRestrictions.getVendors(new PurposeRestriction(2, RestrictionType.NOT_ALLOWED))).toEqual([8]);
    expect(messages.filter((line) => line.text.includes('[page-'))).toEqual([]);
  });

  it('reports a bad entry and a restriction the vendor list does not allow once each; the rest still applies', async () => {
    const { page, messages } = await open({
      publisherRestrictions: [
        { purpose: 1, type: 'requireLi', vendors: [1] },
        NOT_ALLOWED,
        // Vendor 8 declares purpose 10 on neither basis.
        { purpose: 10, type: 'requireConsent', vendors: [8] },
      ],
    });
    await page.click('#accept');
    expect(await runAuction(page)).toEqual(['alpha']);
    expect((await tcData(page)).publisher?.restrictions).toEqual({ 2: { 8: 0 } });
    const invalid = diagnosticsOf(messages, 'consent-tcf-restriction-invalid');
    const unused = diagnosticsOf(messages, 'consent-tcf-restriction-unused');
    expect(invalid.map((line) => line.text)).toEqual([
      expect.stringContaining('tcf.publisherRestrictions[0].purpose: a purpose requireLi can apply to'),
    ]);
    expect(unused.map((line) => line.text)).toEqual([
      expect.stringMatching(/tcf\.publisherRestrictions \(requireConsent on purpose 10\): .*, got \[8\]$/),
    ]);
    // A second decision reports nothing new.
    await page.click('#manage');
    await page.click('#reject');
    expect(await runAuction(page)).toEqual([]);
    expect(diagnosticsOf(messages, 'consent-tcf-restriction-unused')).toHaveLength(1);
    expect(diagnosticsOf(messages, 'consent-tcf-restriction-invalid')).toHaveLength(1);
  });
});
