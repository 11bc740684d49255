import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentPage, diagnosticsOf } from './consent-fixtures.ts';
import { FAKE_ROUTES, FAKE_SCRIPTS_META } from './fixtures/ad-networks/fakes.ts';
import { html, launchBrowser, newPage, settled, startServer, type TestServer } from './harness.ts';

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer(FAKE_ROUTES);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const CLIENT = { consentInstanceId: 'site', consentRequired: true, promptUI: 'prompt', postPromptUI: 'post' };
const adsense = (slot: string, markers = '') =>
  `<page-ad type="adsense" ${markers} data-ad-client="ca-pub-1" data-ad-slot="${slot}" data-ad-format="auto" data-full-width-responsive="true" layout="fixed-height" height="100"></page-ad>`;
const gpt = (markers = '') =>
  `<page-ad type="doubleclick" ${markers} data-slot="/1234/news" width="300" height="250" layout="fixed"></page-ad>`;

type Push = { npa: number | undefined; slot: string; client: string; format: string };
const pushes = (page: Page) =>
  page.evaluate(() => (window as unknown as { __adsense?: { pushes: Push[] } }).__adsense?.pushes ?? []);
const gptCalls = (page: Page) =>
  page.evaluate(() => (window as unknown as { __gpt?: { calls: unknown[][] } }).__gpt?.calls ?? []);

let count = 0;
/** Opens `body` (or a consent page around it); records every request that leaves the test server. */
async function open(body: string, options: { consent?: boolean; head?: string } = {}) {
  const path = `/networks-${++count}.html`;
  const head = options.head ?? FAKE_SCRIPTS_META;
  server.page(path, options.consent ? consentPage(CLIENT, { body, head }) : html(body, { head }));
  const test = await newPage(browser);
  const outside: string[] = [];
  test.page.on('request', (request) => void (request.url().startsWith(server.origin) || outside.push(request.url())));
  await test.page.goto(server.origin + path);
  return { ...test, outside };
}

describe('page-ad type="adsense"', () => {
  it('renders one ins per slot, loads the script once with the client and pushes once per slot', async () => {
    const before = server.requestsTo('/fake/adsbygoogle.js').length;
    const { page, outside } = await open(adsense('1') + adsense('2') + adsense('3'));
    await expect.poll(async () => (await pushes(page)).length).toBe(3);
    await settled(page);
    const requests = server.requestsTo('/fake/adsbygoogle.js').slice(before);
    expect(requests.map((request) => request.url)).toEqual(['/fake/adsbygoogle.js?client=ca-pub-1']);
    expect(await page.evaluate(() => (window as unknown as { __adsense: { loads: number } }).__adsense.loads)).toBe(1);
    expect(await pushes(page)).toEqual(
      ['1', '2', '3'].map((slot) => ({ params: {}, npa: 1, slot, client: 'ca-pub-1', format: 'auto' })),
    );
    expect(
      await page.$$eval('page-ad ins.adsbygoogle', (slots) =>
        slots.map((ins) => ins.getAttribute('data-full-width-responsive')),
      ),
    ).toEqual(['true', 'true', 'true']);
    expect(outside).toEqual([]);
  });

  it('copies every data-ad-* attribute to the ins (in-feed and in-article units need layout, layout-key, region)', async () => {
    const markup = `<page-ad type="adsense" data-ad-client="ca-pub-1" data-ad-slot="9" data-ad-format="fluid" data-ad-layout="in-article" data-ad-layout-key="-fb+5w+4e-db+86" data-ad-region="r1" data-other="x" layout="fixed-height" height="100"></page-ad>`;
    const { page } = await open(markup);
    await expect.poll(async () => (await pushes(page)).length).toBe(1);
    const attributes = await page.$eval('page-ad ins.adsbygoogle', (ins) =>
      ins
        .getAttributeNames()
        .filter((name) => name.startsWith('data-ad-'))
        .sort(),
    );
    expect(attributes).toEqual([
      'data-ad-client',
      'data-ad-format',
      'data-ad-layout',
      'data-ad-layout-key',
      'data-ad-region',
      'data-ad-slot',
    ]);
    expect(await page.$eval('page-ad ins.adsbygoogle', (ins) => ins.getAttribute('data-ad-layout-key'))).toBe(
      '-fb+5w+4e-db+86',
    );
  });

  it('requests non-personalised ads before consent is accepted and personalised ads after', async () => {
    const { page } = await open(adsense('open'), { consent: true });
    await expect.poll(() => pushes(page)).toMatchObject([{ slot: 'open', npa: 1 }]);
    await page.click('#accept');
    // The click is applied once the consent state is there (on a first visit it may still be loading).
    await page.waitForFunction(
      () => (window as unknown as { consentEvents: { state: string }[] }).consentEvents.at(-1)?.state === 'accepted',
    );
    await page.evaluate((markup) => document.body.insertAdjacentHTML('beforeend', markup), adsense('later'));
    await expect
      .poll(() => pushes(page))
      .toMatchObject([
        { slot: 'open', npa: 1 },
        { slot: 'later', npa: 0 },
      ]);
  });

  it('requests nothing while the slot is blocked, and a personalised ad once consent is accepted', async () => {
    const before = server.requestsTo('/fake/adsbygoogle.js').length;
    const { page } = await open(adsense('blocked', 'data-block-on-consent'), { consent: true });
    await page.waitForSelector('page-consent.page-built', { state: 'attached' });
    await settled(page);
    expect(server.requestsTo('/fake/adsbygoogle.js').length).toBe(before);
    expect(await page.$$('ins')).toHaveLength(0);
    await page.click('#accept');
    await expect.poll(() => pushes(page)).toMatchObject([{ slot: 'blocked', npa: 0 }]);
    expect(server.requestsTo('/fake/adsbygoogle.js').length).toBe(before + 1);
  });

  it('reports a refused script override and loads nothing', async () => {
    const { page, messages, outside } = await open(adsense('1'), {
      head: '<meta name="page-ad-script-adsense" content="javascript:alert(1)">',
    });
    await expect.poll(() => diagnosticsOf(messages, 'url-refused').length).toBe(1);
    expect(await page.$$('ins, script[src^="javascript"]')).toHaveLength(0);
    expect(outside).toEqual([]);
  });

  it('reports a slot without data-ad-client', async () => {
    const { messages } = await open('<page-ad type="adsense" layout="fixed-height" height="100"></page-ad>');
    await expect
      .poll(() => diagnosticsOf(messages, 'missing-attribute').map((line) => line.text))
      .toEqual(['[page-ad] missing-attribute: expected a data-ad-client attribute, got nothing']);
  });
});

describe('page-ad type="doubleclick"', () => {
  it('loads GPT once and defines, displays non-personalised slots without consent', async () => {
    const before = server.requestsTo('/fake/gpt.js').length;
    const { page, outside } = await open(gpt() + gpt());
    await expect.poll(async () => (await gptCalls(page)).filter(([name]) => name === 'display').length).toBe(2);
    expect(server.requestsTo('/fake/gpt.js').length).toBe(before + 1);
    const [first, second] = await page.$$eval('page-ad > div', (boxes) => boxes.map((box) => box.id));
    expect(await gptCalls(page)).toEqual(
      [first, second].flatMap((id) => [
        ['defineSlot', '/1234/news', [300, 250], id],
        ['setPrivacySettings', { nonPersonalizedAds: true }],
        ['enableServices'],
        ['display', id],
      ]),
    );
    expect(outside).toEqual([]);
  });

  it('defines a personalised slot after accept and destroys it when consent is withdrawn', async () => {
    const { page } = await open(gpt('data-block-on-consent'), { consent: true });
    await page.waitForSelector('page-consent.page-built', { state: 'attached' });
    expect(await gptCalls(page)).toEqual([]);
    await page.click('#accept');
    await expect
      .poll(async () => (await gptCalls(page)).map(([name]) => name))
      .toEqual(['defineSlot', 'setPrivacySettings', 'enableServices', 'display']);
    const id = await page.$eval('page-ad > div', (box) => box.id);
    expect((await gptCalls(page))[1]).toEqual(['setPrivacySettings', { nonPersonalizedAds: false }]);
    await page.click('#manage');
    await page.click('#reject');
    await expect.poll(async () => (await gptCalls(page)).at(-1)).toEqual(['destroySlots', [id]]);
    expect(await page.$$('page-ad > div')).toHaveLength(0);
  });
});
