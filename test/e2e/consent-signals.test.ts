import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentPage, diagnosticsOf } from './consent-fixtures.ts';
import { readFileSync } from 'node:fs';
import { CDN_ROOT, launchBrowser, newPage, partPath, settled, startServer, type TestServer } from './harness.ts';
import { encodeGppString, encodeTcString } from './consent-signals-strings.ts';
import { gppHeaderBomb, tcBomb } from '../consent-string-bombs.ts';

let browser: Browser;
let server: TestServer;
let tcString: string;
let gppString: string;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer();
  tcString = encodeTcString();
  gppString = await encodeGppString();
  server.page(
    '/child.html',
    `<!doctype html><script>
      window.replies = [];
      addEventListener('message', (event) => event.data && event.data.__tcfapiReturn && replies.push(event.data.__tcfapiReturn));
      // The IAB's locator walk, at call time: reading a missing name of a cross-origin window
      // throws, so each step is guarded (a frame may load before the CMP's locator exists).
      const findLocatorHost = () => {
        for (let host = window; ; host = host.parent) {
          try {
            if (host.frames.__tcfapiLocator) return host;
          } catch {}
          if (host === top) return null;
        }
      };
      window.ask = () => findLocatorHost().postMessage({ __tcfapiCall: { command: 'getTCData', version: 2, callId: 'c1' } }, '*');
    </script>`,
  );
  // A frame that posts any message to its parent and keeps every message it gets back.
  server.page(
    '/asker.html',
    `<!doctype html><script>
      window.replies = [];
      addEventListener('message', (event) => replies.push(event.data));
      window.ask = (message) => parent.postMessage(message, '*');
    </script>`,
  );
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

let count = 0;
/**
 * A page whose checkConsentHref answers `answer`, with the signal fields of `config`; the answer
 * waits for `held` when one is given.
 */
async function open(
  config: object,
  answer: object,
  body = '',
  held?: Promise<void>,
  beforeLoad?: (page: Page) => Promise<void>,
) {
  const n = ++count;
  server.route(`/check-${n}`, async () => {
    await held;
    return { body: answer };
  });
  const full = {
    consentInstanceId: 'site',
    checkConsentHref: `/check-${n}`,
    promptUI: 'prompt',
    postPromptUI: 'post',
    ...config,
  };
  server.page(`/signals-${n}.html`, consentPage(full, { body }));
  const test = await newPage(browser);
  await beforeLoad?.(test.page);
  await test.page.goto(`${server.origin}/signals-${n}.html`);
  await test.page.waitForSelector('page-consent.page-built', { state: 'attached' });
  return test;
}

const TCF = { exposesTcfApi: true, cmpId: 10, cmpVersion: 3 };
const accepted = (consentString: string, consentMetadata: object) => ({
  consentRequired: true,
  consentStateValue: 'accepted',
  consentString,
  consentMetadata,
});

type Reply = { data: Record<string, unknown>; success: boolean };
const tcfCall = (page: Page, command: string) =>
  page.evaluate(
    (name) =>
      new Promise<Reply>((resolve) =>
        (window as never as { __tcfapi: Function }).__tcfapi(name, 2, (data: never, success: boolean) =>
          resolve({ data, success }),
        ),
      ),
    command,
  ) as Promise<Reply>;

describe('TCF (__tcfapi)', () => {
  it('answers getTCData with the decoded sections of the TC string, the config ids and the metadata', async () => {
    const { page } = await open(TCF, {
      ...accepted(tcString, { consentStringType: 2, gdprApplies: true, additionalConsent: '1~1.35' }),
      tcfPolicyVersion: 5,
    });
    const { data, success } = await tcfCall(page, 'getTCData');
    expect(success).toBe(true);
    expect(data).toMatchObject({
      tcString,
      gdprApplies: true,
      addtlConsent: '1~1.35',
      cmpId: 10,
      cmpVersion: 3,
      tcfPolicyVersion: 5,
      eventStatus: 'tcloaded',
    });
    expect(data.purpose).toMatchObject({ consents: { 1: true, 2: true, 7: true } });
    expect((data.purpose as { consents: Record<string, boolean> }).consents[3]).toBeFalsy();
    expect(data.vendor).toMatchObject({ consents: { 32: true, 755: true } });
    expect((data.vendor as { consents: Record<string, boolean> }).consents[800]).toBeFalsy();
    expect(data.specialFeatureOptins).toMatchObject({ 1: true });
    expect((await tcfCall(page, 'ping')).data).toMatchObject({ cmpLoaded: true, gdprApplies: true, cmpId: 10 });
  });

  it('answers a cross-origin child frame through the __tcfapiLocator frame', async () => {
    const { page } = await open(
      TCF,
      accepted(tcString, { consentStringType: 2, gdprApplies: true }),
      `<iframe src="${server.otherOrigin}/child.html"></iframe>`,
    );
    // The full API with its TC data first: this test is about the locator path, not the queue.
    await tcfCall(page, 'getTCData');
    const child = page.frames().find((frame) => frame.url().endsWith('/child.html'))!;
    // Poll on a timer: animation frames of a cross-origin child frame may not run headless.
    await child.waitForFunction(() => 'ask' in window, undefined, { polling: 100 });
    await child.evaluate(() => (window as never as { ask(): void }).ask());
    const replies = await child.waitForFunction(
      () => (window as never as { replies: unknown[] }).replies[0],
      undefined,
      { polling: 100 },
    );
    expect(await replies.jsonValue()).toMatchObject({
      success: true,
      callId: 'c1',
      returnValue: { tcString, cmpId: 10, purpose: { consents: { 1: true } } },
    });
  });

  it('calls an addEventListener callback at once, then on the prompt and after the decision', async () => {
    const { page } = await open(TCF, accepted(tcString, { consentStringType: 2, gdprApplies: true }));
    await page.evaluate(() => {
      const scope = window as never as { events: unknown[]; __tcfapi: Function };
      scope.events = [];
      scope.__tcfapi('addEventListener', 2, (data: { eventStatus: string; tcString: string }) =>
        scope.events.push([data.eventStatus, data.tcString]),
      );
    });
    await page.waitForFunction(() => (window as never as { events: unknown[] }).events.length === 1);
    await page.click('#manage');
    await page.click('#reject');
    await page.waitForFunction(() => (window as never as { events: unknown[] }).events.length === 3);
    expect(await page.evaluate(() => (window as never as { events: unknown[] }).events)).toEqual([
      ['tcloaded', tcString],
      ['cmpuishown', tcString],
      ['useractioncomplete', ''],
    ]);
  });

  it('reports a TC string that does not decode and answers without decoded sections', async () => {
    const { page, messages } = await open(
      TCF,
      accepted('not-a-tc-string', { consentStringType: 2, gdprApplies: true }),
    );
    const { data } = await tcfCall(page, 'getTCData');
    expect(data).toMatchObject({ tcString: 'not-a-tc-string', gdprApplies: true });
    expect(data.purpose).toBeUndefined();
    expect(data.vendor).toBeUndefined();
    expect(diagnosticsOf(messages, 'consent-tcf-string-invalid')).toHaveLength(1);
  });

  it('refuses a TC string of ranges over huge id spans before decoding it, answers without a string, and keeps the decision', async () => {
    const bomb = tcBomb();
    const { page, messages } = await open(TCF, accepted(bomb, { consentStringType: 2, gdprApplies: true }));
    const { data } = await tcfCall(page, 'getTCData');
    expect(data).toMatchObject({ tcString: '', gdprApplies: true });
    expect(diagnosticsOf(messages, 'consent-string-refused').map((m) => m.text)).toEqual([
      expect.stringContaining('got "vendor id 65535"'),
    ]);
    expect(diagnosticsOf(messages, 'consent-tcf-string-invalid')).toEqual([]);
    expect(
      await page.evaluate(
        () => (window as never as { consentEvents: { state: string }[] }).consentEvents.at(-1)?.state,
      ),
    ).toBe('accepted');
  });

  it('answers gdprApplies false without a string when the metadata says GDPR does not apply', async () => {
    const { page } = await open(TCF, accepted(tcString, { consentStringType: 2, gdprApplies: false }));
    const { data } = await tcfCall(page, 'getTCData');
    expect(data).toMatchObject({ gdprApplies: false });
    expect(data.tcString).toBeUndefined();
  });

  it('still installs GPP when TCF lacks its cmpId; GPP alone needs no ids (cmpId 0)', async () => {
    const { page, messages } = await open(
      { exposesTcfApi: true, exposesGppApi: true },
      accepted(tcString, { consentStringType: 2 }),
    );
    await page.waitForFunction(
      () =>
        new Promise((resolve) =>
          (window as never as { __gpp: Function }).__gpp('ping', (data: { signalStatus: string }) =>
            resolve(data.signalStatus === 'ready'),
          ),
        ),
    );
    const ping = await page.evaluate(
      () => new Promise((resolve) => (window as never as { __gpp: Function }).__gpp('ping', resolve)),
    );
    expect(ping).toMatchObject({ cmpId: 0 });
    expect(await page.evaluate(() => typeof (window as never as { __tcfapi?: unknown }).__tcfapi)).toBe('undefined');
    expect(diagnosticsOf(messages, 'consent-cmp-id-missing')).toHaveLength(1);
  });

  it('loads no framework bundle without exposesTcfApi', async () => {
    const bundles = () =>
      server.requestsTo('/v0/page-consent-tcf-0.1.js').length + server.requestsTo('/v0/page-consent-gpp-0.1.js').length;
    const before = bundles();
    const { page } = await open({}, accepted(tcString, { consentStringType: 2 }));
    await settled(page);
    expect(await page.evaluate(() => typeof (window as never as { __tcfapi?: unknown }).__tcfapi)).toBe('undefined');
    expect(bundles()).toBe(before);
  });
});

describe('GPP (__gpp)', () => {
  const GPP = { exposesGppApi: true, cmpId: 10, cmpVersion: 3 };
  it('tells listeners listenerRegistered, then signalStatus ready once the state is known', async () => {
    // The answer waits until the listener below is registered, so that it is registered before
    // the state is known.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const { page } = await open(GPP, accepted(gppString, { consentStringType: 4, gppSectionId: '7' }), '', held);
    await page.evaluate(() => {
      const scope = window as never as { events: unknown[]; __gpp: Function };
      scope.events = [];
      scope.__gpp(
        'addEventListener',
        (data: { eventName: string; data: unknown; pingData: { signalStatus: string } }) =>
          scope.events.push([data.eventName, data.data, data.pingData.signalStatus]),
      );
    });
    release();
    await page.waitForFunction(() =>
      (window as never as { events: unknown[][] }).events.some((event) => event[1] === 'ready'),
    );
    const events = (await page.evaluate(() => (window as never as { events: unknown[][] }).events)) as unknown[][];
    expect(events[0]?.[0]).toBe('listenerRegistered');
    expect(events[0]?.[2]).toBe('not ready');
    expect(events.map((event) => event[0])).toContain('sectionChange');
    expect(events.at(-1)).toEqual(['signalStatus', 'ready', 'ready']);
  });

  it('tells a listener added once ready listenerRegistered, then signalStatus ready again', async () => {
    // A vendor that pinged before the change adds its listener after it: the event it waits for is sent.
    const { page } = await open(GPP, accepted(gppString, { consentStringType: 4, gppSectionId: '7' }));
    await page.waitForFunction(
      () =>
        new Promise((resolve) =>
          (window as never as { __gpp: Function }).__gpp('ping', (data: { signalStatus: string }) =>
            resolve(data.signalStatus === 'ready'),
          ),
        ),
    );
    const events = await page.evaluate(() => {
      const events: unknown[][] = [];
      (window as never as { __gpp: Function }).__gpp(
        'addEventListener',
        (data: { eventName: string; data: unknown; pingData: { signalStatus: string } }, success: boolean) =>
          events.push([data.eventName, data.data, data.pingData.signalStatus, success]),
      );
      return events;
    });
    expect(events).toEqual([
      ['listenerRegistered', true, 'ready', true],
      ['signalStatus', 'ready', 'ready', true],
    ]);
  });
});

describe('framework bundles', () => {
  it('load from the directory of the consent script, and a failed load is reported', async () => {
    const consentScript = readFileSync(`${CDN_ROOT}/v0/page-consent-0.1.js`, 'utf8');
    server.route('/lib/page-consent-0.1.js', { body: consentScript, headers: { 'content-type': 'text/javascript' } });
    // Its parts come from the same directory (the bounds part too: only the TCF part is missing).
    for (const part of ['remote', 'state', 'bounds'].map((name) => partPath(`page-consent-${name}`))) {
      server.route(part.replace('/v0/', '/lib/'), {
        body: readFileSync(`${CDN_ROOT}${part}`, 'utf8'),
        headers: { 'content-type': 'text/javascript' },
      });
    }
    server.route('/check-lib', { body: accepted(tcString, { consentStringType: 2 }) });
    const config = {
      consentInstanceId: 'site',
      checkConsentHref: '/check-lib',
      exposesTcfApi: true,
      cmpId: 10,
      cmpVersion: 1,
    };
    server.page('/lib.html', consentPage(config).replace('/v0/page-consent-0.1.js', '/lib/page-consent-0.1.js'));
    const { page, messages } = await newPage(browser);
    await page.goto(`${server.origin}/lib.html`);
    await page.waitForFunction(() => document.querySelector('script[src$="/lib/page-consent-tcf-0.1.js"]'));
    await expect.poll(() => diagnosticsOf(messages, 'consent-signals-load-failed').length).toBe(1);
    expect(server.requestsTo('/lib/page-consent-tcf-0.1.js')).toHaveLength(1);
  });

  it('refuses a GPP string whose header ranges span huge section ids, before decoding it, with one diagnostic', async () => {
    const { page, messages } = await open(
      { ...TCF, exposesGppApi: true },
      accepted(gppHeaderBomb(), { consentStringType: 4, gppSectionId: '2' }),
    );
    await page.waitForFunction(
      () =>
        new Promise((resolve) =>
          (window as never as { __gpp: Function }).__gpp('ping', (data: { signalStatus: string }) =>
            resolve(data.signalStatus === 'ready'),
          ),
        ),
    );
    const ping = await page.evaluate(
      () =>
        new Promise<{ gppString: string }>((resolve) =>
          (window as never as { __gpp: Function }).__gpp('ping', resolve),
        ),
    );
    expect(ping.gppString).not.toContain('~BAAAAAAA');
    expect((await tcfCall(page, 'getTCData')).data).toMatchObject({ tcString: '' });
    expect(diagnosticsOf(messages, 'consent-string-refused').map((m) => m.text)).toEqual([
      expect.stringContaining('more section ids than 1 sections'),
    ]);
    expect(diagnosticsOf(messages, 'consent-gpp-string-invalid')).toEqual([]);
  });

  it('reports a GPP string that does not decode', async () => {
    const { page, messages } = await open(
      { exposesGppApi: true, cmpId: 10, cmpVersion: 3 },
      accepted('DBABLA~###', { consentStringType: 4, gppSectionId: '7' }),
    );
    await page.waitForFunction(
      () =>
        new Promise((resolve) =>
          (window as never as { __gpp: Function }).__gpp('ping', (data: { signalStatus: string }) =>
            resolve(data.signalStatus === 'ready'),
          ),
        ),
    );
    expect(diagnosticsOf(messages, 'consent-gpp-string-invalid')).toHaveLength(1);
  });
});

describe('US privacy (__uspapi)', () => {
  it('serves a US privacy string, and fails without one', async () => {
    const { page } = await open({}, accepted('1YNN', { consentStringType: 3 }));
    const ask = () =>
      page.evaluate(
        () =>
          new Promise((resolve) =>
            (window as never as { __uspapi: Function }).__uspapi('getUSPData', 1, (data: unknown, success: boolean) =>
              resolve({ data, success }),
            ),
          ),
      );
    await page.waitForFunction(() =>
      (window as never as { consentEvents: { state: string }[] }).consentEvents.some(
        (event) => event.state === 'accepted',
      ),
    );
    expect(await ask()).toEqual({ data: { version: 1, uspString: '1YNN' }, success: true });
    const other = await open({}, accepted(tcString, { consentStringType: 2 }));
    expect(
      await other.page.evaluate(
        () =>
          new Promise((resolve) =>
            (window as never as { __uspapi: Function }).__uspapi('getUSPData', 1, (_: unknown, success: boolean) =>
              resolve(success),
            ),
          ),
      ),
    ).toBe(false);
  });
});

describe('US privacy frames (__uspapiLocator)', () => {
  it('answers a cross-origin child frame through the locator frame', async () => {
    const { page } = await open(
      {},
      accepted('1YNN', { consentStringType: 3 }),
      `<iframe src="${server.otherOrigin}/asker.html"></iframe>`,
    );
    await page.waitForFunction(() =>
      (window as never as { consentEvents: { state: string }[] }).consentEvents.some(
        (event) => event.state === 'accepted',
      ),
    );
    // The locator frame comes with the first US privacy string; pages without one never get it.
    expect(await page.$$eval('iframe[name="__uspapiLocator"]', (frames) => frames.length)).toBe(1);
    const other = await open({}, accepted(tcString, { consentStringType: 2 }));
    await settled(other.page);
    expect(await other.page.$$eval('iframe[name="__uspapiLocator"]', (frames) => frames.length)).toBe(0);
    const child = page.frames().find((frame) => frame.url().endsWith('/asker.html'))!;
    await child.waitForFunction(() => 'ask' in window, undefined, { polling: 100 });
    await child.evaluate(() =>
      (window as never as { ask(m: unknown): void }).ask({
        __uspapiCall: { command: 'getUSPData', version: 1, callId: 'u1' },
      }),
    );
    const reply = await child.waitForFunction(() => (window as never as { replies: unknown[] }).replies[0], undefined, {
      polling: 100,
    });
    expect(await reply.jsonValue()).toEqual({
      __uspapiReturn: { returnValue: { version: 1, uspString: '1YNN' }, success: true, callId: 'u1' },
    });
  });
});

describe('signals before <page-geo> answers', () => {
  it('installs the stubs and pushes the Consent Mode default while the geo answer is still awaited', async () => {
    const config = {
      ...TCF,
      exposesGppApi: true,
      consentModeMapping: { ad_storage: 'consent' },
      geoOverride: { eea: { consentRequired: true } },
    };
    // A <page-geo> whose extension is never loaded: consent waits up to 5 s for its groups, in
    // page time, which stands still here, so the wait is never over however slow the machine.
    const pauseTime = async (page: Page) => {
      await page.clock.install();
      await page.clock.pauseAt(Date.now() + 1000);
    };
    const { page, messages } = await open(
      config,
      { consentRequired: true, consentStateValue: 'unknown' },
      '<page-geo layout="nodisplay"></page-geo>',
      undefined,
      pauseTime,
    );
    await page.waitForFunction(() => typeof (window as never as { __gpp?: unknown }).__gpp === 'function', undefined, {
      timeout: 15_000,
    });
    const early = await page.evaluate(() => ({
      tcf: typeof (window as never as { __tcfapi?: unknown }).__tcfapi,
      locators: [...document.querySelectorAll('iframe[name$="Locator"]')]
        .map((frame) => frame.getAttribute('name'))
        .sort(),
      first: Array.from((window as never as { dataLayer: ArrayLike<unknown>[] }).dataLayer[0]!),
    }));
    expect(early).toEqual({
      tcf: 'function',
      locators: ['__gppLocator', '__tcfapiLocator'],
      first: ['consent', 'default', { ad_storage: 'denied' }],
    });
    expect(diagnosticsOf(messages, 'consent-geo-timeout')).toHaveLength(0);
  });

  it("applies a geo group's signal fields once the geo answer is there, and only in that group", async () => {
    server.route('/check-geo-signals', { body: accepted(tcString, { consentStringType: 2, gdprApplies: true }) });
    const config = {
      consentInstanceId: 'site',
      checkConsentHref: '/check-geo-signals',
      promptUI: 'prompt',
      geoOverride: { ca: TCF },
    };
    server.page('/geo-signals.html', consentPage(config, { geo: { ISOCountryGroups: { ca: ['us'] } } }));
    const inGroup = await newPage(browser);
    await inGroup.page.goto(`${server.origin}/geo-signals.html#page-geo=us`);
    expect((await tcfCall(inGroup.page, 'ping')).data).toMatchObject({ cmpId: 10 });
    const outside = await newPage(browser);
    await outside.page.goto(`${server.origin}/geo-signals.html#page-geo=de`);
    await outside.page.waitForFunction(
      () => (window as never as { consentEvents: unknown[] }).consentEvents.length > 0,
    );
    expect(await outside.page.evaluate(() => typeof (window as never as { __tcfapi?: unknown }).__tcfapi)).toBe(
      'undefined',
    );
  });
});

describe('creative frames of <page-ad type=custom>', () => {
  const creative = (query: string) => `${server.otherOrigin}/asker.html?${query}`;

  it("expand the GPP macros and answer only the ad's own frame with the consent values", async () => {
    const body = `<page-ad id="ad" type="custom" width="300" height="50" data-block-on-consent
        data-src="${creative('gpp=${GPP_STRING}&sid=${GPP_SID}&cs=${GDPR_CONSENT}&us=${US_PRIVACY}')}"></page-ad>
      <iframe id="foreign" src="${creative('foreign')}"></iframe>`;
    const { page, messages } = await open({}, accepted(gppString, { consentStringType: 4, gppSectionId: '2_7' }), body);
    await page.waitForSelector('#ad iframe');
    const src = await page.$eval('#ad iframe', (frame) => (frame as HTMLIFrameElement).src);
    expect(new URL(src).search).toBe(`?gpp=${encodeURIComponent(gppString)}&sid=2%2C7&cs=&us=`);
    const frameOf = (part: string) => page.frames().find((frame) => frame.url().includes(part))!;
    await expect.poll(() => frameOf('gpp=') && frameOf('foreign') && true).toBe(true);
    const [ad, foreign] = [frameOf('gpp='), frameOf('foreign')];
    for (const frame of [ad, foreign]) await frame.waitForFunction(() => 'ask' in window, undefined, { polling: 100 });
    const ask = (frame: typeof ad, message: unknown) =>
      frame.evaluate((m) => (window as never as { ask(m: unknown): void }).ask(m), message);
    await ask(foreign, { pageAdConsentCall: { callId: 'foreign' } });
    await ask(ad, { pageAdConsentCall: { callId: 'bad', extra: 1 } });
    await ask(ad, JSON.stringify({ pageAdConsentCall: { callId: 'text' } }));
    await ask(ad, { pageAdConsentCall: { callId: 2 } });
    await ask(ad, { pageAdConsentCall: { callId: { nested: true } } });
    const replies = () => ad.evaluate(() => (window as never as { replies: unknown[] }).replies);
    await expect.poll(async () => (await replies()).length).toBe(2);
    const values = {
      gdpr: '1',
      gdprConsent: '',
      consentState: 'accepted',
      usPrivacy: '',
      gppString,
      gppSid: '2,7',
      addtlConsent: '',
    };
    expect(await replies()).toEqual([
      { pageAdConsentReturn: { callId: 'bad', ...values } },
      { pageAdConsentReturn: { callId: 2, ...values } },
    ]);
    await settled(page);
    expect(await foreign.evaluate(() => (window as never as { replies: unknown[] }).replies)).toEqual([]);
    expect(diagnosticsOf(messages, 'ad-consent-call-invalid')).toHaveLength(1);
  });
});

describe('Consent Mode v2', () => {
  const MODE = {
    consentModeMapping: { ad_storage: 'consent', analytics_storage: 'purpose:analytics', security_storage: 'granted' },
    consentModeOptions: { waitForUpdate: 500, adsDataRedaction: true, urlPassthrough: true },
  };
  const dataLayer = (page: Page) =>
    page.evaluate(() =>
      (window as never as { dataLayer: ArrayLike<unknown>[] }).dataLayer.map((entry) => Array.from(entry)),
    );

  it('pushes the default first, then an update for each decision', async () => {
    const { page } = await open(MODE, { consentRequired: true, consentStateValue: 'unknown' });
    await page.click('#accept');
    await page.waitForFunction(() => (window as never as { dataLayer: unknown[] }).dataLayer.length === 4);
    await page.click('#manage');
    await page.click('#reject');
    await page.waitForFunction(() => (window as never as { dataLayer: unknown[] }).dataLayer.length === 5);
    expect(await dataLayer(page)).toEqual([
      [
        'consent',
        'default',
        { ad_storage: 'denied', analytics_storage: 'denied', security_storage: 'granted', wait_for_update: 500 },
      ],
      ['set', 'ads_data_redaction', true],
      ['set', 'url_passthrough', true],
      ['consent', 'update', { ad_storage: 'granted', analytics_storage: 'denied', security_storage: 'granted' }],
      ['consent', 'update', { ad_storage: 'denied', analytics_storage: 'denied', security_storage: 'granted' }],
    ]);
  });

  it('grants a purpose-mapped type from the purpose consents and reports an invalid mapping', async () => {
    const { page, messages } = await open(
      { consentModeMapping: { analytics_storage: 'purpose:analytics', ad_storage: 'yes', cookies: 'consent' } },
      { ...accepted('', {}), purposeConsents: { analytics: true } },
    );
    await page.waitForFunction(() => (window as never as { dataLayer: unknown[] }).dataLayer.length === 2);
    expect(await dataLayer(page)).toEqual([
      ['consent', 'default', { analytics_storage: 'denied' }],
      ['consent', 'update', { analytics_storage: 'granted' }],
    ]);
    expect(diagnosticsOf(messages, 'consent-mode-mapping-invalid')).toHaveLength(2);
  });
});
