/**
 * The head stub and the bridges against hostile windows (docs/reliability.md, "Bounds of the
 * ad-tech APIs"): only frames inside the page are answered (not a parent or an opener of another
 * origin), a frame's oversized messages are not kept, the stub's queue is bounded and replayed in
 * order, and a frame's flood of GPP listeners is refused past its bound with one diagnostic.
 */
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAME_LISTENER_LIMIT, STUB_QUEUE_LIMIT } from '../../src/consent/api-bounds.ts';
import { consentPage, diagnosticsOf } from './consent-fixtures.ts';
import { launchBrowser, newPage, startServer, type TestServer } from './harness.ts';

let browser: Browser;
let server: TestServer;

/** A window that posts `__tcfapiCall`s to `target()` and keeps every `__tcfapiReturn` it gets. */
const ASKER = (target: string) => `<script>
  window.replies = [];
  addEventListener('message', (event) => event.data && event.data.__tcfapiReturn && replies.push(event.data.__tcfapiReturn));
  window.ask = (command, callId, parameter) => (${target}).postMessage({ __tcfapiCall: { command, version: 2, callId, parameter } }, '*');
</script>`;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer();
  server.page('/child.html', `<!doctype html><title>child</title>${ASKER('parent')}`);
  // The publisher's page: the head stub alone (the stub phase lasts), and an ad frame of another origin.
  server.page(
    '/publisher.html',
    `<!doctype html><html lang="en"><head><title>publisher</title><script src="/v0/page-consent-stub-0.1.js"></script></head>
    <body><iframe id="ad" title="ad" src="${server.otherOrigin}/child.html"></iframe></body></html>`,
  );
  server.page(
    '/framing.html',
    `<!doctype html><title>framing</title>${ASKER('frames[0]')}<iframe title="publisher" src="${server.origin}/publisher.html"></iframe>`,
  );
  server.page('/opening.html', `<!doctype html><title>opening</title>${ASKER('window.opened')}`);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

type Asker = Page | Frame;
const ask = (asker: Asker, command: string, callId: string, parameter?: unknown) =>
  asker.evaluate(([c, id, p]) => (window as never as { ask: Function }).ask(c, id, p), [
    command,
    callId,
    parameter,
  ] as const);
const repliesOf = (asker: Asker) =>
  asker.evaluate(() => (window as never as { replies: { callId: string; success: boolean }[] }).replies);
const queued = (publisher: Asker) =>
  publisher.evaluate(() =>
    ((window as never as { __tcfapi(): unknown[][] }).__tcfapi() as unknown[][]).map((args) => args[0]),
  );
async function childOf(publisher: Asker): Promise<Frame> {
  const child = (await (await publisher.waitForSelector('#ad')).contentFrame())!;
  await child.waitForFunction(() => 'ask' in window, undefined, { polling: 100 });
  return child;
}

/** The attacker's calls and the child's, then: the child is answered, the attacker never, and only the child's call waits in the queue. */
async function expectOnlyTheChildAnswered(attacker: Page, publisher: Asker) {
  await publisher.waitForFunction(() => typeof (window as never as { __tcfapi?: unknown }).__tcfapi === 'function');
  const child = await childOf(publisher);
  await ask(attacker, 'ping', 'attacker-ping');
  await ask(attacker, 'getTCData', 'attacker-data');
  await ask(child, 'ping', 'child-ping');
  await ask(child, 'getTCData', 'child-data');
  await expect
    .poll(async () => (await repliesOf(child)).map((reply) => [reply.callId, reply.success]))
    .toEqual([['child-ping', true]]);
  // The attacker asked first: had its messages been read, its ping would have been answered first.
  expect(await repliesOf(attacker)).toEqual([]);
  expect(await queued(publisher)).toEqual(['getTCData']);
}

describe('the head stub', () => {
  it('adds the TCF and GPP locator frames, not the US privacy one (the extension adds it with a US privacy string)', async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.origin}/publisher.html`);
    await page.waitForSelector('iframe[name="__gppLocator"]', { state: 'attached' });
    const names = await page.$$eval('iframe[name$="Locator"]', (frames) =>
      frames.map((frame) => (frame as HTMLIFrameElement).name).sort(),
    );
    expect(names).toEqual(['__gppLocator', '__tcfapiLocator']);
  });

  it("answers a child frame of another origin, not a page of another origin that frames the publisher's page", async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.otherOrigin}/framing.html`);
    const publisher = (await (await page.waitForSelector('iframe')).contentFrame())!;
    await expectOnlyTheChildAnswered(page, publisher);
  });

  it("answers a child frame of another origin, not a page of another origin that opened the publisher's page", async () => {
    const { page, context } = await newPage(browser);
    await page.goto(`${server.otherOrigin}/opening.html`);
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      page.evaluate(
        (url) => void ((window as never as { opened: unknown }).opened = open(url)),
        `${server.origin}/publisher.html`,
      ),
    ]);
    await popup.waitForLoadState('domcontentloaded');
    await expectOnlyTheChildAnswered(page, popup);
  });

  it("reads and keeps none of 30 calls of 1 MB from a frame, and keeps the frame's small call after them", async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.origin}/publisher.html`);
    const child = await childOf(page);
    await child.evaluate(() => {
      const big = 'x'.repeat(1 << 20);
      for (let n = 0; n < 30; n++) (window as never as { ask: Function }).ask('getTCData', `big-${n}`, [big]);
      (window as never as { ask: Function }).ask('getTCData', 'small', [1, 2]);
    });
    // Messages are read in order: once the small call waits, every big one was seen and dropped.
    const parameters = () =>
      page.evaluate(() =>
        ((window as never as { __tcfapi(): unknown[][] }).__tcfapi() as unknown[][]).map((args) => args[3]),
      );
    await expect.poll(parameters, { timeout: 20_000 }).toEqual([[1, 2]]);
    expect(await repliesOf(child)).toEqual([]);
  });

  it("queues a frame's listeners up to the bound and refuses the rest", async () => {
    const { page } = await newPage(browser);
    await page.goto(`${server.origin}/publisher.html`);
    const child = await childOf(page);
    await child.evaluate((count) => {
      for (let n = 0; n < count; n++) (window as never as { ask: Function }).ask('addEventListener', `listen-${n}`);
    }, FRAME_LISTENER_LIMIT + 10);
    await expect.poll(async () => (await repliesOf(child)).length).toBe(10);
    expect((await repliesOf(child)).map((reply) => reply.success)).toEqual(Array(10).fill(false));
    expect(await queued(page)).toHaveLength(FRAME_LISTENER_LIMIT);
  });
});

describe("the extension's take-over of a bounded queue", () => {
  it('answers the calls the stub kept, in order, and refused the rest at once', async () => {
    const config = {
      consentInstanceId: 'bounded',
      consentRequired: true,
      promptUI: 'prompt',
      postPromptUI: 'post',
      exposesTcfApi: true,
      cmpId: 10,
      cmpVersion: 3,
    };
    const head = `<script src="/v0/page-consent-stub-0.1.js"></script><script>
      window.answers = [];
      for (let n = 0; n < ${STUB_QUEUE_LIMIT + 20}; n++) __tcfapi('getTCData', 2, (data, success) => answers.push([n, success]));
    </script>`;
    server.page('/bounded.html', consentPage(config, { body: '' }).replace('<head>', `<head>${head}`));
    const { page } = await newPage(browser);
    await page.goto(`${server.origin}/bounded.html`);
    const answers = () => page.evaluate(() => (window as never as { answers: [number, boolean][] }).answers);
    await page.click('#accept');
    await expect.poll(async () => (await answers()).length, { timeout: 20_000 }).toBe(STUB_QUEUE_LIMIT + 20);
    const refused = Array.from({ length: 20 }, (_, n) => [STUB_QUEUE_LIMIT + n, false]);
    const kept = Array.from({ length: STUB_QUEUE_LIMIT }, (_, n) => [n, true]);
    expect(await answers()).toEqual([...refused, ...kept]);
  }, 60_000);
});

describe('the full GPP bridge', () => {
  it("registers a frame's first listeners and refuses the rest of a flood, with one diagnostic", async () => {
    const config = {
      consentInstanceId: 'flood',
      consentRequired: true,
      promptUI: 'prompt',
      postPromptUI: 'post',
      exposesGppApi: true,
      cmpId: 10,
      cmpVersion: 3,
    };
    server.page(
      '/flood-child.html',
      `<!doctype html><title>flood</title><script>
      window.replies = [];
      addEventListener('message', (event) => event.data && event.data.__gppReturn && replies.push(event.data.__gppReturn));
      window.flood = (count) => { for (let n = 0; n < count; n++) parent.postMessage({ __gppCall: { command: 'addEventListener', version: '1.1', callId: n } }, '*'); };
    </script>`,
    );
    server.page(
      '/flood.html',
      consentPage(config, {
        body: `<iframe id="ad" title="ad" src="${server.otherOrigin}/flood-child.html"></iframe>`,
      }),
    );
    const { page, messages } = await newPage(browser);
    await page.goto(`${server.origin}/flood.html`);
    await expect
      .poll(
        () =>
          page.evaluate(
            () =>
              new Promise((resolve) =>
                (window as never as { __gpp: Function }).__gpp('ping', (data: { cmpStatus: string }) =>
                  resolve(data.cmpStatus),
                ),
              ),
          ),
        { timeout: 20_000 },
      )
      .toBe('loaded');
    const child = (await (await page.waitForSelector('#ad')).contentFrame())!;
    await child.waitForFunction(() => 'flood' in window, undefined, { polling: 100 });
    await child.evaluate(() => (window as never as { flood(count: number): void }).flood(2000));
    type GppReturn = { callId: number; success: boolean; returnValue: { eventName?: string } | null };
    const firsts = async () => {
      const replies = await child.evaluate(() => (window as never as { replies: GppReturn[] }).replies);
      return new Map(replies.map((reply) => [reply.callId, reply] as const));
    };
    await expect.poll(async () => (await firsts()).size, { timeout: 20_000 }).toBe(2000);
    const byCall = [...(await firsts()).values()];
    expect(
      byCall.filter((reply) => reply.success && reply.returnValue?.eventName === 'listenerRegistered'),
    ).toHaveLength(FRAME_LISTENER_LIMIT);
    expect(byCall.filter((reply) => !reply.success)).toHaveLength(2000 - FRAME_LISTENER_LIMIT);
    expect(diagnosticsOf(messages, 'consent-frame-listeners-exceeded')).toHaveLength(1);
    // The reader's choice reaches the page at once: only the bounded listeners are told.
    const start = Date.now();
    await page.click('#reject');
    await page.waitForFunction(() =>
      (window as never as { consentEvents: { state: string }[] }).consentEvents.some(
        (event) => event.state === 'rejected',
      ),
    );
    expect(Date.now() - start).toBeLessThan(2000);
  }, 60_000);
});
