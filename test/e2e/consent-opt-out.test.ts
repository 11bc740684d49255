/**
 * `consent.optOut` in Chromium (docs/us-privacy.md, "The Do-Not-Sell/Share control"): a US
 * reader's click is stored and posted as a rejection with its categories, `__gpp` and `__uspapi`
 * carry the opt-outs, and what the opt-out withdraws is unlaid or stays blocked, across a
 * reload; a reader outside the US gets one diagnostic and nothing changes.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  builtProbes,
  consentPage,
  diagnosticLines,
  isShown,
  storedValues,
  useConsentFixture,
} from './consent-fixtures.ts';
import { newPage, partPath, settled } from './harness.ts';

const fixture = useConsentFixture({ '/opt-out-update': { status: 204 } });

const config = (consentRequired: boolean) => ({
  consentInstanceId: 'site',
  consentRequired,
  promptUI: 'prompt',
  postPromptUI: 'post',
  onUpdateHref: '/opt-out-update',
  exposesGppApi: true,
  gpp: {
    approach: 'state',
    usnat: {
      SaleOptOutNotice: 1,
      SharingOptOutNotice: 1,
      TargetedAdvertisingOptOutNotice: 1,
      MspaCoveredTransaction: 2,
    },
  },
});
const BODY = `<page-img id="default" data-block-on-consent src="/img.svg?default" width="10" height="10" layout="fixed"></page-img>
  <script type="text/plain" data-block-on-consent>window.blockedRan = true;</script>
  <footer>
    <button id="do-not-sell" on="tap:consent.optOut">Do Not Sell or Share My Personal Information</button>
    <button id="limit" on="tap:consent.optOut(category=sensitiveData)">Limit the Use of My Sensitive Personal Information</button>
  </footer>`;

let count = 0;
async function open(place: string, consentRequired: boolean) {
  const path = `/opt-out-${++count}.html`;
  fixture.server.page(
    path,
    consentPage(config(consentRequired), { body: BODY, geo: { ISOCountryGroups: { us: ['us'] } } }),
  );
  const test = await newPage(fixture.browser);
  await test.page.goto(`${fixture.server.origin}${path}#page-geo=${place}`);
  await test.page.waitForSelector('page-consent.page-built', { state: 'attached' });
  return test;
}

type Ping = { signalStatus: string; applicableSections: number[]; gppString: string };
const gpp = (page: Page, command: string, parameter?: string) =>
  page.evaluate(
    ([name, value]) =>
      new Promise<unknown>((resolve) =>
        (window as never as { __gpp: (...args: unknown[]) => void }).__gpp(
          name,
          (data: unknown) => resolve(data),
          value,
        ),
      ),
    [command, parameter] as const,
  );
const uspString = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<unknown>((resolve) =>
        (window as never as { __uspapi: (...args: unknown[]) => void }).__uspapi(
          'getUSPData',
          1,
          (data: { uspString: string } | null) => resolve(data?.uspString ?? null),
        ),
      ),
  );
const updates = () => fixture.server.requestsTo('/opt-out-update').map((request) => JSON.parse(request.body));
/** The GPP string once the opt-out's section is in, ready. */
async function readyPing(page: Page, section: number): Promise<Ping> {
  await expect
    .poll(async () => {
      const ping = (await gpp(page, 'ping')) as Ping;
      return ping.signalStatus === 'ready' && ping.applicableSections[0] === section;
    })
    .toBe(true);
  return (await gpp(page, 'ping')) as Ping;
}

describe('consent.optOut', () => {
  it('records a Virginia reader opting out where consent is not required, and unlays what it withdraws', async () => {
    const { page } = await open('us-va', false);
    await expect.poll(() => builtProbes(page)).toEqual(['default']);
    expect(await page.evaluate(() => (window as never as { blockedRan?: boolean }).blockedRan)).toBe(true);
    await page.click('#do-not-sell');
    // Unlaid, as after a reject.
    await expect.poll(() => builtProbes(page)).toEqual([]);
    const ping = await readyPing(page, 9);
    expect(await gpp(page, 'getSection', 'usva')).toMatchObject({ SaleOptOut: 1, TargetedAdvertisingOptOut: 1 });
    expect(await uspString(page)).toBe('1YYN');
    const metadata = { usOptOuts: 'sale,sharing,targetedAdvertising', consentStringType: 4, gppSectionId: '9' };
    expect(await storedValues(page)).toMatchObject({
      'consent:site': { state: 'rejected', consentString: ping.gppString, consentMetadata: metadata },
    });
    await expect.poll(() => updates().length).toBe(1);
    expect(updates()[0]).toMatchObject({ consentStateValue: 'rejected', consentMetadata: metadata });
    const last = await page.evaluate(() => (window as never as { consentEvents: object[] }).consentEvents.at(-1));
    expect(last).toMatchObject({ state: 'rejected', consentMetadata: metadata });
  });

  it('keeps a blocked script blocked for a California reader who limits sensitive data instead of answering the prompt', async () => {
    const test = await open('us-ca', true);
    const { page } = test;
    expect(await isShown(page, '#prompt')).toBe(true);
    await page.click('#limit');
    await expect.poll(() => isShown(page, '#prompt')).toBe(false);
    await readyPing(page, 8);
    const usca = (await gpp(page, 'getSection', 'usca')) as Record<string, unknown>;
    expect(usca).toMatchObject({ SaleOptOut: 2, SharingOptOut: 2 });
    expect(usca['SensitiveDataProcessing']).toEqual(Array(9).fill(1));
    expect(await uspString(page)).toBe('1YNN');
    expect(await storedValues(page)).toMatchObject({
      'consent:site': { state: 'rejected', consentMetadata: { usOptOuts: 'sensitiveData' } },
    });
    // The next page: no prompt, the script and the element still blocked.
    await page.reload();
    await page.waitForSelector('page-consent.page-built', { state: 'attached' });
    await settled(page);
    expect(await isShown(page, '#prompt')).toBe(false);
    expect(await builtProbes(page)).toEqual([]);
    expect(await page.evaluate(() => (window as never as { blockedRan?: boolean }).blockedRan)).toBeUndefined();
    expect(diagnosticLines(test)).toEqual([]);
  });

  it('does nothing for a reader outside the US but say so once', async () => {
    const test = await open('de', true);
    const { page } = test;
    const before = updates().length;
    await page.click('#do-not-sell');
    await expect
      .poll(() => diagnosticLines(test))
      .toEqual([expect.stringMatching(/^\[page-consent#consent\] consent-opt-out-not-us: expected .+, got "de"$/)]);
    expect(await isShown(page, '#prompt')).toBe(true);
    expect(await storedValues(page)).not.toHaveProperty('consent:site');
    expect(updates().length).toBe(before);
  });

  it('loads its part at the first click only, and without it records nothing but one diagnostic', async () => {
    const part = partPath('page-consent-opt-out');
    const test = await open('us-va', false);
    const { page } = test;
    const asked: string[] = [];
    await page.route(`**${part}`, (route) => {
      asked.push(route.request().url());
      return route.abort();
    });
    await expect.poll(() => builtProbes(page)).toEqual(['default']);
    await settled(page);
    expect(asked).toEqual([]);
    await page.click('#do-not-sell');
    await expect
      .poll(() => diagnosticLines(test))
      .toEqual([expect.stringMatching(/ part-load-failed: expected the part to load, got ".+page-consent-opt-out\./)]);
    expect(asked).toHaveLength(1);
    expect(await builtProbes(page)).toEqual(['default']);
    expect(await storedValues(page)).not.toHaveProperty('consent:site');
  });
});
