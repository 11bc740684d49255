/**
 * The CMP iframe of `promptUiSrc` (docs/consent.md, "The CMP iframe") in Chromium. The page is on `http://127.0.0.1`,
 * the CMP on `http://localhost` (a second origin of the same server); the test speaks for the
 * CMP by evaluating `parent.postMessage` inside the frame.
 */
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtProbes, consentPage, diagnosticsOf, isShown, storedValues, SVG } from './consent-fixtures.ts';
import { installClock, pauseClock, runUntil } from './clock.ts';
import { html, launchBrowser, newPage, partPath, settled, startServer, type TestServer } from './harness.ts';

let browser: Browser;
let server: TestServer;

const CMP = `<!doctype html><html lang="en"><head><title>CMP</title></head><body><p>CMP</p><script>
window.replies = [];
addEventListener('message', (event) => window.replies.push({ data: event.data, fromParent: event.source === parent }));
window.send = (message) => parent.postMessage(message, '*');
</script></body></html>`;
/** Navigated to inside the CMP frame: the same window, but the page's own origin. */
const IMPOSTOR = `<!doctype html><title>x</title><script>parent.postMessage({ type: 'consent-response', action: 'accept' }, '*');</script>`;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({ '/img.svg': SVG, '/cmp.html': { body: CMP }, '/impostor.html': { body: IMPOSTOR } });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const config = (extra: object = {}) => ({
  consentInstanceId: 'site',
  consentRequired: true,
  promptUiSrc: `${server.otherOrigin}/cmp.html?state=CONSENT_INFO(consentStateValue)`,
  postPromptUI: 'post',
  ...extra,
});

const FRAME = '.page-consent-frame iframe';
const CMP_SCRIPT = 'script[src$="/page-consent-cmp-0.1.js"]';
/** Records, for the next navigation, the page time of the task that first adds an element matching `selector`. */
const recordAddedAt = (page: Page, selector: string) =>
  page.addInitScript((wanted) => {
    const seen = ((window as unknown as { addedAt?: Record<string, number> }).addedAt ??= {});
    new MutationObserver(() => {
      if (seen[wanted] === undefined && document.querySelector(wanted)) seen[wanted] = performance.now();
    }).observe(document, { childList: true, subtree: true });
  }, selector);
/** That page time, once the element is there. */
async function addedAt(page: Page, selector: string): Promise<number> {
  const handle = await page.waitForFunction(
    (wanted) => (window as unknown as { addedAt?: Record<string, number> }).addedAt?.[wanted],
    selector,
  );
  return (await handle.jsonValue()) as number;
}

let count = 0;
async function open(
  json: object,
  options: Parameters<typeof consentPage>[1] = {},
  viewport = { width: 400, height: 600 },
  blockCmpBundle = false,
  onClock = false,
) {
  const path = `/frame-${++count}.html`;
  server.page(path, consentPage(json, options));
  const test = await newPage(browser, { viewport });
  if (onClock) {
    await installClock(test.page);
    await recordAddedAt(test.page, FRAME);
  }
  if (blockCmpBundle) await test.page.route('**/page-consent-cmp-0.1.js', (route) => route.abort());
  await test.page.goto(server.origin + path);
  return test;
}

/** The CMP frame, once its script runs. */
async function cmpFrame(page: Page): Promise<Frame> {
  await page.waitForSelector('.page-consent-frame iframe', { state: 'attached' });
  let frame: Frame | undefined;
  await expect.poll(() => (frame = page.frames().find((f) => f.url().includes('/cmp.html')))).toBeTruthy();
  await frame!.waitForFunction(() => 'send' in window);
  return frame!;
}
const send = (frame: Frame, message: object) =>
  frame.evaluate((m) => (window as unknown as { send(m: object): void }).send(m), message);
const replies = (frame: Frame) =>
  frame.evaluate(() => (window as unknown as { replies: { data: unknown; fromParent: boolean }[] }).replies);
const lastState = (page: Page) =>
  page.evaluate(() => (window as unknown as { consentEvents: { state: string }[] }).consentEvents.at(-1)?.state);
const frameBox = (page: Page) =>
  page.$eval('.page-consent-frame iframe', (f: HTMLIFrameElement) => ({
    height: Math.round(f.getBoundingClientRect().height),
    hidden: f.hidden,
  }));

describe('promptUiSrc iframe', () => {
  it('is created when due, sandboxed, with the client info in its name and macros in its src', async () => {
    const { page } = await open(config({ clientConfig: { theme: 'dark' } }), {
      inside: '<div id="post" hidden>Settings</div>',
    });
    const frame = await cmpFrame(page);
    const attributes = await page.$eval('.page-consent-frame iframe', (f: HTMLIFrameElement) => ({
      sandbox: f.getAttribute('sandbox'),
      name: f.name,
      src: f.src,
      title: f.title,
    }));
    expect(attributes.sandbox).toBe('allow-scripts allow-popups allow-same-origin');
    expect(attributes.src).toBe(`${server.otherOrigin}/cmp.html?state=%22unknown%22`);
    expect(attributes.title).toBe('User Consent Prompt');
    expect(JSON.parse(attributes.name)).toEqual({
      clientConfig: { theme: 'dark' },
      consentStateValue: 'unknown',
      purposeConsents: {},
      promptTrigger: 'load',
      isDirty: false,
    });
    // Hidden behind the placeholder until ready.
    expect((await frameBox(page)).hidden).toBe(true);
    expect(await isShown(page, '.page-consent-placeholder')).toBe(true);
    expect(await frame.evaluate(() => window.name)).toBe(attributes.name);
  });

  it('is not created while no prompt is due (a stored decision)', async () => {
    const { page } = await open(config());
    const frame = await cmpFrame(page);
    await send(frame, { type: 'consent-ui', action: 'ready' });
    await send(frame, { type: 'consent-response', action: 'accept' });
    await expect.poll(() => lastState(page)).toBe('accepted');
    const loads = server.requestsTo('/cmp.html').length;
    await page.reload();
    await expect.poll(() => lastState(page)).toBe('accepted');
    expect(await page.$('.page-consent-frame iframe')).toBeNull();
    expect(server.requestsTo('/cmp.html').length).toBe(loads);
  });

  it('ready shows a bordered bottom sheet of initialHeight and announces it with the captions', async () => {
    const captions = { consentPromptCaption: 'Privacy choices', buttonActionCaption: 'Go to the choices' };
    const { page } = await open(config({ captions }));
    const frame = await cmpFrame(page);
    await send(frame, { type: 'consent-ui', action: 'ready', initialHeight: '40vh' });
    await expect.poll(() => frameBox(page)).toEqual({ height: 240, hidden: false });
    expect(await page.$('.page-consent-placeholder')).toBeNull();
    expect(await page.$eval('.page-consent-frame', (s) => s.classList.contains('page-consent-frame-border'))).toBe(
      true,
    );
    // Focus moves into the frame itself; the visually hidden alert dialog names it, and its button
    // moves focus back into the frame for a reader who left it.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME');
    const alert = await page.$eval('[role=alertdialog]', (a) => ({
      label: a.getAttribute('aria-label'),
      text: a.textContent,
      focused: a.contains(document.activeElement),
    }));
    expect(alert).toEqual({ label: 'Privacy choices', text: 'Privacy choicesGo to the choices', focused: false });
    await page.focus('[role=alertdialog] button');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME');
    expect(await page.$('.page-consent-overlay')).toBeNull();
  });

  it('border: false is honoured for a bottom sheet; a wrong initialHeight keeps 30vh with a diagnostic', async () => {
    const test = await open(config());
    const frame = await cmpFrame(test.page);
    await send(frame, { type: 'consent-ui', action: 'ready', initialHeight: '95vh', border: false });
    await expect.poll(() => frameBox(test.page)).toEqual({ height: 180, hidden: false });
    expect(await test.page.$eval('.page-consent-frame', (s) => s.classList.contains('page-consent-frame-border'))).toBe(
      false,
    );
    expect(diagnosticsOf(test.messages, 'consent-cmp-message-invalid')[0]?.text).toContain('initialHeight');
  });

  it.each([
    ['accept', 'accepted'],
    ['reject', 'rejected'],
  ])('%s carries the consent string, purposes, metadata and policy version into the store', async (action, state) => {
    const { page } = await open(config());
    const frame = await cmpFrame(page);
    await send(frame, { type: 'consent-ui', action: 'ready' });
    await send(frame, {
      type: 'consent-response',
      action,
      info: 'TCSTRING',
      purposeConsents: { ads: action === 'accept' },
      consentMetadata: {
        consentStringType: 2,
        gdprApplies: true,
        additionalConsent: '1~2',
        gppSectionId: '2',
        purposeOne: true,
      },
      tcfPolicyVersion: 5,
    });
    await expect.poll(() => lastState(page)).toBe(state);
    expect(await page.$('.page-consent-frame iframe')).toBeNull();
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    const stored = (await storedValues(page))['consent:site'];
    expect(stored).toMatchObject({
      state,
      consentString: 'TCSTRING',
      purposeConsents: { ads: action === 'accept' },
      consentMetadata: {
        consentStringType: 2,
        gdprApplies: true,
        additionalConsent: '1~2',
        gppSectionId: '2',
        purposeOne: true,
      },
      tcfPolicyVersion: 5,
    });
    await expect.poll(() => builtProbes(page)).toContain('till-responded');
  });

  it('dismiss closes the prompt without storing; the prompt action reopens it with promptTrigger "action"', async () => {
    const { page } = await open(config());
    const frame = await cmpFrame(page);
    await send(frame, { type: 'consent-ui', action: 'ready' });
    await send(frame, { type: 'consent-response', action: 'dismiss', info: 'dropped' });
    await expect.poll(() => lastState(page)).toBe('dismissed');
    expect(await page.$('.page-consent-frame iframe')).toBeNull();
    expect((await storedValues(page))['consent:site']).toBeUndefined();
    await page.click('#manage');
    await cmpFrame(page);
    const name = await page.$eval('.page-consent-frame iframe', (f: HTMLIFrameElement) => JSON.parse(f.name));
    expect(name).toMatchObject({ promptTrigger: 'action', consentStateValue: 'unknown' });
  });

  it('ignores messages from the page itself, an unrelated frame, and the right window under another origin', async () => {
    const other = `<iframe id="other" title="other" src="${server.otherOrigin}/cmp.html?other"></iframe>`;
    const test = await open(config(), { body: other });
    const { page } = test;
    const frame = await cmpFrame(page);
    await send(frame, { type: 'consent-ui', action: 'ready' });
    await page.evaluate(() => window.postMessage({ type: 'consent-response', action: 'accept' }, '*'));
    const unrelated = page.frames().find((f) => f.url().endsWith('/cmp.html?other'))!;
    await unrelated.waitForFunction(() => 'send' in window);
    await send(unrelated, { type: 'consent-response', action: 'accept' });
    // The CMP frame navigates to the page's origin: same window, wrong origin.
    await frame.evaluate((url) => {
      location.href = url;
    }, `${server.origin}/impostor.html`);
    await expect.poll(() => server.requestsTo('/impostor.html').length).toBe(1);
    await settled(page);
    expect(await lastState(page)).toBe('unknown');
    expect(await page.$('.page-consent-frame iframe')).not.toBeNull();
    expect((await storedValues(page))['consent:site']).toBeUndefined();
  });

  it('above 60vh is a modal: overlay, aria-modal, focus in the frame, no fullscreen', async () => {
    const { page } = await open(config());
    const frame = await cmpFrame(page);
    await send(frame, { type: 'consent-ui', action: 'ready', initialHeight: '70vh' });
    await expect.poll(() => frameBox(page)).toEqual({ height: 420, hidden: false });
    expect(await page.$eval('.page-consent-frame', (s) => s.getAttribute('aria-modal'))).toBe('true');
    expect(await isShown(page, '.page-consent-overlay')).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME');
    expect(await page.$('[role=alertdialog]')).toBeNull();
    await send(frame, { type: 'consent-ui', action: 'enter-fullscreen' });
    await expect
      .poll(() => replies(frame))
      .toEqual([
        {
          fromParent: true,
          data: expect.objectContaining({
            type: 'page-consent-response',
            requestType: 'consent-ui',
            requestAction: 'enter-fullscreen',
            state: 'error',
          }),
        },
      ]);
    await send(frame, { type: 'consent-response', action: 'accept' });
    await expect.poll(() => page.$('.page-consent-overlay')).toBeNull();
  });

  it('enter-fullscreen: refused before the frame is ready, granted once the reader interacts with it', async () => {
    const { page } = await open(config());
    const frame = await cmpFrame(page);
    await send(frame, { type: 'consent-ui', action: 'enter-fullscreen' });
    await expect.poll(async () => (await replies(frame)).length).toBe(1);
    await send(frame, { type: 'consent-ui', action: 'ready' });
    // `ready` is handled asynchronously: it moves focus into the frame.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME');
    // A script run by the test counts as the reader's gesture (Playwright evaluates with one), as a click would.
    await send(frame, { type: 'consent-ui', action: 'enter-fullscreen' });
    await expect
      .poll(async () => (await replies(frame)).map((r) => (r.data as { state: string }).state))
      .toEqual(['error', 'success']);
    expect((await replies(frame))[1]!.data).toEqual({
      type: 'page-consent-response',
      requestType: 'consent-ui',
      requestAction: 'enter-fullscreen',
      state: 'success',
      info: 'Entering fullscreen.',
    });
    await expect.poll(() => frameBox(page)).toEqual({ height: 600, hidden: false });
  });

  it('a ready that never comes: after 10 s a diagnostic and the inline promptUI', async () => {
    const prompt =
      '<div id="prompt" hidden><p>Inline</p><button id="accept" on="tap:consent.accept">Accept</button></div>';
    const test = await open(config({ promptUI: 'prompt' }), { inside: prompt }, undefined, false, true);
    await cmpFrame(test.page);
    // The 10 s start in the task that adds the frame; they are moved on at once, not waited out.
    await pauseClock(test.page);
    const frameAt = await addedAt(test.page, FRAME);
    await runUntil(test.page, frameAt + 9_900);
    expect(await isShown(test.page, '#prompt')).toBe(false);
    await runUntil(test.page, frameAt + 10_000);
    await test.page.clock.resume();
    await expect.poll(() => isShown(test.page, '#prompt')).toBe(true);
    expect(diagnosticsOf(test.messages, 'consent-prompt-frame-timeout')).toHaveLength(1);
    expect(await test.page.$('.page-consent-frame iframe')).toBeNull();
    await test.page.click('#accept');
    await expect.poll(() => lastState(test.page)).toBe('accepted');
  }, 30_000);

  it('a refused src (javascript:) is reported and the inline prompt is used at once', async () => {
    const prompt = '<div id="prompt" hidden><p>Inline</p></div>';
    const test = await open(config({ promptUI: 'prompt', promptUiSrc: 'javascript:alert(1)' }), { inside: prompt });
    await expect.poll(() => isShown(test.page, '#prompt')).toBe(true);
    expect(diagnosticsOf(test.messages, 'url-refused')).toHaveLength(1);
    expect(await test.page.$('iframe')).toBeNull();
  });

  it('gives up on an iframe protocol bundle that never arrives after 10 s: a diagnostic and the inline prompt', async () => {
    const prompt = '<div id="prompt" hidden><p>Inline</p></div>';
    const path = `/frame-${++count}.html`;
    server.page(path, consentPage(config({ promptUI: 'prompt' }), { inside: prompt }));
    const test = await newPage(browser, { viewport: { width: 400, height: 600 } });
    // The request is held and never answered.
    await test.page.route('**/page-consent-cmp-0.1.js', () => {});
    // The frame part, which adds the bundle's script, is held until the clock is paused: the
    // bundle's time-out then starts in paused time, however long a busy machine takes between steps.
    let releaseFrame = () => {};
    const frameAsked = new Promise<void>((asked) =>
      test.page.route(`**${partPath('page-consent-frame')}`, (route) => {
        releaseFrame = () => void route.continue();
        asked();
      }),
    );
    await installClock(test.page);
    // The bundle's time-out starts in the task that adds its script: the page time of that.
    await recordAddedAt(test.page, CMP_SCRIPT);
    await test.page.goto(server.origin + path, { waitUntil: 'domcontentloaded' });
    await frameAsked;
    await pauseClock(test.page);
    releaseFrame();
    const loading = await addedAt(test.page, CMP_SCRIPT);
    await runUntil(test.page, loading + 9_900);
    expect(await isShown(test.page, '#prompt')).toBe(false);
    await runUntil(test.page, loading + 10_000);
    await test.page.clock.resume();
    await expect.poll(() => isShown(test.page, '#prompt')).toBe(true);
    expect(diagnosticsOf(test.messages, 'consent-cmp-load-failed')).toHaveLength(1);
    expect(await test.page.$('iframe')).toBeNull();
  });

  it('the iframe protocol is its own bundle, loaded only with a promptUiSrc; if it fails, a diagnostic and the inline prompt', async () => {
    const prompt = '<div id="prompt" hidden><p>Inline</p></div>';
    const test = await open(config({ promptUI: 'prompt' }), { inside: prompt }, undefined, true);
    await expect.poll(() => isShown(test.page, '#prompt')).toBe(true);
    expect(diagnosticsOf(test.messages, 'consent-cmp-load-failed')).toHaveLength(1);
    expect(await test.page.$('iframe')).toBeNull();
    const before = server.requestsTo('/v0/page-consent-cmp-0.1.js').length;
    const inline = await open(
      { consentInstanceId: 'site', consentRequired: true, promptUI: 'prompt' },
      { inside: prompt },
    );
    await expect.poll(() => isShown(inline.page, '#prompt')).toBe(true);
    expect(server.requestsTo('/v0/page-consent-cmp-0.1.js').length).toBe(before);
  });

  it('a same-origin src is sandboxed without allow-same-origin, and its messages count', async () => {
    server.page('/own-cmp.html', CMP.replace('<p>CMP</p>', '<p>Own</p>'));
    const test = await open(
      config({
        promptUiSrc: '/own-cmp.html',
        sandbox: 'allow-popups-to-escape-sandbox allow-top-navigation allow-forms',
      }),
    );
    const { page } = test;
    await page.waitForSelector('.page-consent-frame iframe', { state: 'attached' });
    expect(await page.$eval('.page-consent-frame iframe', (f: HTMLIFrameElement) => f.getAttribute('sandbox'))).toBe(
      'allow-scripts allow-popups allow-popups-to-escape-sandbox',
    );
    expect(
      diagnosticsOf(test.messages, 'consent-sandbox-invalid').map(
        (m) => m.text.includes('allow-top-navigation') || m.text.includes('allow-forms'),
      ),
    ).toEqual([true, true]);
    let frame: Frame | undefined;
    await expect.poll(() => (frame = page.frames().find((f) => f.url().includes('/own-cmp.html')))).toBeTruthy();
    await frame!.waitForFunction(() => 'send' in window);
    await send(frame!, { type: 'consent-response', action: 'accept', info: 'own' });
    await expect.poll(() => lastState(page)).toBe('accepted');
  });

  it('<page-story-consent> together with promptUiSrc is refused; the iframe is used', async () => {
    const story =
      '<page-story-consent layout="nodisplay" hidden><script type="application/json">{"title":"T","message":"M","vendors":[]}</script></page-story-consent>';
    const test = await open(config(), { inside: story });
    await cmpFrame(test.page);
    expect(diagnosticsOf(test.messages, 'consent-story-with-prompt-src')).toHaveLength(1);
    expect(await test.page.$('page-story-consent h2')).toBeNull();
  });
});

describe('CMP preset', () => {
  it('an unknown type is reported and the inline config is used', async () => {
    const page = html(
      `<page-consent id="consent" layout="nodisplay" type="no-such-cmp"><script type="application/json">{"consentInstanceId":"site","consentRequired":true,"promptUI":"p"}</script><div id="p" hidden>Prompt</div></page-consent>`,
      { extensions: ['page-consent'] },
    );
    server.page('/preset-unknown.html', page);
    const test = await newPage(browser);
    await test.page.goto(`${server.origin}/preset-unknown.html`);
    await expect.poll(() => isShown(test.page, '#p')).toBe(true);
    expect(diagnosticsOf(test.messages, 'consent-type-unknown')).toHaveLength(1);
  });
});
