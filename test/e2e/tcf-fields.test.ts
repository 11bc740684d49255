/**
 * `__tcfapi` field by field against the IAB TCF CMP API (v2.2, as v2.3 keeps it) in Chromium
 * (docs/consent.md, "IAB TCF (`__tcfapi`)"): `ping` and the TCData of `getTCData` and
 * `addEventListener`, with their types and values, in the three states a vendor meets: the head
 * stub before the full API loaded, the full API while the prompt shows, and after the reader's
 * decision.
 */
import { readFileSync } from 'node:fs';
import { TCString } from '@iabtechlabtcf/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentPage } from './consent-fixtures.ts';
import { launchBrowser, newPage, startServer, type TestServer } from './harness.ts';

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({
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

const CONFIG = {
  consentInstanceId: 'fields',
  consentRequired: true,
  promptUI: 'prompt',
  postPromptUI: 'post',
  exposesTcfApi: true,
  cmpId: 300,
  cmpVersion: 2,
  tcf: {
    vendorListHref: '/tcf/vendor-list.json',
    vendors: [1, 2, 8, 25, 91],
    specialFeatures: [1],
    publisherCountryCode: 'DE',
  },
};

type Data = Record<string, unknown>;
type Api = (...args: unknown[]) => void;
/** The page's calls and what they got: `calls[name]` lists every callback's [data, success]. */
const record = (page: Page, name: string, command: string) =>
  page.evaluate(
    ([key, wanted]) => {
      const scope = window as never as { __tcfapi: Api; calls?: Record<string, unknown[]> };
      const calls = (scope.calls ??= {});
      calls[key] = [];
      scope.__tcfapi(wanted, 2, (data: unknown, success: boolean) =>
        (calls[key] as unknown[]).push(JSON.parse(JSON.stringify([data ?? null, success]))),
      );
    },
    [name, command] as const,
  );
const answers = (page: Page, name: string) =>
  page.evaluate((key) => (window as never as { calls: Record<string, [Data, boolean][]> }).calls[key]!, name);
const ping = async (page: Page) => {
  await record(page, 'ping', 'ping');
  return (await answers(page, 'ping'))[0]!;
};

/** Every key an integer id, every value a boolean (the spec's "boolean vector" objects). */
const isIdMap = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.entries(value).every(([key, flag]) => /^[1-9]\d*$/.test(key) && typeof flag === 'boolean');
const trueIds = (value: unknown) =>
  Object.entries(value as Record<string, boolean>)
    .filter(([, flag]) => flag)
    .map(([key]) => Number(key));

/** The types the spec gives each TCData field; `listenerId` is checked apart. */
function expectTcData(data: Data) {
  const types = Object.fromEntries(
    [
      'tcString',
      'tcfPolicyVersion',
      'cmpId',
      'cmpVersion',
      'gdprApplies',
      'eventStatus',
      'cmpStatus',
      'isServiceSpecific',
      'useNonStandardTexts',
      'publisherCC',
      'purposeOneTreatment',
    ].map((key) => [key, typeof data[key]]),
  );
  expect(types).toEqual({
    tcString: 'string',
    tcfPolicyVersion: 'number',
    cmpId: 'number',
    cmpVersion: 'number',
    gdprApplies: 'boolean',
    eventStatus: 'string',
    cmpStatus: 'string',
    isServiceSpecific: 'boolean',
    useNonStandardTexts: 'boolean',
    publisherCC: 'string',
    purposeOneTreatment: 'boolean',
  });
  expect(data).toMatchObject({
    cmpId: 300,
    cmpVersion: 2,
    gdprApplies: true,
    cmpStatus: 'loaded',
    isServiceSpecific: true,
    useNonStandardTexts: false,
    purposeOneTreatment: false,
  });
  expect(data).not.toHaveProperty('outOfBand');
  const { purpose, vendor, specialFeatureOptins, publisher } = data as Record<string, Record<string, unknown>>;
  expect([isIdMap(purpose!.consents), isIdMap(purpose!.legitimateInterests)]).toEqual([true, true]);
  expect([isIdMap(vendor!.consents), isIdMap(vendor!.legitimateInterests)]).toEqual([true, true]);
  expect(isIdMap(specialFeatureOptins)).toBe(true);
  const custom = publisher!.customPurpose as Record<string, unknown>;
  expect([
    isIdMap(publisher!.consents),
    isIdMap(publisher!.legitimateInterests),
    isIdMap(custom.consents),
    isIdMap(custom.legitimateInterests),
  ]).toEqual([true, true, true, true]);
  expect(typeof publisher!.restrictions).toBe('object');
}

describe('__tcfapi fields (TCF CMP API)', () => {
  it('answers ping and TCData as the spec gives them: in the stub, while the prompt shows, and after a decision', async () => {
    server.page(
      '/fields.html',
      consentPage(CONFIG, { body: '' }).replace('<head>', '<head><script src="/v0/page-consent-stub-0.1.js"></script>'),
    );
    const { page, messages } = await newPage(browser);
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/page-consent-tcf-0.1.js', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${server.origin}/fields.html`, { waitUntil: 'domcontentloaded' });

    // The stub: ping at once, with no CMP or GDPR facts yet; getTCData and addEventListener wait.
    expect(await ping(page)).toEqual([
      { cmpLoaded: false, cmpStatus: 'stub', displayStatus: 'hidden', apiVersion: '2.2' },
      true,
    ]);
    await record(page, 'early', 'getTCData');
    await record(page, 'listener', 'addEventListener');
    await page.waitForSelector('#prompt', { state: 'visible' });
    expect([await answers(page, 'early'), await answers(page, 'listener')]).toEqual([[], []]);

    // The full API while the prompt shows.
    release();
    await expect.poll(async () => (await ping(page))[0].cmpStatus, { timeout: 20_000 }).toBe('loaded');
    const [shown] = await ping(page);
    // No gvlVersion before a string: the spec's "undefined until known".
    expect(shown).toEqual({
      gdprApplies: true,
      cmpLoaded: true,
      cmpStatus: 'loaded',
      displayStatus: 'visible',
      apiVersion: '2.2',
      cmpId: 300,
      cmpVersion: 2,
      tcfPolicyVersion: 5,
    });
    await expect.poll(async () => (await answers(page, 'listener')).length).toBe(1);
    const [[first, firstSuccess]] = (await answers(page, 'listener')) as [[Data, boolean]];
    expect(firstSuccess).toBe(true);
    expect(first).toMatchObject({
      eventStatus: 'cmpuishown',
      tcString: '',
      gdprApplies: true,
      cmpStatus: 'loaded',
      cmpId: 300,
      cmpVersion: 2,
      isServiceSpecific: true,
    });
    expect(typeof first.listenerId).toBe('number');
    expect(first).not.toHaveProperty('outOfBand');
    expect(first).not.toHaveProperty('enableAdvertiserConsentMode');
    // The early getTCData waited in the stub's queue and got the same state, without a listener id.
    const [[early, earlySuccess]] = (await answers(page, 'early')) as [[Data, boolean]];
    expect([earlySuccess, early.eventStatus, early.tcString, early.listenerId]).toEqual([
      true,
      'cmpuishown',
      '',
      undefined,
    ]);

    // After the decision.
    await page.click('#accept');
    await expect
      .poll(async () => (await answers(page, 'listener')).map(([data]) => data.eventStatus), { timeout: 20_000 })
      .toContain('useractioncomplete');
    const complete = (await answers(page, 'listener')).filter(([data]) => data.eventStatus === 'useractioncomplete');
    expect(complete).toHaveLength(1);
    const [listened, listenedSuccess] = complete[0]!;
    expect(listenedSuccess).toBe(true);
    expectTcData(listened);
    expect(listened.listenerId).toBe(first.listenerId);
    expect([listened.tcfPolicyVersion, listened.publisherCC]).toEqual([5, 'DE']);
    const model = TCString.decode(listened.tcString as string);
    expect(model.cmpId).toBe(300);
    const { purpose, vendor, specialFeatureOptins } = listened as Record<string, Record<string, unknown>>;
    expect(trueIds(purpose!.consents)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(trueIds(vendor!.consents)).toEqual([1, 2, 8]);
    expect(trueIds(specialFeatureOptins)).toEqual([1]);

    await record(page, 'after', 'getTCData');
    const [[after, afterSuccess]] = (await answers(page, 'after')) as [[Data, boolean]];
    expect(afterSuccess).toBe(true);
    expectTcData(after);
    expect([after.tcString, after.eventStatus, after.listenerId]).toEqual([
      listened.tcString,
      'useractioncomplete',
      undefined,
    ]);
    const [decided] = await ping(page);
    expect(decided).toEqual({
      gdprApplies: true,
      cmpLoaded: true,
      cmpStatus: 'loaded',
      displayStatus: 'hidden',
      apiVersion: '2.2',
      cmpId: 300,
      cmpVersion: 2,
      gvlVersion: 142,
      tcfPolicyVersion: 5,
    });
    expect(messages.filter((line) => line.text.includes('[page-'))).toEqual([]);
  }, 120_000);

  it('says in TCData that Google tags may read consent from the TC string when the config asks', async () => {
    const config = { ...CONFIG, consentModeOptions: { enableAdvertiserConsentMode: true } };
    server.page('/advertiser-mode.html', consentPage(config, { body: '' }));
    const { page, messages } = await newPage(browser);
    await page.goto(`${server.origin}/advertiser-mode.html`);
    await page.waitForSelector('#prompt', { state: 'visible' });
    await expect.poll(async () => (await ping(page))[0].cmpStatus, { timeout: 20_000 }).toBe('loaded');
    await record(page, 'listener', 'addEventListener');
    await page.click('#accept');
    await expect
      .poll(async () => (await answers(page, 'listener')).map(([data]) => data.eventStatus), { timeout: 20_000 })
      .toContain('useractioncomplete');
    await record(page, 'after', 'getTCData');
    const events = (await answers(page, 'listener')).map(([data]) => [
      data.eventStatus,
      data.enableAdvertiserConsentMode,
    ]);
    expect(events).toEqual([
      ['cmpuishown', true],
      ['useractioncomplete', true],
    ]);
    const [[after]] = (await answers(page, 'after')) as [[Data, boolean]];
    expect(after.enableAdvertiserConsentMode).toBe(true);
    expectTcData(after);
    expect(messages.filter((line) => line.text.includes('[page-'))).toEqual([]);
  }, 60_000);
});
