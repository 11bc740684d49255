/**
 * Acceptance scenarios for <page-consent>, written black-box from the public contract only
 * (docs/architecture.md, docs/runtime.md, docs/consent.md, docs/geo.md and the README, including "What users can expect"), the way a
 * publisher copies the examples: real Chromium against the built bundles in dist/cdn.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { fetchedAt, installClock, pauseClock, runUntil, shownAt } from './clock.ts';
import { html, newPage, type RecordedRequest, settled, type TestPage } from './harness.ts';
import type { SettleOptions } from './settled.ts';
import {
  DIAGNOSTIC,
  diagnosticLines,
  isShown,
  storedValues,
  useConsentFixture,
  vendorCall,
} from './consent-fixtures.ts';

const fixture = useConsentFixture();
const opened: TestPage[] = [];

afterAll(async () => {
  for (const test of opened) await test.context.close().catch(() => {});
});

/** Generous waits: a real browser on a loaded two-core machine. */
const WAIT = { timeout: 15_000 };
const CLICK = { timeout: 10_000 };

let counter = 0;
/** A fresh prefix so every scenario's resources and endpoints have their own recorded paths. */
function fresh(): string {
  return `/t${++counter}`;
}

type Options = {
  head?: string;
  extensions?: readonly string[];
  viewport?: { width: number; height: number };
  hash?: string;
  clock?: boolean;
};

/** Serves `body` as a page and opens it in a fresh browser context (empty storage). */
async function open(prefix: string, body: string, options: Options = {}): Promise<TestPage> {
  const path = `${prefix}/page.html`;
  fixture.server.page(
    path,
    html(body, { extensions: options.extensions ?? ['page-consent'], ...(options.head ? { head: options.head } : {}) }),
  );
  const test = await newPage(fixture.browser, { viewport: options.viewport ?? { width: 800, height: 600 } });
  opened.push(test);
  if (options.clock) await installClock(test.page);
  await test.page.addInitScript(() => {
    const w = window as unknown as { events: unknown[]; eventKeys: string[][] };
    w.events = [];
    w.eventKeys = [];
    document.addEventListener('consent-change', (event) => {
      const detail = (event as CustomEvent).detail ?? {};
      w.eventKeys.push(Object.keys(detail));
      w.events.push(JSON.parse(JSON.stringify(detail)));
    });
  });
  await test.page.goto(fixture.server.origin + path + (options.hash ?? ''));
  return test;
}

/** Reloads in the same context (same storage), the next visit of the same reader. */
async function revisit(test: TestPage, hash = ''): Promise<void> {
  const url = new URL(test.page.url());
  url.hash = hash;
  await test.page.goto('about:blank');
  await test.page.goto(url.toString());
}

/** The consent element as a publisher writes it: JSON child, prompt with actions, post-prompt UI. */
function consent(config: object, extraUi = ''): string {
  return `<page-consent id="consent" layout="nodisplay">
  <script type="application/json">${JSON.stringify(config)}</script>
  <div id="prompt">
    <p>We and our partners use cookies for ads and measurement.</p>
    <button id="accept" on="tap:consent.accept">Accept</button>
    <button id="reject" on="tap:consent.reject">Reject</button>
    <button id="dismiss" on="tap:consent.dismiss">Not now</button>
    ${extraUi}
  </div>
  <div id="post"><button id="settings" on="tap:consent.prompt">Privacy settings</button></div>
</page-consent>`;
}

/** Blocked components of every built-in kind, a blocked text/plain script, and an unblocked control image. */
function blocked(prefix: string, marker = 'data-block-on-consent'): string {
  return `
  <page-img id="img" ${marker} src="${prefix}/img.svg" width="100" height="50" layout="fixed" alt="photo"></page-img>
  <page-iframe id="frame" ${marker} src="${prefix}/frame.html" width="200" height="100" layout="fixed"></page-iframe>
  <page-ad id="ad" ${marker} type="fake" width="300" height="250" layout="fixed"></page-ad>
  <page-pixel id="pixel" ${marker} src="${prefix}/pixel"></page-pixel>
  <script type="text/plain" ${marker}>(window.ran = window.ran || []).push('blocked-script');</script>
  <page-img id="control" src="${prefix}/control.svg" width="10" height="10" layout="fixed" alt="control"></page-img>`;
}

type Built = { img: boolean; frame: boolean; ad: boolean; script: number; pixel: number };

/** What of `blocked()` has been built, seen from the outside (DOM and requests). */
async function built(test: TestPage, prefix: string): Promise<Built> {
  const dom = await test.page.evaluate(() => ({
    img: !!document.querySelector('#img img[src]'),
    frame: !!document.querySelector('#frame iframe'),
    ad: (document.querySelector('#ad')?.childElementCount ?? 0) > 0,
    script: ((window as unknown as { ran?: string[] }).ran ?? []).length,
  }));
  return { ...dom, pixel: fixture.server.requestsTo(`${prefix}/pixel`).filter((r) => r.method === 'GET').length };
}

const NOTHING_BUILT: Built = { img: false, frame: false, ad: false, script: 0, pixel: 0 };
const ALL_BUILT: Built = { img: true, frame: true, ad: true, script: 1, pixel: 1 };

/** Waits until the unblocked control image is built, so the runtime and gate have run. */
async function controlBuilt(test: TestPage): Promise<void> {
  await test.page.waitForSelector('#control img[src]', { state: 'attached', ...WAIT });
}

/** Asserts that blocked content stays unbuilt, and that no blocked resource was requested (`settle`: requests that may stay open). */
async function expectNothingBuilt(test: TestPage, prefix: string, settle: SettleOptions = {}): Promise<void> {
  await controlBuilt(test);
  await settled(test.page, settle);
  expect(await built(test, prefix)).toEqual(NOTHING_BUILT);
  for (const name of ['img.svg', 'frame.html', 'pixel'])
    expect(fixture.server.requestsTo(`${prefix}/${name}`)).toHaveLength(0);
}

async function expectAllBuilt(test: TestPage, prefix: string): Promise<void> {
  await expect.poll(() => built(test, prefix), WAIT).toEqual(ALL_BUILT);
}

/** `page.consent.getPolicyState()` through the vendor API; 'pending' when it has not resolved within `ms`. */
async function policyState(page: Page, ms = 10_000): Promise<unknown> {
  return page.evaluate(
    (ms) =>
      new Promise((resolve) => {
        setTimeout(() => resolve('pending'), ms);
        const queue = ((self as unknown as { PAGE: unknown[] }).PAGE =
          (self as unknown as { PAGE?: unknown[] }).PAGE ?? []);
        queue.push((runtime: { consent: { getPolicyState(): Promise<unknown> } }) =>
          runtime.consent.getPolicyState().then(resolve),
        );
      }),
    ms,
  );
}

async function events(page: Page): Promise<Array<Record<string, unknown>>> {
  return page.evaluate(() => (window as unknown as { events: Array<Record<string, unknown>> }).events);
}

async function lastState(page: Page): Promise<unknown> {
  return (await events(page)).at(-1)?.state;
}

function json(request: RecordedRequest | undefined): Record<string, unknown> {
  return JSON.parse(request?.body ?? 'null') as Record<string, unknown>;
}

const CLIENT = { consentInstanceId: 'site', consentRequired: true, promptUI: 'prompt', postPromptUI: 'post' };

describe('consent acceptance: client-only decisions', () => {
  it('shows only the prompt on a first visit and builds or requests nothing that is blocked', async () => {
    const p = fresh();
    const test = await open(p, consent(CLIENT) + blocked(p));
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    expect(await isShown(test.page, '#post')).toBe(false);
    expect(await test.page.locator('#prompt').evaluate((e) => getComputedStyle(e).display)).toBe('block');
    await expectNothingBuilt(test, p);
    expect(await storedValues(test.page)).toEqual({});
    expect(test.errors).toEqual([]);
  });

  it('builds every blocked kind once on accept, stores the decision, and shows the post-prompt UI', async () => {
    const p = fresh();
    const test = await open(p, consent(CLIENT) + blocked(p));
    await test.page.click('#accept', CLICK);
    await expectAllBuilt(test, p);
    await expect.poll(() => isShown(test.page, '#prompt'), WAIT).toBe(false);
    await expect.poll(() => isShown(test.page, '#post'), WAIT).toBe(true);
    expect(await storedValues(test.page)).not.toEqual({});
    expect(await policyState(test.page)).toBe('sufficient');
    expect(await lastState(test.page)).toBe('accepted');
    expect(await test.page.locator('#img img').getAttribute('src')).toBe(`${p}/img.svg`);
    expect(test.errors).toEqual([]);
  });

  it('remembers an accept across a reload: no prompt, the post-prompt UI on load, everything built', async () => {
    const p = fresh();
    const test = await open(p, consent(CLIENT) + blocked(p));
    await test.page.click('#accept', CLICK);
    await expectAllBuilt(test, p);
    await revisit(test);
    await expect.poll(() => built(test, p), WAIT).toMatchObject({ img: true, frame: true, ad: true, script: 1 });
    await expect.poll(() => isShown(test.page, '#post'), WAIT).toBe(true);
    expect(await isShown(test.page, '#prompt')).toBe(false);
    expect(await policyState(test.page)).toBe('sufficient');
  });

  it('keeps blocked content unbuilt on reject, remembers it, and does not prompt on the next visit', async () => {
    const p = fresh();
    const test = await open(p, consent(CLIENT) + blocked(p));
    await test.page.click('#reject', CLICK);
    await expect.poll(() => isShown(test.page, '#prompt'), WAIT).toBe(false);
    await expect.poll(() => isShown(test.page, '#post'), WAIT).toBe(true);
    await expectNothingBuilt(test, p);
    expect(await policyState(test.page)).toBe('insufficient');
    expect(await lastState(test.page)).toBe('rejected');
    expect(await storedValues(test.page)).not.toEqual({});

    await revisit(test);
    await expect.poll(() => isShown(test.page, '#post'), WAIT).toBe(true);
    expect(await isShown(test.page, '#prompt')).toBe(false);
    await expectNothingBuilt(test, p);
    expect(await policyState(test.page)).toBe('insufficient');
  });

  it('builds blocked elements without a reload when a reject is changed to accept through the post-prompt UI', async () => {
    const p = fresh();
    const test = await open(p, consent(CLIENT) + blocked(p));
    await test.page.click('#reject', CLICK);
    await expectNothingBuilt(test, p);
    await test.page.click('#settings', CLICK);
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    expect(await isShown(test.page, '#post')).toBe(false);
    await test.page.click('#accept', CLICK);
    await expectAllBuilt(test, p);
    expect(await policyState(test.page)).toBe('sufficient');
    expect((await events(test.page)).map((e) => e.state).filter((s) => s === 'rejected' || s === 'accepted')).toEqual([
      'rejected',
      'accepted',
    ]);
    // The blocked script ran exactly once and the pixel fired exactly once, even after another accept.
    await test.page.click('#settings', CLICK);
    await test.page.click('#accept', CLICK);
    await settled(test.page);
    expect(await built(test, p)).toEqual(ALL_BUILT);
  });

  it('stores nothing on dismiss, keeps content blocked, and prompts again on the next visit', async () => {
    const p = fresh();
    const test = await open(p, consent(CLIENT) + blocked(p));
    await test.page.click('#dismiss', CLICK);
    await expect.poll(() => isShown(test.page, '#prompt'), WAIT).toBe(false);
    await expectNothingBuilt(test, p);
    expect(await storedValues(test.page)).toEqual({});
    expect(await lastState(test.page)).toBe('dismissed');

    await revisit(test);
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    await expectNothingBuilt(test, p);
  });

  it('removes the iframe of a built element when the reader withdraws consent', async () => {
    const p = fresh();
    const test = await open(p, consent(CLIENT) + blocked(p));
    await test.page.click('#accept', CLICK);
    await expectAllBuilt(test, p);
    await test.page.click('#settings', CLICK);
    await test.page.click('#reject', CLICK);
    await expect.poll(() => test.page.locator('#frame iframe').count(), WAIT).toBe(0);
    expect(await policyState(test.page)).toBe('insufficient');
  });

  it('runs blocked text/plain scripts in document order with their other attributes kept', async () => {
    const p = fresh();
    const scripts = `
      <script type="text/plain" data-block-on-consent id="first" data-vendor="a">(window.order = window.order || []).push(document.currentScript ? document.currentScript.id + ':' + document.currentScript.dataset.vendor : 'first');</script>
      <script type="text/plain" data-block-on-consent id="second">(window.order = window.order || []).push('second');</script>`;
    const test = await open(p, consent(CLIENT) + scripts + blocked(p));
    await controlBuilt(test);
    expect(await test.page.evaluate(() => (window as unknown as { order?: string[] }).order)).toBeUndefined();
    await test.page.click('#accept', CLICK);
    await expect
      .poll(() => test.page.evaluate(() => (window as unknown as { order?: string[] }).order), WAIT)
      .toEqual(['first:a', 'second']);
    expect(await test.page.locator('script#first').getAttribute('data-vendor')).toBe('a');
  });

  it('shows nothing and builds everything when consentRequired is false', async () => {
    const p = fresh();
    const test = await open(p, consent({ ...CLIENT, consentRequired: false }) + blocked(p));
    await expectAllBuilt(test, p);
    expect(await isShown(test.page, '#prompt')).toBe(false);
    expect(await isShown(test.page, '#post')).toBe(false);
    expect(await policyState(test.page)).toBe('unknown_not_required');
    expect(await storedValues(test.page)).toEqual({});
    await expect.poll(() => lastState(test.page), WAIT).toBe('not-required');
  });

  it('reports a consent-change event with the public detail fields', async () => {
    const p = fresh();
    const test = await open(p, consent(CLIENT) + blocked(p));
    await test.page.click('#accept', CLICK);
    await expect.poll(() => lastState(test.page), WAIT).toBe('accepted');
    const keys = await test.page.evaluate(() => (window as unknown as { eventKeys: string[][] }).eventKeys.at(-1));
    expect(keys).toEqual(
      expect.arrayContaining(['state', 'purposeConsents', 'consentString', 'consentMetadata', 'sharedData']),
    );
    const detail = (await events(test.page)).at(-1) ?? {};
    expect(typeof detail.purposeConsents).toBe('object');
  });

  it('keeps a stored rejection even when the config later says consentRequired false', async () => {
    const p = fresh();
    const test = await open(p, consent(CLIENT) + blocked(p));
    await test.page.click('#reject', CLICK);
    await expect.poll(() => isShown(test.page, '#post'), WAIT).toBe(true);
    fixture.server.page(
      `${p}/relaxed.html`,
      html(consent({ ...CLIENT, consentRequired: false }) + blocked(p), { extensions: ['page-consent'] }),
    );
    await test.page.goto(`${fixture.server.origin}${p}/relaxed.html`);
    await expectNothingBuilt(test, p);
    expect(await policyState(test.page)).toBe('insufficient');
  });

  it('treats the legacy promptIfUnknown as consentRequired', async () => {
    const p = fresh();
    const test = await open(
      p,
      consent({ consentInstanceId: 'site', promptIfUnknown: true, promptUI: 'prompt' }) + blocked(p),
    );
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    await expectNothingBuilt(test, p);
    await test.page.click('#accept', CLICK);
    await expectAllBuilt(test, p);
  });

  it('does not act on accept from outside while no prompt is shown', async () => {
    const p = fresh();
    const outside = '<button id="footer-accept" on="tap:consent.accept">Accept from footer</button>';
    const test = await open(p, consent(CLIENT) + outside + blocked(p));
    await test.page.click('#reject', CLICK);
    await expect.poll(() => isShown(test.page, '#prompt'), WAIT).toBe(false);
    await test.page.click('#footer-accept', CLICK);
    await expectNothingBuilt(test, p);
    expect(await policyState(test.page)).toBe('insufficient');
  });

  it('keeps working for the page view with a warning when localStorage throws', async () => {
    const p = fresh();
    const path = `${p}/page.html`;
    fixture.server.page(path, html(consent(CLIENT) + blocked(p), { extensions: ['page-consent'] }));
    const test = await newPage(fixture.browser);
    opened.push(test);
    await test.page.addInitScript(() => {
      Object.defineProperty(window, 'localStorage', {
        get() {
          throw new DOMException('denied', 'SecurityError');
        },
      });
    });
    await test.page.goto(fixture.server.origin + path);
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    await expect
      .poll(() => test.messages.filter((m) => m.type === 'warning' && DIAGNOSTIC.test(m.text)).length, WAIT)
      .toBeGreaterThan(0);
    await test.page.click('#accept', CLICK);
    await expectAllBuilt(test, p);
    expect(test.errors).toEqual([]);
  });

  it('shows an inline post-prompt UI outside the consent element only after the prompt is answered', async () => {
    const p = fresh();
    const inline =
      '<footer><div id="inline-post"><button on="tap:consent.prompt">Cookie choices</button></div></footer>';
    const test = await open(p, consent({ ...CLIENT, postPromptUI: 'inline-post' }) + inline + blocked(p));
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    expect(await isShown(test.page, '#inline-post')).toBe(false);
    await test.page.click('#accept', CLICK);
    await expect.poll(() => isShown(test.page, '#inline-post'), WAIT).toBe(true);
    await test.page.click('#inline-post button', CLICK);
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
  });

  it('accepts through a role=button element with the keyboard', async () => {
    const p = fresh();
    const keyButton = '<span id="key-accept" role="button" tabindex="0" on="tap:consent.accept">Accept (key)</span>';
    const test = await open(p, consent(CLIENT, keyButton) + blocked(p));
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    await test.page.focus('#key-accept');
    await test.page.keyboard.press('Space');
    await expectAllBuilt(test, p);
  });

  it('reports an unknown action on the consent element without throwing', async () => {
    const p = fresh();
    const bad = '<button id="bad" on="tap:consent.explode">Explode</button>';
    const test = await open(p, consent(CLIENT, bad) + blocked(p));
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    await test.page.click('#bad', CLICK);
    await expect
      .poll(() => test.messages.filter((m) => DIAGNOSTIC.test(m.text) && m.text.includes('explode')).length, WAIT)
      .toBeGreaterThan(0);
    expect(test.errors).toEqual([]);
    await test.page.click('#accept', CLICK);
    await expectAllBuilt(test, p);
  });

  it('keeps an earlier accept and built content when the re-shown prompt is dismissed', async () => {
    const p = fresh();
    const test = await open(p, consent(CLIENT) + blocked(p));
    await test.page.click('#accept', CLICK);
    await expectAllBuilt(test, p);
    await test.page.click('#settings', CLICK);
    await test.page.click('#dismiss', CLICK);
    await expect.poll(() => isShown(test.page, '#post'), WAIT).toBe(true);
    await settled(test.page);
    expect(await built(test, p)).toEqual(ALL_BUILT);
    expect(await policyState(test.page)).toBe('sufficient');
    await revisit(test);
    await expect.poll(() => built(test, p), WAIT).toMatchObject({ img: true, frame: true, ad: true, script: 1 });
    expect(await isShown(test.page, '#prompt')).toBe(false);
  });

  it('gates elements inserted after the decision: blocked after reject, built once accepted', async () => {
    const p = fresh();
    const test = await open(
      p,
      consent(CLIENT) +
        '<div id="slot"></div><page-img id="control" src="' +
        p +
        '/control.svg" width="10" height="10" layout="fixed"></page-img>',
    );
    await test.page.click('#reject', CLICK);
    await expect.poll(() => isShown(test.page, '#post'), WAIT).toBe(true);
    await test.page.evaluate((p) => {
      document.querySelector('#slot')!.innerHTML =
        `<page-img id="late" data-block-on-consent src="${p}/late.svg" width="10" height="10" layout="fixed"></page-img>`;
    }, p);
    await settled(test.page);
    expect(await test.page.locator('#late img').count()).toBe(0);
    await test.page.click('#settings', CLICK);
    await test.page.click('#accept', CLICK);
    await test.page.waitForSelector('#late img[src]', { state: 'attached', ...WAIT });
  });

  it('gates a vendor-defined element: buildCallback once after accept, unlayoutCallback on withdrawal', async () => {
    const p = fresh();
    const vendorScript = `<script>
      window.widget = { built: 0, unlaid: 0 };
      (self.PAGE = self.PAGE || []).push((page) => page.define('vendor-widget', class extends page.PageElement {
        buildCallback() { window.widget.built++; this.element.textContent = 'widget'; }
        layoutCallback() { return Promise.resolve(); }
        unlayoutCallback() { window.widget.unlaid++; this.element.textContent = ''; return true; }
        isLayoutSupported() { return true; }
      }));
    </script>`;
    const markup = `<vendor-widget id="widget" data-block-on-consent layout="fixed" width="100" height="40"></vendor-widget>`;
    const test = await open(p, vendorScript + consent(CLIENT) + markup);
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    await settled(test.page);
    const widget = () =>
      test.page.evaluate(() => (window as unknown as { widget: { built: number; unlaid: number } }).widget);
    expect(await widget()).toEqual({ built: 0, unlaid: 0 });
    await test.page.click('#accept', CLICK);
    await expect.poll(widget, WAIT).toEqual({ built: 1, unlaid: 0 });
    await test.page.click('#settings', CLICK);
    await test.page.click('#reject', CLICK);
    await expect.poll(widget, WAIT).toEqual({ built: 1, unlaid: 1 });
    expect(test.errors).toEqual([]);
  });

  it('resolves getPolicyState to null and blocks nothing on a page without <page-consent>', async () => {
    const p = fresh();
    const test = await open(p, blocked(p), { extensions: [] });
    await expectAllBuilt(test, p);
    expect(await policyState(test.page)).toBeNull();
  });
});

describe('consent acceptance: blocking markers', () => {
  it('unblocks _till_responded on reject while default and _till_accepted stay blocked until accept', async () => {
    const p = fresh();
    const markup = `
      <page-img id="responded" data-block-on-consent="_till_responded" src="${p}/responded.svg" width="10" height="10" layout="fixed"></page-img>
      <page-img id="accepted" data-block-on-consent="_till_accepted" src="${p}/accepted.svg" width="10" height="10" layout="fixed"></page-img>
      <page-img id="plain" data-block-on-consent src="${p}/plain.svg" width="10" height="10" layout="fixed"></page-img>
      <page-img id="control" src="${p}/control.svg" width="10" height="10" layout="fixed"></page-img>`;
    const test = await open(p, consent(CLIENT) + markup);
    await controlBuilt(test);
    const has = (id: string) => test.page.locator(`#${id} img[src]`).count();
    expect([await has('responded'), await has('accepted'), await has('plain')]).toEqual([0, 0, 0]);
    await test.page.click('#reject', CLICK);
    await expect.poll(() => has('responded'), WAIT).toBe(1);
    await settled(test.page);
    expect([await has('accepted'), await has('plain')]).toEqual([0, 0]);
    await test.page.click('#settings', CLICK);
    await test.page.click('#accept', CLICK);
    await expect.poll(async () => [await has('accepted'), await has('plain')], WAIT).toEqual([1, 1]);
  });

  it('builds _till_responded and _till_accepted elements when consent is not required', async () => {
    const p = fresh();
    const markup = `
      <page-img id="responded" data-block-on-consent="_till_responded" src="${p}/responded.svg" width="10" height="10" layout="fixed"></page-img>
      <page-img id="accepted" data-block-on-consent="_till_accepted" src="${p}/accepted.svg" width="10" height="10" layout="fixed"></page-img>`;
    const test = await open(p, consent({ ...CLIENT, consentRequired: false }) + markup);
    await test.page.waitForSelector('#responded img[src]', { state: 'attached', ...WAIT });
    await test.page.waitForSelector('#accepted img[src]', { state: 'attached', ...WAIT });
  });

  it('rejects _auto_reject at once without storing it while the prompt is still open, and unblocks its element', async () => {
    const p = fresh();
    const markup = `
      <page-img id="auto" data-block-on-consent="_auto_reject" src="${p}/auto.svg" width="10" height="10" layout="fixed"></page-img>
      <page-img id="plain" data-block-on-consent src="${p}/plain.svg" width="10" height="10" layout="fixed"></page-img>`;
    const test = await open(p, consent(CLIENT) + markup);
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    const autoState = () =>
      test.page.evaluate(
        () =>
          new Promise((resolve) => {
            setTimeout(() => resolve('pending'), 10_000);
            const queue = ((self as unknown as { PAGE: unknown[] }).PAGE =
              (self as unknown as { PAGE?: unknown[] }).PAGE ?? []);
            queue.push((runtime: { consent: { getPolicyState(id: string): Promise<unknown> } }) =>
              runtime.consent.getPolicyState('_auto_reject').then(resolve),
            );
          }),
      );
    expect(await autoState()).toBe('insufficient');
    await test.page.waitForSelector('#auto img[src]', { state: 'attached', ...WAIT });
    expect(await test.page.locator('#plain img').count()).toBe(0);
    expect(await storedValues(test.page)).toEqual({});
    expect(await isShown(test.page, '#prompt')).toBe(true);
    await test.page.click('#accept', CLICK);
    await test.page.waitForSelector('#plain img[src]', { state: 'attached', ...WAIT });
    expect(await autoState()).toBe('sufficient');
  });

  it('blocks the component names listed in the page-consent-blocking meta tag', async () => {
    const p = fresh();
    const markup = `
      <page-img id="img" src="${p}/img.svg" width="10" height="10" layout="fixed"></page-img>
      <page-iframe id="frame" src="${p}/frame.html" width="100" height="50" layout="fixed"></page-iframe>`;
    const test = await open(p, consent(CLIENT) + markup, {
      head: '<meta name="page-consent-blocking" content="page-img">',
    });
    await test.page.waitForSelector('#frame iframe', { state: 'attached', ...WAIT });
    await settled(test.page);
    expect(await test.page.locator('#img img').count()).toBe(0);
    expect(fixture.server.requestsTo(`${p}/img.svg`)).toHaveLength(0);
    await test.page.click('#accept', CLICK);
    await test.page.waitForSelector('#img img[src]', { state: 'attached', ...WAIT });
  });

  it('reports an unknown data-block-on-consent value and blocks like the default', async () => {
    const p = fresh();
    const test = await open(p, consent(CLIENT) + blocked(p, 'data-block-on-consent="_till_tuesday"'));
    await expectNothingBuilt(test, p);
    await expect
      .poll(() => test.messages.filter((m) => DIAGNOSTIC.test(m.text) && m.text.includes('_till_tuesday')).length, WAIT)
      .toBeGreaterThan(0);
    await test.page.click('#accept', CLICK);
    await expectAllBuilt(test, p);
    expect(test.errors).toEqual([]);
  });
});

describe('consent acceptance: purposes', () => {
  const markup = (p: string) => `
    <page-img id="ads" data-block-on-consent-purposes="ads" src="${p}/ads.svg" width="10" height="10" layout="fixed"></page-img>
    <page-img id="measure" data-block-on-consent-purposes="measure" src="${p}/measure.svg" width="10" height="10" layout="fixed"></page-img>
    <page-img id="both" data-block-on-consent-purposes="ads,measure" src="${p}/both.svg" width="10" height="10" layout="fixed"></page-img>
    <page-img id="control" src="${p}/control.svg" width="10" height="10" layout="fixed"></page-img>`;
  const purposeButtons = `
    <button id="ads-yes" on="tap:consent.setPurpose(ads=true)">Ads on</button>
    <button id="ads-no" on="tap:consent.setPurpose(ads=false)">Ads off</button>
    <button id="measure-yes" on="tap:consent.setPurpose(measure=true)">Measure on</button>
    <button id="accept-all" on="tap:consent.accept(purposeConsentDefault=true)">Accept all</button>
    <button id="reject-rest" on="tap:consent.reject(purposeConsentDefault=false)">Reject the rest</button>`;
  const PURPOSES = { ...CLIENT, purposeConsentRequired: ['ads', 'measure'] };
  const has = (test: TestPage, id: string) => test.page.locator(`#${id} img[src]`).count();
  const builtIds = async (test: TestPage) => ({
    ads: await has(test, 'ads'),
    measure: await has(test, 'measure'),
    both: await has(test, 'both'),
  });

  it('builds only the elements whose purposes were set to true, then accepted', async () => {
    const p = fresh();
    const test = await open(p, consent(PURPOSES, purposeButtons) + markup(p));
    await controlBuilt(test);
    await test.page.click('#measure-yes', CLICK);
    await test.page.click('#ads-no', CLICK);
    await test.page.click('#accept', CLICK);
    await expect.poll(() => builtIds(test), WAIT).toEqual({ ads: 0, measure: 1, both: 0 });
    expect(await vendorCall(test.page, 'getPurposeConsents')).toEqual({ ads: false, measure: true });
    expect(fixture.server.requestsTo(`${p}/ads.svg`)).toHaveLength(0);
  });

  it('gives unset purposes the purposeConsentDefault of accept', async () => {
    const p = fresh();
    const test = await open(p, consent(PURPOSES, purposeButtons) + markup(p));
    await controlBuilt(test);
    await test.page.click('#accept-all', CLICK);
    await expect.poll(() => builtIds(test), WAIT).toEqual({ ads: 1, measure: 1, both: 1 });
    expect(await vendorCall(test.page, 'getPurposeConsents')).toEqual({ ads: true, measure: true });
  });

  it('keeps an explicit purpose choice over the purposeConsentDefault of reject', async () => {
    const p = fresh();
    const test = await open(p, consent(PURPOSES, purposeButtons) + markup(p));
    await controlBuilt(test);
    await test.page.click('#ads-yes', CLICK);
    await test.page.click('#reject-rest', CLICK);
    await expect.poll(() => vendorCall(test.page, 'getPurposeConsents'), WAIT).toEqual({ ads: true, measure: false });
    await settled(test.page);
    expect((await builtIds(test)).measure).toBe(0);
    expect((await builtIds(test)).both).toBe(0);
  });

  it('prompts again on the next visit until every purposeConsentRequired purpose has a choice', async () => {
    const p = fresh();
    const test = await open(p, consent(PURPOSES, purposeButtons) + markup(p));
    await controlBuilt(test);
    await test.page.click('#ads-yes', CLICK);
    await test.page.click('#accept', CLICK);
    await expect.poll(() => isShown(test.page, '#prompt'), WAIT).toBe(false);
    await settled(test.page);
    expect((await builtIds(test)).measure).toBe(0);

    await revisit(test);
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    await test.page.click('#measure-yes', CLICK);
    await test.page.click('#accept', CLICK);
    await expect.poll(() => builtIds(test), WAIT).toEqual({ ads: 1, measure: 1, both: 1 });

    await revisit(test);
    await expect.poll(() => builtIds(test), WAIT).toEqual({ ads: 1, measure: 1, both: 1 });
    expect(await isShown(test.page, '#prompt')).toBe(false);
  });

  it('keeps earlier purpose choices when a later plain accept has none', async () => {
    const p = fresh();
    const test = await open(p, consent(CLIENT, purposeButtons) + markup(p));
    await controlBuilt(test);
    await test.page.click('#ads-yes', CLICK);
    await test.page.click('#accept', CLICK);
    await expect.poll(() => has(test, 'ads'), WAIT).toBe(1);
    await test.page.click('#settings', CLICK);
    await test.page.click('#accept', CLICK);
    await settled(test.page);
    expect(await vendorCall(test.page, 'getPurposeConsents')).toMatchObject({ ads: true });
    await revisit(test);
    await expect.poll(() => has(test, 'ads'), WAIT).toBe(1);
    expect(await vendorCall(test.page, 'getPurposeConsents')).toMatchObject({ ads: true });
  });
});

describe('consent acceptance: checkConsentHref', () => {
  const REMOTE = (p: string) => ({
    consentInstanceId: 'site',
    checkConsentHref: `${p}/check`,
    promptUI: 'prompt',
    postPromptUI: 'post',
  });

  it('posts the instance, cached state and matched group once with credentials and prompts on unknown', async () => {
    const p = fresh();
    fixture.server.route(`${p}/check`, { body: { consentRequired: true, consentStateValue: 'unknown' } });
    const path = `${p}/page.html`;
    fixture.server.page(path, html(consent(REMOTE(p)) + blocked(p), { extensions: ['page-consent'] }));
    const test = await newPage(fixture.browser);
    opened.push(test);
    await test.context.addCookies([{ name: 'reader', value: 'r1', url: fixture.server.origin }]);
    await test.page.goto(fixture.server.origin + path);
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    await expectNothingBuilt(test, p);
    const calls = fixture.server.requestsTo(`${p}/check`);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe('POST');
    expect(calls[0]?.headers.cookie).toContain('reader=r1');
    expect(json(calls[0])).toMatchObject({
      consentInstanceId: 'site',
      consentStateValue: 'unknown',
      matchedGeoGroup: null,
    });
    expect(typeof json(calls[0]).isDirty).toBe('boolean');
  });

  it('applies an accepted server state, shares its sharedData and string, and sends the cached state next visit', async () => {
    const p = fresh();
    let visit = 0;
    fixture.server.route(`${p}/check`, () =>
      ++visit === 1
        ? {
            body: {
              consentRequired: true,
              consentStateValue: 'accepted',
              consentString: 'CS-1',
              sharedData: { tier: 'gold' },
            },
          }
        : { body: { consentRequired: true } },
    );
    const test = await open(p, consent(REMOTE(p)) + blocked(p));
    await expectAllBuilt(test, p);
    expect(await isShown(test.page, '#prompt')).toBe(false);
    expect(await vendorCall(test.page, 'getSharedData')).toEqual({ tier: 'gold' });
    expect(await vendorCall(test.page, 'getConsentString')).toBe('CS-1');
    expect(await storedValues(test.page)).not.toEqual({});

    await revisit(test);
    await expect.poll(() => built(test, p), WAIT).toMatchObject({ img: true, frame: true, ad: true, script: 1 });
    expect(json(fixture.server.requestsTo(`${p}/check`)[1])).toMatchObject({
      consentStateValue: 'accepted',
      consentString: 'CS-1',
    });
  });

  it('unblocks from the cache at once on the next visit while the server answer is still pending', async () => {
    const p = fresh();
    let visit = 0;
    fixture.server.route(`${p}/check`, () =>
      ++visit === 1
        ? { body: { consentRequired: true, consentStateValue: 'unknown' } }
        : { delay: 40_000, body: { consentRequired: true } },
    );
    const test = await open(p, consent(REMOTE(p)) + blocked(p));
    await test.page.click('#accept', CLICK);
    await expectAllBuilt(test, p);
    await revisit(test);
    await expect.poll(() => built(test, p), WAIT).toMatchObject({ img: true, frame: true, ad: true, script: 1 });
    expect(fixture.server.requestsTo(`${p}/check`)).toHaveLength(2);
    expect(await isShown(test.page, '#prompt')).toBe(false);
  });

  it('substitutes the page URL macros in checkConsentHref and keeps the others verbatim', async () => {
    const p = fresh();
    fixture.server.route(`${p}/check`, { body: { consentRequired: true, consentStateValue: 'unknown' } });
    const config = {
      ...REMOTE(p),
      checkConsentHref: `${p}/check?pv=PAGE_VIEW_ID&cid=CLIENT_ID&other=NOT_A_MACRO&info=CONSENT_INFO(consentStateValue)&gdpr=GDPR`,
    };
    const test = await open(p, consent(config) + blocked(p));
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    const query = new URL(fixture.server.requestsTo(`${p}/check`)[0]?.url ?? '', 'http://x').searchParams;
    expect(query.get('pv')).toMatch(/\S/);
    expect(query.get('pv')).not.toBe('PAGE_VIEW_ID');
    expect(query.get('cid')).toMatch(/\S/);
    expect(query.get('cid')).not.toBe('CLIENT_ID');
    expect(query.get('other')).toBe('NOT_A_MACRO');
    // CONSENT_INFO belongs to promptUiSrc, the consent macros to ad URLs (docs/runtime.md).
    expect(query.get('info')).toBe('CONSENT_INFO(consentStateValue)');
    expect(query.get('gdpr')).toBe('GDPR');
  });

  it('applies a server accept that arrives after a cached rejection, without a reload', async () => {
    const p = fresh();
    let visit = 0;
    fixture.server.route(`${p}/check`, () =>
      ++visit === 1
        ? { body: { consentRequired: true, consentStateValue: 'unknown' } }
        : visit === 2
          ? { delay: 1_000, body: { consentRequired: true, consentStateValue: 'accepted' } }
          : { body: { consentRequired: true } },
    );
    const test = await open(p, consent(REMOTE(p)) + blocked(p));
    await test.page.click('#reject', CLICK);
    await expect.poll(() => isShown(test.page, '#post'), WAIT).toBe(true);
    await revisit(test);
    await expect.poll(() => built(test, p), WAIT).toMatchObject({ img: true, frame: true, ad: true, script: 1 });
    expect(await policyState(test.page)).toBe('sufficient');
    await revisit(test);
    await expect.poll(() => built(test, p), WAIT).toMatchObject({ img: true, frame: true, ad: true, script: 1 });
    expect(json(fixture.server.requestsTo(`${p}/check`)[2])).toMatchObject({ consentStateValue: 'accepted' });
  });

  it('keeps a cached rejection when the server answers consentRequired false', async () => {
    const p = fresh();
    let visit = 0;
    fixture.server.route(`${p}/check`, () =>
      ++visit === 1
        ? { body: { consentRequired: true, consentStateValue: 'unknown' } }
        : { body: { consentRequired: false } },
    );
    const test = await open(p, consent(REMOTE(p)) + blocked(p));
    await test.page.click('#reject', CLICK);
    await expect.poll(() => isShown(test.page, '#post'), WAIT).toBe(true);
    await revisit(test);
    await expect.poll(() => fixture.server.requestsTo(`${p}/check`).length, WAIT).toBe(2);
    await expectNothingBuilt(test, p);
    expect(await policyState(test.page)).toBe('insufficient');
  });

  it('does not persist sharedData to the next visit', async () => {
    const p = fresh();
    let visit = 0;
    fixture.server.route(`${p}/check`, () =>
      ++visit === 1
        ? { body: { consentRequired: true, consentStateValue: 'accepted', sharedData: { tier: 'gold' } } }
        : { body: { consentRequired: true } },
    );
    const test = await open(p, consent(REMOTE(p)) + blocked(p));
    await expect.poll(() => vendorCall(test.page, 'getSharedData'), WAIT).toEqual({ tier: 'gold' });
    expect(JSON.stringify(await storedValues(test.page))).not.toContain('gold');
    await revisit(test);
    await expect.poll(() => built(test, p), WAIT).toMatchObject({ img: true, frame: true, ad: true, script: 1 });
    expect(await vendorCall(test.page, 'getSharedData')).not.toEqual({ tier: 'gold' });
  });

  it('applies a rejected server state without a prompt and caches it', async () => {
    const p = fresh();
    let visit = 0;
    fixture.server.route(`${p}/check`, () =>
      ++visit === 1
        ? { body: { consentRequired: true, consentStateValue: 'rejected' } }
        : { body: { consentRequired: true } },
    );
    const test = await open(p, consent(REMOTE(p)) + blocked(p));
    expect(await policyState(test.page)).toBe('insufficient');
    await expectNothingBuilt(test, p);
    expect(await isShown(test.page, '#prompt')).toBe(false);
    await revisit(test);
    await expect.poll(() => fixture.server.requestsTo(`${p}/check`).length, WAIT).toBe(2);
    expect(json(fixture.server.requestsTo(`${p}/check`)[1])).toMatchObject({ consentStateValue: 'rejected' });
    expect(await policyState(test.page)).toBe('insufficient');
    expect(await isShown(test.page, '#prompt')).toBe(false);
  });

  it('fails closed on a server error: prompt shown, nothing built, a diagnostic names the status', async () => {
    const p = fresh();
    fixture.server.route(`${p}/check`, { status: 500, body: 'boom' });
    const test = await open(p, consent(REMOTE(p)) + blocked(p));
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    await expectNothingBuilt(test, p);
    await expect
      .poll(() => diagnosticLines(test).filter((line) => line.includes('500')).length, WAIT)
      .toBeGreaterThan(0);
    expect(diagnosticLines(test).every((line) => DIAGNOSTIC.test(line))).toBe(true);
    await test.page.click('#accept', CLICK);
    await expectAllBuilt(test, p);
  });

  it('fails closed when the cross-origin answer is refused by CORS', async () => {
    const p = fresh();
    fixture.server.route(`${p}/check`, {
      body: { consentRequired: false },
      headers: { 'access-control-allow-origin': 'http://elsewhere.example' },
    });
    const test = await open(
      p,
      consent({ ...REMOTE(p), checkConsentHref: `${fixture.server.otherOrigin}${p}/check` }) + blocked(p),
    );
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    await expectNothingBuilt(test, p);
    expect(fixture.server.requestsTo(`${p}/check`).length).toBeGreaterThan(0);
    await expect.poll(() => diagnosticLines(test).length, WAIT).toBeGreaterThan(0);
  });

  it('fails closed on an invalid JSON answer', async () => {
    const p = fresh();
    fixture.server.route(`${p}/check`, {
      body: '{"consentRequired": tru',
      headers: { 'content-type': 'application/json' },
    });
    const test = await open(p, consent(REMOTE(p)) + blocked(p));
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    await expectNothingBuilt(test, p);
    await expect.poll(() => diagnosticLines(test).length, WAIT).toBeGreaterThan(0);
  });

  it('treats no answer within 10 s as a failure and prompts', async () => {
    const p = fresh();
    fixture.server.route(`${p}/check`, { delay: 50_000, body: { consentRequired: false } });
    const test = await open(p, consent(REMOTE(p)) + blocked(p), { clock: true });
    await controlBuilt(test);
    // The page's clock runs past the 10 s time-out instead of waiting it out (clock.ts).
    await expect.poll(() => fixture.server.requestsTo(`${p}/check`).length, WAIT).toBe(1);
    const asked = await fetchedAt(test.page, `${p}/check`);
    await pauseClock(test.page);
    await runUntil(test.page, asked + 9_900);
    expect(await test.page.locator('#prompt').isVisible()).toBe(false);
    await runUntil(test.page, asked + 10_000);
    await test.page.clock.resume();
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    // Shown by the time-out, not before: the page's own record, whatever the runner's pauses.
    expect((await shownAt(test.page, 'prompt')) - asked).toBeGreaterThanOrEqual(9_900);
    await expectNothingBuilt(test, p);
    expect(diagnosticLines(test).length).toBeGreaterThan(0);
  });

  it('strips the xssiPrefix before reading the answer', async () => {
    const p = fresh();
    fixture.server.route(`${p}/check`, {
      body: `)]}'\n${JSON.stringify({ consentRequired: true, consentStateValue: 'accepted' })}`,
    });
    const test = await open(p, consent({ ...REMOTE(p), xssiPrefix: ")]}'" }) + blocked(p));
    await expectAllBuilt(test, p);
    expect(await policyState(test.page)).toBe('sufficient');
  });
});

describe('consent acceptance: onUpdateHref', () => {
  it('posts once per change of the stored state with a stable pageUserId, not on dismiss or repeats', async () => {
    const p = fresh();
    fixture.server.route(`${p}/update`, { body: { ok: true } });
    const test = await open(
      p,
      consent({ ...CLIENT, onUpdateHref: `${fixture.server.origin}${p}/update` }) + blocked(p),
    );
    await test.context.addCookies([{ name: 'reader', value: 'r2', url: fixture.server.origin }]);
    await test.page.click('#dismiss', CLICK);
    await test.page.click('#settings', CLICK);
    await test.page.click('#accept', CLICK);
    await expect.poll(() => fixture.server.requestsTo(`${p}/update`).length, WAIT).toBe(1);
    const first = json(fixture.server.requestsTo(`${p}/update`)[0]);
    expect(fixture.server.requestsTo(`${p}/update`)[0]?.method).toBe('POST');
    expect(fixture.server.requestsTo(`${p}/update`)[0]?.headers.cookie).toContain('reader=r2');
    expect(first).toMatchObject({ consentInstanceId: 'site', consentStateValue: 'accepted' });
    expect(typeof first.pageUserId).toBe('string');
    expect((first.pageUserId as string).length).toBeGreaterThan(0);

    await test.page.click('#settings', CLICK);
    await test.page.click('#accept', CLICK);
    await test.page.click('#settings', CLICK);
    await test.page.click('#reject', CLICK);
    await expect.poll(() => fixture.server.requestsTo(`${p}/update`).length, WAIT).toBe(2);
    const second = json(fixture.server.requestsTo(`${p}/update`)[1]);
    expect(second).toMatchObject({
      consentInstanceId: 'site',
      consentStateValue: 'rejected',
      pageUserId: first.pageUserId,
    });

    await revisit(test);
    await expect.poll(() => isShown(test.page, '#post'), WAIT).toBe(true);
    await settled(test.page);
    expect(fixture.server.requestsTo(`${p}/update`)).toHaveLength(2);
  });
  it('sends purpose choices and posts again when only the stored purposes change', async () => {
    const p = fresh();
    fixture.server.route(`${p}/update`, { body: {} });
    const buttons = `
      <button id="ads-yes" on="tap:consent.setPurpose(ads=true)">Ads on</button>
      <button id="ads-no" on="tap:consent.setPurpose(ads=false)">Ads off</button>`;
    const test = await open(
      p,
      consent({ ...CLIENT, onUpdateHref: `${fixture.server.origin}${p}/update` }, buttons) + blocked(p),
    );
    await test.page.click('#ads-yes', CLICK);
    await test.page.click('#accept', CLICK);
    await expect.poll(() => fixture.server.requestsTo(`${p}/update`).length, WAIT).toBe(1);
    expect(json(fixture.server.requestsTo(`${p}/update`)[0])).toMatchObject({
      consentStateValue: 'accepted',
      purposeConsents: { ads: true },
    });
    await test.page.click('#settings', CLICK);
    await test.page.click('#ads-no', CLICK);
    await test.page.click('#accept', CLICK);
    await expect.poll(() => fixture.server.requestsTo(`${p}/update`).length, WAIT).toBe(2);
    expect(json(fixture.server.requestsTo(`${p}/update`)[1])).toMatchObject({
      consentStateValue: 'accepted',
      purposeConsents: { ads: false },
    });
  });
});

describe('consent acceptance: geo', () => {
  const GEO = `<page-geo layout="nodisplay"><script type="application/json">${JSON.stringify({
    ISOCountryGroups: { eea: ['preset-eea'], us: ['us'] },
  })}</script></page-geo>`;

  it('applies the geoOverride of the matched group from the debug hash and reports it to the server', async () => {
    const p = fresh();
    fixture.server.route(`${p}/check`, { body: { consentRequired: true, consentStateValue: 'unknown' } });
    const config = {
      consentInstanceId: 'site',
      consentRequired: false,
      promptUI: 'prompt',
      postPromptUI: 'post',
      geoOverride: { eea: { consentRequired: 'remote', checkConsentHref: `${p}/check` } },
    };
    const eu = await open(p, GEO + consent(config) + blocked(p), {
      extensions: ['page-consent', 'page-geo'],
      hash: '#page-geo=de',
    });
    await eu.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    await expectNothingBuilt(eu, p);
    expect(json(fixture.server.requestsTo(`${p}/check`)[0])).toMatchObject({
      consentInstanceId: 'site',
      matchedGeoGroup: 'eea',
    });
    expect(await eu.page.evaluate(() => document.documentElement.classList.contains('page-geo-group-eea'))).toBe(true);

    const q = fresh();
    const us = await open(q, GEO + consent(config) + blocked(q), {
      extensions: ['page-consent', 'page-geo'],
      hash: '#page-geo=us',
    });
    await expectAllBuilt(us, q);
    expect(await isShown(us.page, '#prompt')).toBe(false);
    expect(fixture.server.requestsTo(`${p}/check`)).toHaveLength(1);
  });

  it('merges the first matching geoOverride group in key order', async () => {
    const groups = `<page-geo layout="nodisplay"><script type="application/json">${JSON.stringify({
      ISOCountryGroups: { eea: ['preset-eea'], de: ['de'] },
    })}</script></page-geo>`;
    const p = fresh();
    const deFirst = {
      ...CLIENT,
      consentRequired: true,
      geoOverride: { de: { consentRequired: false }, eea: { consentRequired: true } },
    };
    const first = await open(p, groups + consent(deFirst) + blocked(p), {
      extensions: ['page-consent', 'page-geo'],
      hash: '#page-geo=de',
    });
    await expectAllBuilt(first, p);
    expect(await isShown(first.page, '#prompt')).toBe(false);

    const q = fresh();
    const eeaFirst = {
      ...CLIENT,
      consentRequired: false,
      geoOverride: { eea: { consentRequired: true }, de: { consentRequired: false } },
    };
    const second = await open(q, groups + consent(eeaFirst) + blocked(q), {
      extensions: ['page-consent', 'page-geo'],
      hash: '#page-geo=de',
    });
    await second.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    await expectNothingBuilt(second, q);
  });

  it('refuses a consentInstanceId inside a geoOverride group with a diagnostic', async () => {
    const p = fresh();
    const config = { ...CLIENT, geoOverride: { eea: { consentInstanceId: 'other' } } };
    const test = await open(p, GEO + consent(config) + blocked(p), {
      extensions: ['page-consent', 'page-geo'],
      hash: '#page-geo=fr',
    });
    await expect
      .poll(() => diagnosticLines(test).filter((line) => line.includes('consentInstanceId')).length, WAIT)
      .toBeGreaterThan(0);
    expect(diagnosticLines(test).every((line) => DIAGNOSTIC.test(line))).toBe(true);
    expect(test.errors).toEqual([]);
  });
});

describe('consent acceptance: bad config', () => {
  it('fails closed with one diagnostic when a client-only config has no consentRequired', async () => {
    const p = fresh();
    const test = await open(p, consent({ consentInstanceId: 'site', promptUI: 'prompt' }) + blocked(p));
    await expect.poll(() => diagnosticLines(test).length, WAIT).toBeGreaterThan(0);
    await expectNothingBuilt(test, p);
    const lines = diagnosticLines(test);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(DIAGNOSTIC);
    expect(lines[0]).toContain('consentRequired');
    expect(await storedValues(test.page)).toEqual({});
    expect(test.errors).toEqual([]);
  });

  it('fails closed with a diagnostic on JSON that does not parse', async () => {
    const p = fresh();
    const body = `<page-consent id="consent" layout="nodisplay"><script type="application/json">{"consentInstanceId": "site",</script>
      <div id="prompt"><button id="accept" on="tap:consent.accept">Accept</button></div></page-consent>${blocked(p)}`;
    const test = await open(p, body);
    await expect.poll(() => diagnosticLines(test).length, WAIT).toBeGreaterThan(0);
    expect(diagnosticLines(test)[0]).toMatch(DIAGNOSTIC);
    await expectNothingBuilt(test, p);
    expect(test.errors).toEqual([]);
  });

  it('keeps a stored decision through a visit with a broken config, failing closed on that visit', async () => {
    const p = fresh();
    const test = await open(p, consent(CLIENT) + blocked(p));
    await test.page.click('#accept', CLICK);
    await expectAllBuilt(test, p);
    const before = await storedValues(test.page);
    fixture.server.page(
      `${p}/broken.html`,
      html(consent({ consentInstanceId: 'site', promptUI: 'prompt' }) + blocked(`${p}/b`), {
        extensions: ['page-consent'],
      }),
    );
    await test.page.goto(`${fixture.server.origin}${p}/broken.html`);
    await expect.poll(() => diagnosticLines(test).length, WAIT).toBeGreaterThan(0);
    await expectNothingBuilt(test, `${p}/b`);
    expect(await storedValues(test.page)).toEqual(before);
    await test.page.goto(`${fixture.server.origin}${p}/page.html`);
    await expect.poll(() => built(test, p), WAIT).toMatchObject({ img: true, frame: true, ad: true, script: 1 });
    expect(await isShown(test.page, '#prompt')).toBe(false);
  });

  it("never accepts on the reader's behalf: a fallbackAction of accept is reported and builds nothing", async () => {
    const p = fresh();
    const config = { ...CLIENT, policy: { default: { timeout: { seconds: 0, fallbackAction: 'accept' } } } };
    const test = await open(p, consent(config) + blocked(p));
    await expect
      .poll(() => diagnosticLines(test).filter((line) => line.includes('accept')).length, WAIT)
      .toBeGreaterThan(0);
    expect(diagnosticLines(test).every((line) => DIAGNOSTIC.test(line))).toBe(true);
    await settled(test.page);
    await expectNothingBuilt(test, p);
    expect(await policyState(test.page, 2_000)).not.toBe('sufficient');
    expect(await storedValues(test.page)).toEqual({});
  });

  it('reports a policy other than default', async () => {
    const p = fresh();
    const config = { ...CLIENT, policy: { special: { timeout: 1 } } };
    const test = await open(p, consent(config) + blocked(p));
    await expect
      .poll(() => diagnosticLines(test).filter((line) => line.includes('special')).length, WAIT)
      .toBeGreaterThan(0);
    expect(diagnosticLines(test).every((line) => DIAGNOSTIC.test(line))).toBe(true);
    await expectNothingBuilt(test, p);
  });

  it('reports consentRequired remote without a checkConsentHref and fails closed', async () => {
    const p = fresh();
    const test = await open(p, consent({ ...CLIENT, consentRequired: 'remote' }) + blocked(p));
    await expect.poll(() => diagnosticLines(test).length, WAIT).toBeGreaterThan(0);
    expect(diagnosticLines(test)[0]).toMatch(DIAGNOSTIC);
    await expectNothingBuilt(test, p);
    expect(test.errors).toEqual([]);
  });

  it('refuses a second <page-consent> with a diagnostic while the first keeps working', async () => {
    const p = fresh();
    const second = `<page-consent id="consent2" layout="nodisplay"><script type="application/json">${JSON.stringify({
      consentInstanceId: 'other',
      consentRequired: true,
    })}</script></page-consent>`;
    const test = await open(p, consent(CLIENT) + second + blocked(p));
    await expect.poll(() => diagnosticLines(test, 'page-consent#consent2').length, WAIT).toBeGreaterThan(0);
    expect(diagnosticLines(test, 'page-consent#consent2')[0]).toMatch(DIAGNOSTIC);
    await test.page.click('#accept', CLICK);
    await expectAllBuilt(test, p);
  });
});

describe('consent acceptance: prompt UI', () => {
  const TALL =
    '<button id="open" on="tap:consent.prompt">Cookie settings</button><div id="content" style="height:4000px;background:#eee">Article</div>';

  it('moves focus into the prompt when shown and back to the opener when hidden', async () => {
    const p = fresh();
    const test = await open(p, consent(CLIENT) + TALL + blocked(p));
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    const focusInPrompt = () => test.page.evaluate(() => !!document.activeElement?.closest('#prompt'));
    await expect.poll(focusInPrompt, WAIT).toBe(true);
    await test.page.click('#accept', CLICK);
    await expect.poll(() => isShown(test.page, '#prompt'), WAIT).toBe(false);

    await test.page.focus('#open');
    await test.page.keyboard.press('Enter');
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    await expect.poll(focusInPrompt, WAIT).toBe(true);
    expect(
      await test.page.evaluate(
        () =>
          !!document.querySelector('#prompt')?.closest('[role="dialog"], [role="alertdialog"]') ||
          !!document.querySelector('#prompt [role="dialog"]'),
      ),
    ).toBe(true);
    await test.page.focus('#reject');
    await test.page.keyboard.press('Enter');
    await expect.poll(() => isShown(test.page, '#prompt'), WAIT).toBe(false);
    await expect.poll(() => test.page.evaluate(() => document.activeElement?.id), WAIT).toBe('open');
  });

  it('exposes the prompt as a dialog named by the consentPromptCaption', async () => {
    const p = fresh();
    const test = await open(
      p,
      consent({ ...CLIENT, captions: { consentPromptCaption: 'Your privacy choices' } }) + blocked(p),
    );
    await test.page.getByRole('dialog', { name: 'Your privacy choices' }).waitFor({ state: 'visible', ...WAIT });
    await test.page
      .getByRole('dialog', { name: 'Your privacy choices' })
      .getByRole('button', { name: 'Accept' })
      .click(CLICK);
    await expectAllBuilt(test, p);
  });

  it('covers content and stops scrolling beneath an overlay prompt until it is answered', async () => {
    const p = fresh();
    const test = await open(p, consent({ ...CLIENT, uiConfig: { overlay: true } }) + TALL + blocked(p));
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    const hitsContent = () => test.page.evaluate(() => !!document.elementFromPoint(400, 100)?.closest('#content'));
    await expect.poll(hitsContent, WAIT).toBe(false);
    await test.page.mouse.move(400, 100);
    await test.page.mouse.wheel(0, 800);
    await test.page.keyboard.press('PageDown');
    await test.page.keyboard.press('End');
    await settled(test.page);
    expect(await test.page.evaluate(() => window.scrollY)).toBe(0);

    await test.page.click('#accept', CLICK);
    await expect.poll(hitsContent, WAIT).toBe(true);
    await test.page.mouse.move(400, 100);
    await expect
      .poll(async () => {
        await test.page.mouse.wheel(0, 400);
        return test.page.evaluate(() => window.scrollY);
      }, WAIT)
      .toBeGreaterThan(0);
  });

  it('fits the prompt on a 320 px screen, fixed to the bottom, with working buttons', async () => {
    const p = fresh();
    const longText =
      '<p>We and our partners store and read information on your device to show ads, measure them and improve our service. You can change your mind at any time in the privacy settings at the foot of each page.</p>';
    const style = '<style>#prompt { background: #fff; padding: 1rem; box-shadow: 0 -2px 8px #0003; }</style>';
    // Blocked content first: built elements render their content when near the viewport.
    const test = await open(p, consent(CLIENT, longText) + blocked(p) + TALL, {
      viewport: { width: 320, height: 568 },
      head: style,
    });
    await test.page.locator('#prompt').waitFor({ state: 'visible', ...WAIT });
    const box = await test.page.locator('#prompt').boundingBox();
    expect(box).not.toBeNull();
    if (!box) return;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(320.5);
    expect(Math.abs(box.y + box.height - 568)).toBeLessThanOrEqual(1);
    expect(await test.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    expect(await test.page.locator('#consent').evaluate((e) => getComputedStyle(e).position)).toBe('fixed');
    // Still at the bottom after scrolling the page.
    await test.page.evaluate(() => window.scrollTo(0, 1500));
    const after = await test.page.locator('#prompt').boundingBox();
    expect(Math.abs((after?.y ?? 0) + (after?.height ?? 0) - 568)).toBeLessThanOrEqual(1);
    await test.page.evaluate(() => window.scrollTo(0, 0));
    await test.page.click('#accept', CLICK);
    await expectAllBuilt(test, p);
  });
});
