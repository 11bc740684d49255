/**
 * The TC-string diagnostics of the TCF part in Chromium (docs/errors.md): a vendor list that
 * arrives but is not a usable GVL (`consent-tcf-vendor-list-invalid`), and a string the IAB
 * library refuses to encode (`consent-tcf-string-failed`). Each is reported once, the decision
 * still applies and is stored, and `__tcfapi` answers without a string.
 */
import { readFileSync } from 'node:fs';
import { TCString } from '@iabtechlabtcf/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idsOf } from '../../src/tcf/tc-string.ts';
import { consentPage, diagnosticsOf, storedValues } from './consent-fixtures.ts';
import { launchBrowser, newPage, startServer, type TestServer } from './harness.ts';

let browser: Browser;
let server: TestServer;

const JSON_TYPE = { 'content-type': 'application/json' };
const GVL = JSON.parse(readFileSync('fixtures/tcf/vendor-list.json', 'utf8'));
/** The fixture with vendor 8's purposes replaced by a text: that entry is dropped, the rest is usable. */
const ONE_BAD_VENDOR = { ...GVL, vendors: { ...GVL.vendors, 8: { ...GVL.vendors['8'], purposes: 'all of them' } } };
/** The fixture with vendor 1 declaring purpose 30, which the list does not define: well-formed, but the IAB library cannot encode under it. */
const UNDEFINED_PURPOSE = { ...GVL, vendors: { ...GVL.vendors, 1: { ...GVL.vendors['1'], purposes: [1, 30] } } };

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({
    '/gvl/unusable.json': { body: { vendorListVersion: 142, purposes: {}, vendors: [] }, headers: JSON_TYPE },
    '/gvl/one-bad-vendor.json': { body: ONE_BAD_VENDOR, headers: JSON_TYPE },
    '/gvl/good.json': { body: GVL, headers: JSON_TYPE },
    '/gvl/undefined-purpose.json': { body: UNDEFINED_PURPOSE, headers: JSON_TYPE },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

let count = 0;
async function open(config: object) {
  const n = ++count;
  const full = {
    consentInstanceId: `site-${n}`,
    consentRequired: true,
    promptUI: 'prompt',
    postPromptUI: 'post',
    exposesTcfApi: true,
    cmpId: 300,
    cmpVersion: 2,
    ...config,
  };
  server.page(`/diagnostics-${n}.html`, consentPage(full, { body: '' }));
  const test = await newPage(browser);
  await test.page.goto(`${server.origin}/diagnostics-${n}.html`);
  await test.page.click('#accept');
  return { ...test, key: `consent:site-${n}` };
}
const tcf = (vendorListHref: string) => ({ vendorListHref, vendors: [1, 2, 8, 25, 91], publisherCountryCode: 'DE' });
const tcData = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<Record<string, unknown>>((resolve) =>
        (window as never as { __tcfapi: (...args: unknown[]) => void }).__tcfapi('getTCData', 2, resolve),
      ),
  );

describe('TC-string diagnostics', () => {
  it('consent-tcf-vendor-list-invalid: a GVL without the fields a string needs is reported, naming them; the decision applies without a string', async () => {
    const { page, messages, key } = await open({ tcf: tcf('/gvl/unusable.json') });
    await expect
      .poll(() => diagnosticsOf(messages, 'consent-tcf-vendor-list-invalid').length, { timeout: 20_000 })
      .toBeGreaterThan(0);
    await expect.poll(async () => (await tcData(page)).eventStatus, { timeout: 20_000 }).toBe('useractioncomplete');
    expect(await tcData(page)).toMatchObject({ tcString: '', gdprApplies: true, cmpStatus: 'loaded' });
    const lines = diagnosticsOf(messages, 'consent-tcf-vendor-list-invalid').map((line) => line.text);
    expect(
      lines.every((line) => line.startsWith('[page-consent#consent] consent-tcf-vendor-list-invalid: expected')),
    ).toBe(true);
    expect(lines.join('\n')).toContain('tcfPolicyVersion');
    // A warning, as docs/errors.md grades it: the decision still applies.
    expect(diagnosticsOf(messages, 'consent-tcf-vendor-list-invalid').map((line) => line.type)).not.toContain('error');
    expect((await storedValues(page))[key]).toMatchObject({ state: 'accepted' });
    expect((await storedValues(page))[key]).not.toHaveProperty('consentString');
  }, 120_000);

  it('consent-tcf-vendor-list-invalid: a malformed vendor is dropped and named; the string is built without it', async () => {
    const { page, messages } = await open({ tcf: tcf('/gvl/one-bad-vendor.json') });
    await expect.poll(async () => (await tcData(page)).tcString, { timeout: 20_000 }).toMatch(/^C/);
    const lines = diagnosticsOf(messages, 'consent-tcf-vendor-list-invalid');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.text).toContain('vendors.8.purposes');
    const model = TCString.decode((await tcData(page)).tcString as string);
    expect(idsOf(model.vendorConsents)).toEqual([1, 2]);
  }, 120_000);

  it('consent-tcf-string-failed: a vendor list the IAB library cannot encode under is reported once; the decision applies without a string', async () => {
    const { page, messages, key } = await open({ tcf: tcf('/gvl/undefined-purpose.json') });
    await expect.poll(() => diagnosticsOf(messages, 'consent-tcf-string-failed').length, { timeout: 20_000 }).toBe(1);
    expect(diagnosticsOf(messages, 'consent-tcf-string-failed')[0]!.text).toMatch(
      /^\[page-consent#consent\] consent-tcf-string-failed: expected a TC string the IAB library encodes, got .*Error/,
    );
    await expect.poll(async () => (await tcData(page)).eventStatus, { timeout: 20_000 }).toBe('useractioncomplete');
    expect(await tcData(page)).toMatchObject({ tcString: '', gdprApplies: true });
    expect(
      await page.evaluate(
        () => (window as never as { consentEvents: { state: string }[] }).consentEvents.at(-1)?.state,
      ),
    ).toBe('accepted');
    expect((await storedValues(page))[key]).toMatchObject({ state: 'accepted' });
  }, 120_000);
});
