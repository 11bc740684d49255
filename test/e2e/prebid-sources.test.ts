/**
 * Prebid.js 11 with its consent modules against our pages, where the decision or the auction
 * comes from elsewhere (docs/consent.md, "Signals for ad tech"): a CMP iframe's own TC string,
 * a browser's Global Privacy Control, and Prebid.js in a cross-origin child frame that reaches
 * the page's CMP through the locator frames, started after the decision and before it. Every
 * auction must run (never cancelled) with the right strings.
 */
import { readFileSync } from 'node:fs';
import { GppModel } from '@iabgpp/cmpapi';
import { TCString } from '@iabtechlabtcf/core';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTcString, idsOf } from '../../src/tcf/tc-string.ts';
import { choicesOfDecision } from '../../src/tcf/tc-choices.ts';
import { parseGvl } from '../../src/wire/gvl.ts';
import { consentPage } from './consent-fixtures.ts';
import { type ConsoleLine, launchBrowser, newPage, startServer, type TestServer } from './harness.ts';
import { bundlePrebid, prebidSetup } from './prebid-fixture.ts';

let browser: Browser;
let server: TestServer;

const VENDOR_LIST = readFileSync('fixtures/tcf/vendor-list.json', 'utf8');
/** A CMP frame page: it posts what the test tells it to its parent. */
const CMP = `<!doctype html><html lang="en"><head><title>CMP</title></head><body><p>CMP</p><script>
window.send = (message) => parent.postMessage(message, '*');
</script></body></html>`;

beforeAll(async () => {
  const prebid = await bundlePrebid();
  browser = await launchBrowser();
  server = await startServer({
    '/prebid.js': { body: prebid, headers: { 'content-type': 'text/javascript' } },
    '/tcf/vendor-list.json': { body: VENDOR_LIST, headers: { 'content-type': 'application/json' } },
    '/cmp.html': { body: CMP },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const TCF = {
  exposesTcfApi: true,
  exposesGppApi: true,
  cmpId: 300,
  cmpVersion: 2,
  tcf: {
    vendorListHref: '/tcf/vendor-list.json',
    vendors: [1, 2, 8, 25, 91],
    purposes: { ads: [2, 3, 4] },
    publisherCountryCode: 'DE',
  },
};
const MODULES: ('gdpr' | 'gpp')[] = ['gdpr', 'gpp'];
/** Long enough for a loaded machine: a consent module that times out would hide a wrong answer. */
const CONSENT_TIMEOUT = 30_000;
const HEAD_STUB = '<script src="/v0/page-consent-stub-0.1.js"></script>';

type Saw = {
  gdprConsent?: { consentString: string; gdprApplies: boolean; addtlConsent?: string };
  gppConsent?: { gppString: string; applicableSections: number[] };
};
type Api = (...args: unknown[]) => void;
type Auctions = { runAuction(): Promise<Saw | string>; pending?: Promise<Saw | string> };

let count = 0;
type OpenOptions = {
  head?: string;
  body?: string;
  inside?: string;
  hasGpc?: boolean;
  modules?: ('gdpr' | 'gpp')[];
  hold?: string[];
  holdGppListeners?: boolean;
};
/**
 * A page with `config` over the defaults (inline prompt, TCF and GPP); `hold` names CDN files
 * that load only once the returned `release()` is called.
 */
async function open(config: object, options: OpenOptions = {}) {
  const n = ++count;
  const full = {
    consentInstanceId: `site-${n}`,
    consentRequired: true,
    promptUI: 'prompt',
    postPromptUI: 'post',
    ...TCF,
    ...config,
  };
  const page = consentPage(full, {
    body: options.body ?? prebidSetup(options.modules ?? MODULES, CONSENT_TIMEOUT),
    ...(options.inside ? { inside: options.inside } : {}),
  });
  server.page(`/sources-${n}.html`, options.head ? page.replace('<head>', `<head>${options.head}`) : page);
  const test = await newPage(browser);
  if (options.hasGpc)
    await test.page.addInitScript(() =>
      Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }),
    );
  if (options.holdGppListeners) await test.page.addInitScript(holdGppListeners);
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  for (const name of options.hold ?? []) {
    await test.page.route(`**/${name}`, async (route) => {
      await released;
      await route.continue();
    });
  }
  // A held script holds the load event too.
  await test.page.goto(`${server.origin}/sources-${n}.html`, { waitUntil: 'domcontentloaded' });
  return { ...test, release };
}

const runAuction = (target: Page | Frame) =>
  target.evaluate(() => (window as never as Auctions).runAuction()) as Promise<Saw | string>;
/** Starts an auction and leaves it running; `finished` waits for its bids. */
const startAuction = (target: Page | Frame) =>
  target.evaluate(() => void ((window as never as Auctions).pending = (window as never as Auctions).runAuction()));
const finished = (target: Page | Frame) =>
  target.evaluate(() => (window as never as Auctions).pending!) as Promise<Saw | string>;

const tcfCall = (page: Page, command: string) =>
  page.evaluate(
    (name) =>
      new Promise<Record<string, unknown>>((resolve) =>
        (window as never as { __tcfapi: Api }).__tcfapi(name, 2, (data: Record<string, unknown>) => resolve(data)),
      ),
    command,
  );
const gppPing = (page: Page) =>
  page.evaluate(
    () => new Promise<Record<string, unknown>>((resolve) => (window as never as { __gpp: Api }).__gpp('ping', resolve)),
  );
const lastState = (page: Page) =>
  page.evaluate(() => (window as never as { consentEvents: { state: string }[] }).consentEvents.at(-1)?.state);

/** The auction ran and got a TC string; decoded by the IAB library. */
function decoded(saw: Saw | string) {
  expect(saw).toMatchObject({ gdprConsent: { gdprApplies: true } });
  return TCString.decode((saw as Saw).gdprConsent!.consentString);
}

const expectOurAcceptString = (saw: Saw | string) =>
  expect([decoded(saw).cmpId, idsOf(decoded(saw).vendorConsents)]).toEqual([300, [1, 2, 8]]);
/** `lines`: the page's console (Prebid's own warnings in debug mode), shown when the check fails. */
function expectTcfeuv2(saw: Saw | string, lines: readonly ConsoleLine[] = []) {
  expect((saw as Saw).gppConsent?.applicableSections, lines.map((line) => line.text).join('\n')).toEqual([2]);
  expect(new GppModel((saw as Saw).gppConsent!.gppString).encodeSection('tcfeuv2')).toBe(
    (saw as Saw).gdprConsent!.consentString,
  );
}

/** A TC string a CMP built under its own CMP id (77) on the fixture GVL. */
function cmpString(state: 'accepted' | 'rejected') {
  const gvl = parseGvl(JSON.parse(VENDOR_LIST)).value!;
  const settings = { cmpId: 77, cmpVersion: 4, vendors: [1, 8, 52] };
  return encodeTcString(gvl, settings, choicesOfDecision(gvl, settings, { state }));
}

describe('Prebid.js with a CMP iframe (promptUiSrc)', () => {
  it("waits in an auction started while the CMP shows, then gets the CMP's own string from both APIs, not ours", async () => {
    const { page } = await open({ promptUI: undefined, promptUiSrc: `${server.otherOrigin}/cmp.html` });
    await page.waitForSelector('.page-consent-frame iframe', { state: 'attached' });
    let frame: Frame | undefined;
    await expect.poll(() => (frame = page.frames().find((f) => f.url().includes('/cmp.html')))).toBeTruthy();
    await frame!.waitForFunction(() => 'send' in window);
    await frame!.evaluate(() =>
      (window as never as { send(m: object): void }).send({ type: 'consent-ui', action: 'ready' }),
    );
    await expect.poll(async () => (await tcfCall(page, 'ping')).displayStatus, { timeout: 20_000 }).toBe('visible');
    expect(await gppPing(page)).toMatchObject({ signalStatus: 'not ready', cmpDisplayStatus: 'visible' });
    await startAuction(page);
    const info = cmpString('accepted');
    const consentMetadata = { consentStringType: 2, gdprApplies: true, additionalConsent: '1~2.3' };
    await frame!.evaluate((message) => (window as never as { send(m: object): void }).send(message), {
      type: 'consent-response',
      action: 'accept',
      info,
      consentMetadata,
      tcfPolicyVersion: 5,
    });
    const saw = (await finished(page)) as Saw;
    const model = decoded(saw);
    expect(saw.gdprConsent!.consentString).toBe(info);
    expect(saw.gdprConsent!.addtlConsent).toBe('1~2.3');
    expect([model.cmpId, idsOf(model.vendorConsents)]).toEqual([77, [1, 8, 52]]);
    // GPP carries the same string as its tcfeuv2 section. (Prebid's GPP module lets the auction
    // that waited go at the decision, a task before __gpp says ready: only the next one has it.)
    const next = (await runAuction(page)) as Saw;
    expect(next.gdprConsent!.consentString).toBe(info);
    expectTcfeuv2(next);
  }, 120_000);
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

describe('Prebid.js with Global Privacy Control ("gpc": "reject")', () => {
  it('gets a valid TC string with nothing consented, from both APIs, and no prompt shows', async () => {
    // The head stub: an auction started at once finds the CMP before the extension runs.
    const { page } = await open({ gpc: 'reject' }, { hasGpc: true, head: HEAD_STUB });
    const saw = (await runAuction(page)) as Saw;
    const model = decoded(saw);
    expect([idsOf(model.purposeConsents), idsOf(model.vendorConsents), idsOf(model.specialFeatureOptins)]).toEqual([
      [],
      [],
      [],
    ]);
    expect(idsOf(model.vendorsDisclosed)).toEqual([1, 2, 8, 25, 91]);
    expect(model.cmpId).toBe(300);
    expect(await lastState(page)).toBe('rejected');
    // The GPP string of an auction that waited through the decision: see the CMP iframe case.
    expectTcfeuv2(await runAuction(page));
    expect(await page.isVisible('#prompt')).toBe(false);
  }, 120_000);

  it('gets a usnat string that opts out and says GPC applied where only GPP is exposed', async () => {
    const { page } = await open(
      { exposesTcfApi: false, gpp: USNAT, gpc: 'reject' },
      { hasGpc: true, modules: ['gpp'], head: HEAD_STUB },
    );
    const saw = (await runAuction(page)) as Saw;
    expect(saw).toMatchObject({ gppConsent: { applicableSections: [7] } });
    const usnat = new GppModel(saw.gppConsent!.gppString);
    const field = (name: string) => usnat.getFieldValue('usnat', name);
    expect([field('SaleOptOut'), field('SharingOptOut'), field('TargetedAdvertisingOptOut')]).toEqual([1, 1, 1]);
    expect([field('GpcSegmentIncluded'), field('Gpc')]).toEqual([true, true]);
  }, 120_000);
});

/** A cross-origin ad frame (`localhost` inside the `127.0.0.1` page) running Prebid.js with the recording bidder. */
function adFrameUrl(): string {
  const n = ++count;
  server.page(
    `/ad-frame-${n}.html`,
    `<!doctype html><html lang="en"><head><title>ad</title></head><body>${prebidSetup(MODULES, CONSENT_TIMEOUT)}</body></html>`,
  );
  return `${server.otherOrigin}/ad-frame-${n}.html`;
}
const adFrame = () => `<iframe id="ad" title="ad" src="${adFrameUrl()}"></iframe>`;
async function adFrameOf(page: Page): Promise<Frame> {
  const frame = (await (await page.waitForSelector('#ad')).contentFrame())!;
  await frame.waitForFunction(() => 'runAuction' in window);
  expect(new URL(frame.url()).origin).toBe(server.otherOrigin);
  return frame;
}
/**
 * An init script for the page (not its frames): a frame's GPP `addEventListener` messages are
 * held before any listener of the page sees them (`heldGppListeners` counts them), until
 * `releaseGppListeners()` dispatches them again. Its `ping` goes through.
 */
function holdGppListeners() {
  if (window !== window.top) return;
  const held: MessageEvent[] = [];
  const page = window as never as { heldGppListeners: number; releaseGppListeners(): number };
  page.heldGppListeners = 0;
  let holding = true;
  addEventListener(
    'message',
    (event) => {
      const call = (event.data as { __gppCall?: { command?: string } } | null)?.__gppCall;
      if (!holding || call?.command !== 'addEventListener') return;
      event.stopImmediatePropagation();
      page.heldGppListeners = held.push(event);
    },
    true,
  );
  page.releaseGppListeners = () => {
    holding = false;
    for (const { data, origin, source } of held) dispatchEvent(new MessageEvent('message', { data, origin, source }));
    return held.length;
  };
}

/** Whether the page's `name` stub has queued a call (the full API has not taken it yet). */
const hasQueued = (page: Page, name: string, command: string) =>
  page.evaluate(
    ([api, wanted]) => {
      const queue = (window as never as Record<string, () => unknown>)[api]!();
      return Array.isArray(queue) && queue.some((args) => args[0] === wanted);
    },
    [name, command] as const,
  );

describe('Prebid.js in a cross-origin child frame', () => {
  it("reaches the page's CMP through the locator frames, started after the decision", async () => {
    const { page, messages } = await open({}, { body: adFrame() });
    await page.click('#accept');
    // Decided for both APIs: the TC string is out and GPP says ready.
    await expect.poll(async () => (await tcfCall(page, 'getTCData')).tcString, { timeout: 20_000 }).toMatch(/^C/);
    await expect.poll(() => gppPing(page).then((ping) => ping.signalStatus), { timeout: 20_000 }).toBe('ready');
    const saw = await runAuction(await adFrameOf(page));
    expectOurAcceptString(saw);
    expectTcfeuv2(saw, messages);
  }, 120_000);

  it('gets the string when its GPP listener arrives only after the page became ready (its ping said not ready)', async () => {
    // A frame's ping and its listener are two round trips: the page can decide between them.
    const { page, messages } = await open({}, { holdGppListeners: true });
    await page.waitForSelector('iframe[name="__gppLocator"]', { state: 'attached' });
    await page.evaluate((html) => document.body.insertAdjacentHTML('beforeend', html), adFrame());
    const frame = await adFrameOf(page);
    // Prebid's ping was answered `not ready` (the prompt shows): its listener comes next, and waits.
    await expect
      .poll(() => page.evaluate(() => (window as never as { heldGppListeners: number }).heldGppListeners), {
        timeout: 20_000,
      })
      .toBe(1);
    await page.click('#accept');
    await expect.poll(() => gppPing(page).then((ping) => ping.signalStatus), { timeout: 20_000 }).toBe('ready');
    expect(
      await page.evaluate(() => (window as never as { releaseGppListeners(): number }).releaseGppListeners()),
    ).toBe(1);
    const saw = await runAuction(frame);
    expectOurAcceptString(saw);
    expectTcfeuv2(saw, messages);
  }, 120_000);

  it.each([
    ['the head stub', HEAD_STUB],
    ["the extension's stub", ''],
  ])(
    'waits through %s before the full APIs load and the reader decides, then gets the string',
    async (_name, head) => {
      const { page, release } = await open(
        {},
        { body: '', head, hold: ['page-consent-tcf-0.1.js', 'page-consent-gpp-0.1.js'] },
      );
      // The frame's calls need the locator frames: the head stub's are there from the start, the
      // extension's once it runs. The ad frame is added then, as an ad server would add it.
      await page.waitForSelector('iframe[name="__tcfapiLocator"]', { state: 'attached' });
      await page.waitForSelector('iframe[name="__gppLocator"]', { state: 'attached' });
      await page.evaluate(
        (src) => document.body.insertAdjacentHTML('beforeend', `<iframe id="ad" title="ad" src="${src}"></iframe>`),
        adFrameUrl(),
      );
      const frame = await adFrameOf(page);
      await startAuction(frame);
      // The frame's listeners wait in the stubs' queues: the full APIs are held back.
      await expect.poll(() => hasQueued(page, '__tcfapi', 'addEventListener'), { timeout: 20_000 }).toBe(true);
      await expect.poll(() => hasQueued(page, '__gpp', 'addEventListener'), { timeout: 20_000 }).toBe(true);
      release();
      await expect.poll(async () => (await tcfCall(page, 'ping')).cmpStatus, { timeout: 20_000 }).toBe('loaded');
      await page.click('#accept');
      expectOurAcceptString(await finished(frame));
      // The GPP string of an auction that waited through the decision: see the CMP iframe case.
      expectTcfeuv2(await runAuction(frame));
    },
    120_000,
  );
});
