/**
 * GPP state sections and the honoured GPC signal in Chromium (docs/consent.md, "US privacy: GPP
 * sections" and "Global Privacy Control"): with `gpp.approach: "state"`, `<page-geo>`'s debug hash
 * places the reader, and `__gpp`, the consent macros and the decision carry the section of their
 * state, or `usnat` where the state has none.
 */
import { GppModel } from '@iabgpp/cmpapi';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { consentPage, useConsentFixture } from './consent-fixtures.ts';
import { newPage } from './harness.ts';

const fixture = useConsentFixture({ '/gpp-update': { status: 204 } });

const CONFIG = {
  consentInstanceId: 'site',
  consentRequired: true,
  promptUI: 'prompt',
  postPromptUI: 'post',
  gpc: 'reject',
  onUpdateHref: '/gpp-update',
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
};
/** Built once the reader decided (a reject too): its URL carries the consent macros. And page.consent's snapshots. */
const MACROS = `<page-ad id="macros" type="custom" width="300" height="50" data-block-on-consent="_till_responded"
  data-src="/img.svg?sid=\${GPP_SID}&gpp=\${GPP_STRING}"></page-ad>
  <script>
    window.snapshots = [];
    (self.PAGE = self.PAGE || []).push((page) => page.consent.onChange((snapshot) => snapshots.push(snapshot)));
  </script>`;

let count = 0;
async function open(place: string, hasGpc: boolean) {
  const path = `/gpp-state-${++count}.html`;
  fixture.server.page(path, consentPage(CONFIG, { body: MACROS, geo: { ISOCountryGroups: { us: ['us'] } } }));
  const test = await newPage(fixture.browser);
  if (hasGpc)
    await test.page.addInitScript(() =>
      Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }),
    );
  await test.page.goto(`${fixture.server.origin}${path}#page-geo=${place}`);
  return test;
}

type GppCall = (command: string, callback: (data: never) => void, parameter?: string) => void;
type Ping = { signalStatus: string; applicableSections: number[]; gppString: string };
const gpp = (page: Page, command: string, parameter?: string) =>
  page.evaluate(
    ([name, value]) =>
      new Promise<unknown>((resolve) =>
        (window as never as { __gpp: GppCall }).__gpp(name, (data: unknown) => resolve(data), value),
      ),
    [command, parameter] as const,
  );
async function readyPing(page: Page): Promise<Ping> {
  await page.waitForFunction(
    () =>
      new Promise((resolve) =>
        (window as never as { __gpp: GppCall }).__gpp('ping', (data: Ping) => resolve(data.signalStatus === 'ready')),
      ),
  );
  return (await gpp(page, 'ping')) as Ping;
}
/** The `sid` and `gpp` of the macro probe's request, once it was built. */
async function macroRequest(count: number) {
  await expect
    .poll(() => fixture.server.requestsTo('/img.svg').filter((r) => r.url.includes('sid=')).length)
    .toBeGreaterThanOrEqual(count);
  const url = new URL(
    fixture.server.requestsTo('/img.svg').filter((r) => r.url.includes('sid='))[count - 1]!.url,
    'http://x',
  );
  return { sid: url.searchParams.get('sid'), gpp: url.searchParams.get('gpp') };
}
let macroCount = 0;

describe('GPP state sections', () => {
  it('gives a California reader with GPC a usca section opted out of sale and sharing, and shows GPC honoured', async () => {
    const { page } = await open('us-ca', true);
    const ping = await readyPing(page);
    expect(ping.applicableSections).toEqual([8]);
    expect(await gpp(page, 'hasSection', 'usca')).toBe(true);
    expect(await gpp(page, 'hasSection', 'usnat')).toBe(false);
    expect(await gpp(page, 'getSection', 'usca')).toMatchObject({ SaleOptOut: 1, SharingOptOut: 1, Gpc: true });
    // The string decodes with the IAB library to the same section.
    expect(new GppModel(ping.gppString).getSection('usca')).toMatchObject({
      SaleOptOutNotice: 1,
      SaleOptOut: 1,
      SharingOptOut: 1,
    });
    // The decision carries the string and names the section; the macros expand with them.
    const last = await page.evaluate(() => (window as never as { consentEvents: object[] }).consentEvents.at(-1));
    expect(last).toMatchObject({
      state: 'rejected',
      gpcHonored: true,
      consentString: ping.gppString,
      consentMetadata: { gpc: true, consentStringType: 4, gppSectionId: '8' },
    });
    expect(await macroRequest(++macroCount)).toEqual({ sid: '8', gpp: ping.gppString });
    // The hook: a class on <page-consent> and a field of page.consent's snapshot.
    expect(await page.$eval('page-consent', (element) => element.classList.contains('page-consent-gpc-honored'))).toBe(
      true,
    );
    await expect
      .poll(() => page.evaluate(() => (window as never as { snapshots: object[] }).snapshots.at(-1)))
      .toMatchObject({ gpcHonored: true });
  });

  it('gives a reader in a state without a section (us-ny) usnat, and no GPC class to a reader without GPC', async () => {
    const { page } = await open('us-ny', false);
    await page.click('#accept');
    const ping = await readyPing(page);
    expect(ping.applicableSections).toEqual([7]);
    expect(await gpp(page, 'getSection', 'usnat')).toMatchObject({ SaleOptOut: 2, SharingOptOut: 2, Gpc: false });
    expect(await macroRequest(++macroCount)).toEqual({ sid: '7', gpp: ping.gppString });
    expect(await page.$eval('page-consent', (element) => element.classList.contains('page-consent-gpc-honored'))).toBe(
      false,
    );
  });

  it('gives a Texas reader who rejects the ustx section the library encodes, and posts the decision with it', async () => {
    const { page } = await open('us-tx', false);
    await page.click('#reject');
    const ping = await readyPing(page);
    expect(ping.applicableSections).toEqual([16]);
    expect(await gpp(page, 'getSection', 'ustx')).toMatchObject({
      SaleOptOut: 1,
      TargetedAdvertisingOptOut: 1,
      Gpc: false,
    });
    // The stored decision is what the update posts: the string, and the metadata naming the section.
    const rejections = () =>
      fixture.server
        .requestsTo('/gpp-update')
        .map((request) => JSON.parse(request.body))
        .filter((body) => body.consentStateValue === 'rejected');
    await expect.poll(() => rejections().length).toBe(1);
    expect(rejections()[0]).toMatchObject({
      consentStateValue: 'rejected',
      consentString: ping.gppString,
      consentMetadata: { consentStringType: 4, gppSectionId: '16' },
    });
  });
});
