import { readFileSync } from 'node:fs';
import { GppModel } from '@iabgpp/cmpapi';
import { TCString } from '@iabtechlabtcf/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idsOf } from '../../src/tcf/tc-string.ts';
import { atpListJson, parseGoogleAtpList } from '../../src/wire/google-atps.ts';
import { consentPage, diagnosticsOf, storedValues, vendorCall } from './consent-fixtures.ts';
import { launchBrowser, newPage, settled, startServer, type TestServer } from './harness.ts';
import { bundlePrebid, prebidSetup } from './prebid-fixture.ts';

let browser: Browser;
let server: TestServer;

const JS = { 'content-type': 'text/javascript' };
beforeAll(async () => {
  const prebid = await bundlePrebid();
  browser = await launchBrowser();
  server = await startServer({
    '/prebid.js': { body: prebid, headers: JS },
    '/tcf/vendor-list.json': {
      body: readFileSync('fixtures/tcf/vendor-list.json', 'utf8'),
      headers: { 'content-type': 'application/json' },
    },
    '/update': { body: { receiptId: null } },
    '/tcf/google-atps.json': {
      body: atpListJson(parseGoogleAtpList(readFileSync('fixtures/tcf/google-atps.csv', 'utf8')).value!),
    },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const TCF = {
  exposesTcfApi: true,
  cmpId: 300,
  cmpVersion: 2,
  tcf: {
    vendorListHref: '/tcf/vendor-list.json',
    vendors: [1, 2, 8, 25, 91],
    purposes: { ads: [2, 3, 4], measurement: [7, 8, 9] },
    specialFeatures: [1],
    publisherCountryCode: 'DE',
  },
};
const ALL_PURPOSES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];

let count = 0;
/** A page with the inline prompt, `config` over the TCF set-up, and Prebid with the recording bidder. */
/** `held`: the check's answer waits for it. */
type OpenOptions = { head?: string; modules?: ('gdpr' | 'gpp' | 'usp')[]; check?: object; held?: Promise<void> };
async function open(config: object = {}, options: OpenOptions = {}) {
  const n = ++count;
  const check = options.check && { checkConsentHref: `/check-${n}`, consentRequired: 'remote' };
  const answer = options.check;
  if (answer)
    server.route(`/check-${n}`, async () => {
      await options.held;
      return { body: answer };
    });
  const full = {
    consentInstanceId: `site-${n}`,
    consentRequired: true,
    promptUI: 'prompt',
    postPromptUI: 'post',
    onUpdateHref: '/update',
    ...TCF,
    ...check,
    ...config,
  };
  server.page(`/prebid-${n}.html`, consentPage(full, { body: prebidSetup(options.modules), head: options.head ?? '' }));
  const test = await newPage(browser);
  await test.page.goto(`${server.origin}/prebid-${n}.html`);
  await test.page.waitForSelector('page-consent.page-built', { state: 'attached' });
  return test;
}

type Saw = {
  gdprConsent?: { consentString: string; gdprApplies: boolean; addtlConsent?: string };
  gppConsent?: { gppString: string; applicableSections: number[] };
  uspConsent?: string;
};
const runAuction = (page: Page) =>
  page.evaluate(() => (window as never as { runAuction(): Promise<Saw | string> }).runAuction()) as Promise<
    Saw | string
  >;

/** The auction's TC string, decoded by the IAB library. */
async function auctionString(page: Page) {
  const saw = await runAuction(page);
  expect(saw).toMatchObject({ gdprConsent: { gdprApplies: true } });
  const tcString = (saw as Saw).gdprConsent!.consentString;
  return { tcString, model: TCString.decode(tcString) };
}

describe('Prebid.js with TC strings from the inline prompt', () => {
  it('gets a service-specific string with every purpose and listed vendor after accept', async () => {
    const { page, messages } = await open();
    await page.click('#accept');
    const { model } = await auctionString(page);
    expect(model.isServiceSpecific).toBe(true);
    expect([model.cmpId, model.cmpVersion, model.policyVersion, model.vendorListVersion]).toEqual([300, 2, 5, 142]);
    expect(idsOf(model.purposeConsents)).toEqual(ALL_PURPOSES);
    expect(idsOf(model.vendorConsents)).toEqual([1, 2, 8]);
    expect(idsOf(model.vendorsDisclosed)).toEqual([1, 2, 8, 25, 91]);
    expect(idsOf(model.specialFeatureOptins)).toEqual([1]);
    expect(model.publisherCountryCode).toBe('DE');
    expect(messages.filter((line) => line.text.includes('[page-'))).toEqual([]);
  });

  it('gets a valid string with nothing consented after reject, and the auction still runs', async () => {
    const { page } = await open();
    await page.click('#reject');
    const { model } = await auctionString(page);
    expect(idsOf(model.purposeConsents)).toEqual([]);
    expect(idsOf(model.vendorConsents)).toEqual([]);
    expect(idsOf(model.vendorLegitimateInterests)).toEqual([]);
    expect(idsOf(model.vendorsDisclosed)).toEqual([1, 2, 8, 25, 91]);
  });

  it('maps a purpose-level choice onto the TCF purposes and the vendors that need them', async () => {
    const { page } = await open({ purposeConsentRequired: ['ads', 'measurement'] });
    await page.evaluate(() => {
      const button = document.createElement('button');
      button.id = 'choose';
      button.setAttribute('on', 'tap:consent.setPurpose(ads=false,measurement=true)');
      document.getElementById('prompt')!.append(button);
    });
    await page.click('#choose');
    await page.click('#accept');
    const { model } = await auctionString(page);
    expect(idsOf(model.purposeConsents)).toEqual([1, 5, 6, 7, 8, 9, 10, 11]);
    expect(idsOf(model.vendorConsents)).toEqual([2]);
  });

  it('stores the string with the decision and posts it once to onUpdateHref', async () => {
    const { page } = await open();
    await page.click('#accept');
    const { tcString } = await auctionString(page);
    const updates = () =>
      server.requestsTo('/update').filter((request) => request.body.includes(`"consentInstanceId":"site-${count}"`));
    await expect.poll(() => updates().length).toBe(1);
    await settled(page);
    expect(updates().map((request) => JSON.parse(request.body))).toMatchObject([
      { consentStateValue: 'accepted', consentString: tcString, consentMetadata: { consentStringType: 2 } },
    ]);
    expect((await storedValues(page))[`consent:site-${count}`]).toMatchObject({
      state: 'accepted',
      consentString: tcString,
      consentMetadata: { consentStringType: 2 },
    });
  });

  it("passes the Additional Consent string of Google's ATPs to the bidder, in __tcfapi, ${ADDTL_CONSENT}, page.consent and storage", async () => {
    server.route('/ac-pixel.gif', { body: 'x' });
    const pixel = `<page-pixel data-block-on-consent layout="nodisplay" src="/ac-pixel.gif?ac=\${ADDTL_CONSENT}"></page-pixel>`;
    const accepted = await open(
      { tcf: { ...TCF.tcf, googleAtps: 'all', googleAtpListHref: '/tcf/google-atps.json' } },
      { head: '' },
    );
    await accepted.page.evaluate((html) => document.body.insertAdjacentHTML('beforeend', html), pixel);
    await accepted.page.click('#accept');
    const saw = (await runAuction(accepted.page)) as Saw;
    // Accept: every ATP of the list consented, none left to disclose without consent.
    expect(saw.gdprConsent?.addtlConsent).toBe('2~3.12.89.2572~dv.');
    const data = (await accepted.page.evaluate(
      () =>
        new Promise<{ addtlConsent?: string }>((resolve) =>
          (
            window as never as { __tcfapi(command: string, version: number, next: (data: never) => void): void }
          ).__tcfapi('getTCData', 2, resolve),
        ),
    )) as { addtlConsent?: string };
    expect(data.addtlConsent).toBe('2~3.12.89.2572~dv.');
    expect(await vendorCall(accepted.page, 'getMetadata')).toMatchObject({ additionalConsent: '2~3.12.89.2572~dv.' });
    expect((await storedValues(accepted.page))[`consent:site-${count}`]).toMatchObject({
      consentMetadata: { consentStringType: 2, additionalConsent: '2~3.12.89.2572~dv.' },
    });
    await expect
      .poll(() =>
        server.requestsTo('/ac-pixel.gif').map((request) => new URL(request.url, server.origin).searchParams.get('ac')),
      )
      .toEqual(['2~3.12.89.2572~dv.']);
    // Reject: the configured ATPs disclosed, none consented.
    const rejected = await open({ tcf: { ...TCF.tcf, googleAtps: [2572, 89, 3] } });
    await rejected.page.click('#reject');
    expect(((await runAuction(rejected.page)) as Saw).gdprConsent?.addtlConsent).toBe('2~~dv.3.89.2572');
    expect(rejected.messages.filter((line) => line.text.includes('[page-'))).toEqual([]);
  });

  it('reports a vendor list that cannot be fetched once, applies the decision and answers without a string', async () => {
    const { page, messages } = await open({ tcf: { ...TCF.tcf, vendorListHref: '/missing-vendor-list.json' } });
    await page.click('#accept');
    await expect.poll(() => diagnosticsOf(messages, 'consent-tcf-vendor-list-failed').length).toBe(1);
    const data = await page.evaluate(
      () =>
        new Promise((resolve) =>
          (window as never as { __tcfapi: Function }).__tcfapi('getTCData', 2, (value: unknown) => resolve(value)),
        ),
    );
    expect(data).toMatchObject({ tcString: '', gdprApplies: true, cmpStatus: 'loaded' });
    expect(
      await page.evaluate(
        () => (window as never as { consentEvents: { state: string }[] }).consentEvents.at(-1)?.state,
      ),
    ).toBe('accepted');
  });

  it('gives ${GDPR_CONSENT} of a pixel the accept unblocks the string, built after a slow vendor list', async () => {
    server.route('/pixel.gif', { body: 'x' });
    server.route('/tcf/slow-vendor-list.json', {
      body: readFileSync('fixtures/tcf/vendor-list.json', 'utf8'),
      headers: { 'content-type': 'application/json' },
      delay: 500,
    });
    const n = ++count;
    const config = {
      consentInstanceId: `site-${n}`,
      consentRequired: true,
      promptUI: 'prompt',
      postPromptUI: 'post',
      ...TCF,
      tcf: { ...TCF.tcf, vendorListHref: '/tcf/slow-vendor-list.json' },
    };
    const pixel = `<page-pixel data-block-on-consent layout="nodisplay" src="/pixel.gif?gdpr=\${GDPR}&consent=\${GDPR_CONSENT}&n=${n}"></page-pixel>`;
    server.page(`/prebid-${n}.html`, consentPage(config, { body: pixel }));
    const { page } = await newPage(browser);
    await page.goto(`${server.origin}/prebid-${n}.html`);
    await page.click('#accept');
    const pixels = () => server.requestsTo('/pixel.gif').filter((request) => request.url.endsWith(`&n=${n}`));
    await expect.poll(() => pixels().length).toBe(1);
    const query = new URL(pixels()[0]!.url, server.origin).searchParams;
    expect(query.get('gdpr')).toBe('1');
    expect(TCString.decode(query.get('consent')!).cmpId).toBe(300);
  });

  it("answers an ad frame's consent call and page.consent made before the string is built with the string", async () => {
    // The vendor list waits until the ad frame has asked.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    server.route('/tcf/slower-vendor-list.json', async () => {
      await held;
      return {
        body: readFileSync('fixtures/tcf/vendor-list.json', 'utf8'),
        headers: { 'content-type': 'application/json' },
      };
    });
    // An ad frame that asks as soon as it runs, and keeps what it gets back.
    server.page(
      '/creative.html',
      `<!doctype html><script>
      window.replies = [];
      addEventListener('message', (event) => replies.push(event.data));
      parent.postMessage({ pageAdConsentCall: { callId: 'at-load' } }, '*');
    </script>`,
    );
    const n = ++count;
    const config = {
      consentInstanceId: `site-${n}`,
      consentRequired: true,
      promptUI: 'prompt',
      postPromptUI: 'post',
      ...TCF,
      tcf: { ...TCF.tcf, vendorListHref: '/tcf/slower-vendor-list.json' },
    };
    const ad = `<page-ad id="ad" type="custom" width="300" height="50" data-block-on-consent data-src="${server.otherOrigin}/creative.html"></page-ad>`;
    server.page(`/prebid-${n}.html`, consentPage(config, { body: ad }));
    const { page } = await newPage(browser);
    await page.goto(`${server.origin}/prebid-${n}.html`);
    await page.click('#accept');
    const asked = page.evaluate(
      () =>
        new Promise((resolve) => {
          const queue = ((self as never as { PAGE?: unknown[] }).PAGE ??= []);
          queue.push(async (runtime: { consent: { getConsentString(): Promise<string | null> } }) =>
            resolve(await runtime.consent.getConsentString()),
          );
        }),
    );
    const creative = () => page.frames().find((frame) => frame.url().endsWith('/creative.html'));
    await expect.poll(() => creative() !== undefined, { timeout: 15_000 }).toBe(true);
    // The frame asked while the vendor list was still on its way.
    await expect
      .poll(() =>
        creative()!
          .evaluate(() => 'replies' in window)
          .catch(() => false),
      )
      .toBe(true);
    expect(server.requestsTo('/tcf/slower-vendor-list.json')).toHaveLength(1);
    release();
    const replies = () =>
      creative()!.evaluate(
        () => (window as never as { replies: { pageAdConsentReturn: { gdprConsent: string } }[] }).replies,
      );
    await expect.poll(async () => (await replies()).length, { timeout: 10_000 }).toBe(1);
    const [reply] = await replies();
    expect(TCString.decode(reply!.pageAdConsentReturn.gdprConsent).cmpId).toBe(300);
    expect(await asked).toBe(reply!.pageAdConsentReturn.gdprConsent);
  });
});

const accepted = (consentString: string, consentMetadata: object) => ({
  consentRequired: true,
  consentStateValue: 'accepted',
  consentString,
  consentMetadata,
});
/** A TC string our prompt would build on the fixture (rejected), for strings that come from elsewhere. */
async function builtString() {
  const { page } = await open();
  await page.click('#reject');
  return (await auctionString(page)).tcString;
}

describe('Prebid.js with the story prompt', () => {
  it('gets a TC string after a reader accepts in a story prompt named by promptUI', async () => {
    const n = ++count;
    const story = {
      title: 'Your privacy',
      message: 'We and our partners show ads.',
      vendors: ['Example Exchange', 'Demo Bidder'],
    };
    const inside = `<page-story-consent id="story-prompt" layout="nodisplay" hidden><script type="application/json">${JSON.stringify(story)}</script></page-story-consent>`;
    server.page(
      `/prebid-${n}.html`,
      consentPage(
        { consentInstanceId: `site-${n}`, consentRequired: true, promptUI: 'story-prompt', ...TCF },
        { inside, body: prebidSetup() },
      ),
    );
    const { page } = await newPage(browser);
    await page.goto(`${server.origin}/prebid-${n}.html`);
    await page.click('page-story-consent button:last-child');
    const { model } = await auctionString(page);
    expect(idsOf(model.vendorConsents)).toEqual([1, 2, 8]);
  });
});

describe('Prebid.js with a decision from checkConsentHref', () => {
  it("gets the server's own TC string, which wins over ours", async () => {
    const serverString = await builtString();
    const { page } = await open(
      {},
      { check: { ...accepted(serverString, { consentStringType: 2, gdprApplies: true }) } },
    );
    const { tcString } = await auctionString(page);
    expect(tcString).toBe(serverString);
  });

  it('gets a TC string built for a stored accept that came without one', async () => {
    const { page } = await open({}, { check: { consentRequired: true, consentStateValue: 'accepted' } });
    const { model } = await auctionString(page);
    expect(idsOf(model.purposeConsents)).toEqual(ALL_PURPOSES);
    expect(model.cmpId).toBe(300);
  });

  it('gets a TC string built for a stored reject that came without one', async () => {
    const { page } = await open({}, { check: { consentRequired: true, consentStateValue: 'rejected' } });
    const { model } = await auctionString(page);
    expect(idsOf(model.purposeConsents)).toEqual([]);
  });
});

describe('Prebid.js with TCF and GPP together', () => {
  it('gets our TC string from __tcfapi and as the tcfeuv2 section from __gpp', async () => {
    const { page } = await open({ exposesGppApi: true }, { modules: ['gdpr', 'gpp'] });
    await page.click('#accept');
    const saw = (await runAuction(page)) as Saw;
    const tcString = saw.gdprConsent!.consentString;
    expect(TCString.decode(tcString).cmpId).toBe(300);
    expect(saw.gppConsent!.applicableSections).toEqual([2]);
    expect(new GppModel(saw.gppConsent!.gppString).encodeSection('tcfeuv2')).toBe(tcString);
  });

  it("gives __tcfapi the tcfeuv2 section of a CMP's GPP string", async () => {
    const inner = await builtString();
    const model = new GppModel();
    model.decodeSection('tcfeuv2', inner);
    const gppString = model.encode();
    const { page } = await open(
      { exposesGppApi: true },
      {
        modules: ['gdpr', 'gpp'],
        check: accepted(gppString, { consentStringType: 4, gppSectionId: '2', gdprApplies: true }),
      },
    );
    const saw = (await runAuction(page)) as Saw;
    expect(saw.gdprConsent!.consentString).toBe(inner);
    expect(saw.gppConsent).toMatchObject({ gppString, applicableSections: [2] });
  });
});

const USNAT = {
  usnat: {
    SharingNotice: 1,
    SaleOptOutNotice: 1,
    SharingOptOutNotice: 1,
    TargetedAdvertisingOptOutNotice: 1,
    MspaCoveredTransaction: 2,
    MspaOptOutOptionMode: 0,
    MspaServiceProviderMode: 0,
  },
};
const US = { exposesTcfApi: false, exposesGppApi: true, gpp: USNAT };

describe('Prebid.js with US signals', () => {
  it('gets a usnat string from our prompt: reject opts out of sale, sharing and targeted advertising', async () => {
    const { page } = await open(US, { modules: ['gpp'] });
    await page.click('#reject');
    const saw = (await runAuction(page)) as Saw;
    expect(saw.gppConsent!.applicableSections).toEqual([7]);
    const usnat = new GppModel(saw.gppConsent!.gppString);
    expect([
      usnat.getFieldValue('usnat', 'SaleOptOut'),
      usnat.getFieldValue('usnat', 'SharingOptOut'),
      usnat.getFieldValue('usnat', 'TargetedAdvertisingOptOut'),
    ]).toEqual([1, 1, 1]);
    expect(usnat.getFieldValue('usnat', 'SaleOptOutNotice')).toBe(1);
  });

  it("gets the usnat string in an auction the reader's own click starts, whichever microtask comes first", async () => {
    for (let round = 0; round < 3; round++) {
      const { page } = await open(US, { modules: ['gpp'] });
      const saw = page.evaluate(
        () =>
          new Promise<Saw | string>((resolve) =>
            document
              .getElementById('reject')!
              .addEventListener(
                'click',
                () => (window as never as { runAuction(): Promise<Saw | string> }).runAuction().then(resolve),
                { once: true },
              ),
          ),
      );
      await page.click('#reject');
      expect(((await saw) as Saw).gppConsent!.applicableSections).toEqual([7]);
    }
  });

  it('gets a usnat string that does not opt out after accept', async () => {
    const { page } = await open(US, { modules: ['gpp'] });
    await page.click('#accept');
    const saw = (await runAuction(page)) as Saw;
    expect(new GppModel(saw.gppConsent!.gppString).getFieldValue('usnat', 'SaleOptOut')).toBe(2);
  });

  it('gets the US privacy string on a first view, from an auction started before the answer', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const { page } = await open(US, { modules: ['usp'], check: accepted('1YNN', { consentStringType: 3 }), held });
    const auction = runAuction(page);
    // Evaluated after runAuction was called: the auction has started before the answer is let go.
    await page.evaluate(() => 0);
    release();
    const saw = (await auction) as Saw;
    expect(saw.uspConsent).toBe('1YNN');
  });
});

describe('the head stub', () => {
  it('answers a vendor in <head> before the extension, and the full API answers its queued listener once, with our TC string', async () => {
    const n = ++count;
    const config = {
      consentInstanceId: `site-${n}`,
      consentRequired: true,
      promptUI: 'prompt',
      postPromptUI: 'post',
      ...TCF,
    };
    // A vendor tag in <head>: only the stub is there when it runs; the extension loads later.
    const head = `<script src="/v0/page-consent-stub-0.1.js"></script><script>
      window.heard = [];
      __tcfapi('ping', 2, (ping) => (window.stubPing = ping));
      __tcfapi('addEventListener', 2, (data, success) => heard.push([data && data.eventStatus, data && data.tcString, success]));
    </script>`;
    server.page(`/prebid-${n}.html`, consentPage(config, { body: '' }).replace('<head>', `<head>${head}`));
    const { page, messages } = await newPage(browser);
    await page.goto(`${server.origin}/prebid-${n}.html`);
    expect(await page.evaluate(() => (window as never as { stubPing: unknown }).stubPing)).toEqual({
      cmpLoaded: false,
      cmpStatus: 'stub',
      displayStatus: 'hidden',
      apiVersion: '2.2',
    });
    await page.click('#accept');
    const heard = () => page.evaluate(() => (window as never as { heard: [string, string, boolean][] }).heard);
    await expect
      .poll(async () => (await heard()).some(([status]) => status === 'useractioncomplete'), { timeout: 20_000 })
      .toBe(true);
    const complete = (await heard()).filter(([status]) => status === 'useractioncomplete');
    expect(complete).toHaveLength(1);
    expect(TCString.decode(complete[0]![1]).cmpId).toBe(300);
    expect(await page.$$eval('iframe[name="__tcfapiLocator"]', (frames) => frames.length)).toBe(1);
    expect(messages.filter((line) => line.text.includes('[page-'))).toEqual([]);
  }, 120_000);

  it('lets Prebid.js installed in <head> after the stub, auction started before the reader decides, get our TC string', async () => {
    const n = ++count;
    const config = {
      consentInstanceId: `site-${n}`,
      consentRequired: true,
      promptUI: 'prompt',
      postPromptUI: 'post',
      ...TCF,
    };
    // Prebid with its TCF module and (as most builds) the US privacy module on its defaults: a
    // 50 ms time-out, after which a late __uspapi answer resumes the auction a second time.
    const head = `<script src="/v0/page-consent-stub-0.1.js"></script>${prebidSetup(['gdpr'])}<script>window.early = runAuction();</script>`;
    server.page(`/prebid-${n}.html`, consentPage(config, { body: '' }).replace('<head>', `<head>${head}`));
    const { page, messages } = await newPage(browser);
    await page.goto(`${server.origin}/prebid-${n}.html`);
    // The auction waits for the TCF decision, past the US privacy module's own time-out.
    await expect
      .poll(() => messages.some((line) => line.text.includes('USPAPI workflow exceeded timeout threshold')))
      .toBe(true);
    await page.click('#accept');
    const early = (await page.evaluate(() => (window as never as { early: Promise<Saw | string> }).early)) as Saw;
    expect(early.gdprConsent).toMatchObject({ gdprApplies: true });
    expect(TCString.decode(early.gdprConsent!.consentString).cmpId).toBe(300);
  }, 60_000);
});

describe('frames', () => {
  it("keep a hostile cross-origin frame from removing another frame's listener and from unknown commands", async () => {
    server.page(
      '/frame-vendor.html',
      `<!doctype html><script>
        window.replies = [];
        addEventListener('message', (event) => event.data && event.data.__tcfapiReturn && replies.push(event.data.__tcfapiReturn));
        window.call = (command, parameter, callId) => parent.postMessage({ __tcfapiCall: { command, version: 2, parameter, callId } }, '*');
      </script>`,
    );
    const n = ++count;
    const frames = `<iframe id="honest" src="${server.otherOrigin}/frame-vendor.html"></iframe><iframe id="hostile" src="${server.otherOrigin}/frame-vendor.html"></iframe>`;
    server.page(
      `/prebid-${n}.html`,
      consentPage(
        { consentInstanceId: `site-${n}`, consentRequired: true, promptUI: 'prompt', ...TCF },
        { body: frames },
      ),
    );
    const { page } = await newPage(browser);
    await page.goto(`${server.origin}/prebid-${n}.html`);
    // The full API (and its bridge) has taken over once ping says loaded.
    await expect
      .poll(
        () =>
          page.evaluate(
            () =>
              new Promise((resolve) =>
                (window as never as { __tcfapi: Function }).__tcfapi('ping', 2, (data: { cmpStatus: string }) =>
                  resolve(data.cmpStatus),
                ),
              ),
          ),
        { timeout: 20_000 },
      )
      .toBe('loaded');
    const frameOf = async (id: string) => (await (await page.$(`#${id}`))!.contentFrame())!;
    const [honestFrame, hostileFrame] = [await frameOf('honest'), await frameOf('hostile')];
    await honestFrame.evaluate(() =>
      (window as never as { call: Function }).call('addEventListener', undefined, 'listen'),
    );
    await page.evaluate(() => document.getElementById('accept')!.click());
    const replies = (frame: typeof honestFrame) =>
      frame.evaluate(
        () =>
          (window as never as { replies: { callId: string; success: boolean; returnValue: { listenerId?: number } }[] })
            .replies,
      );
    await expect
      .poll(async () => (await replies(honestFrame)).some((reply) => reply.callId === 'listen' && reply.success))
      .toBe(true);
    const listenerId = (await replies(honestFrame)).find((reply) => reply.callId === 'listen')!.returnValue.listenerId;
    await hostileFrame.evaluate((id) => {
      const { call } = window as never as { call: Function };
      call('removeEventListener', id, 'remove');
      call('constructor', undefined, 'constructor');
      call('getVendorList', undefined, 'vendor-list');
    }, listenerId);
    await expect.poll(async () => (await replies(hostileFrame)).length).toBe(3);
    expect((await replies(hostileFrame)).map(({ callId, success }) => [callId, success])).toEqual([
      ['remove', false],
      ['constructor', false],
      ['vendor-list', false],
    ]);
    // The honest frame's listener survived: reopening the prompt still reaches it.
    const before = (await replies(honestFrame)).length;
    await page.evaluate(() => document.getElementById('manage')!.click());
    await expect.poll(async () => (await replies(honestFrame)).length).toBeGreaterThan(before);
    await honestFrame.evaluate(
      (id) => (window as never as { call: Function }).call('removeEventListener', id, 'own-remove'),
      listenerId,
    );
    await expect
      .poll(async () => (await replies(honestFrame)).find((reply) => reply.callId === 'own-remove')?.success)
      .toBe(true);
  }, 120_000);
});
