import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CDN_ROOT, launchBrowser, newPage, startServer, type TestServer } from './harness.ts';
import { articlePage, IMAGE_ROUTES } from './fixtures/auto-ads/pages.ts';

let browser: Browser;
let server: TestServer;

const CONSENT = `<page-consent id="consent" layout="nodisplay">
  <script type="application/json">{"consentInstanceId": "vignette-test", "consentRequired": true, "promptUI": "prompt"}</script>
  <div id="prompt"><button id="accept" on="tap:consent.accept">Accept</button><button id="reject" on="tap:consent.reject">Reject</button></div>
</page-consent>`;

/** A story whose links lead to /next.html, each in a way the vignette must or must not take. */
const story = (other: string) => `<main><h1>Story</h1>
  <p><a id="next" href="/next.html">Next story</a></p>
  <p><a id="excluded" href="/next.html" data-no-auto-ads>Excluded</a>
     <span data-no-auto-ads><a id="inside-excluded" href="/next.html">Inside an excluded block</a></span>
     <a id="download" href="/next.html" download>Download</a>
     <a id="blank" href="/next.html" target="_blank">New tab</a>
     <a id="away" href="${other}/next.html">Other site</a>
     <a id="hash" href="#part-2">Part 2</a></p>
  ${'<p>Text of the story, long enough to scroll the page a little further down.</p>'.repeat(40)}
  <h2 id="part-2">Part 2</h2><p>The end.</p></main>`;

const pageWith = (config: string, options: { consent?: boolean; blocked?: boolean } = {}) =>
  articlePage({
    autoAds: `type="custom" data-config-url="/ads/${config}"${options.blocked ? ' data-block-on-consent' : ''}`,
    body: (options.consent ? CONSENT : '') + story(server.otherOrigin),
    extensions: options.consent ? ['page-auto-ads', 'page-consent'] : ['page-auto-ads'],
  });

beforeAll(async () => {
  if (!existsSync(`${CDN_ROOT}/v0/page-consent-0.1.js`)) throw new Error('run node scripts/build.mjs first');
  browser = await launchBrowser();
  const vignette = (patch: Record<string, unknown> = {}) => ({
    body: { placements: [{ type: 'vignette', ...patch }], attributes: { type: 'fake', 'data-label': 'vignette' } },
  });
  server = await startServer({
    ...IMAGE_ROUTES,
    '/ads/vignette': vignette(),
    '/ads/uncapped': vignette({ intervalSeconds: 0 }),
    '/ads/article-end': vignette({ articleEnd: true }),
    '/ads/tab-return': vignette({ tabReturnSeconds: 60 }),
    // A custom ad without data-src never shows anything: the vignette's time-out is all that ends it.
    '/ads/never-loads': vignette({ timeoutMs: 500, attributes: { type: 'custom' } }),
    '/next.html': { body: '<!doctype html><title>next</title><p id="arrived">Next</p>' },
  });
  server.page('/start.html', '<!doctype html><title>start</title>');
  for (const config of ['vignette', 'uncapped', 'never-loads', 'article-end', 'tab-return'])
    server.page(`/${config}.html`, pageWith(config));
  server.page('/second.html', pageWith('vignette'));
  server.page('/consent.html', pageWith('uncapped', { consent: true, blocked: true }));
  server.page('/unblocked.html', pageWith('vignette', { consent: true }));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

type Probe = { opened: number; focused: string[] };

/** A page that counts the overlays opened and the links focused, across navigations. */
async function open(width: number): Promise<{ page: Page; probe: Probe; messages: { text: string }[] }> {
  const { page, messages } = await newPage(browser, { viewport: { width, height: 700 } });
  const probe: Probe = { opened: 0, focused: [] };
  await page.exposeFunction('__vignetteOpened', () => probe.opened++);
  await page.exposeFunction('__focused', (id: string) => probe.focused.push(id));
  await page.addInitScript(() => {
    const scope = window as unknown as { __vignetteOpened(): void; __focused(id: string): void };
    const showModal = HTMLDialogElement.prototype.showModal;
    HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
      scope.__vignetteOpened();
      return showModal.call(this);
    };
    document.addEventListener('focusin', (event) => scope.__focused((event.target as Element).id));
  });
  return { page, probe, messages };
}

/** The second page view of a visit (reached from a page of the site), once the vignette listens. */
async function visit(page: Page, path: string, referrer = server.origin + '/start.html') {
  await page.goto(server.origin + path, { referer: referrer });
  await page.waitForFunction(() => 'page-auto-ads-vignette' in ((self as { PAGE_PARTS?: object }).PAGE_PARTS ?? {}));
  // The part's exports reach the element in the task of the script's load event: one more task.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve)));
}

const overlay = (page: Page) =>
  page.evaluate(() => {
    const dialog = document.querySelector('dialog.page-vignette');
    const rect = dialog?.getBoundingClientRect();
    return {
      isOpen: dialog?.hasAttribute('open') ?? false,
      focused: document.activeElement?.className ?? '',
      width: rect?.width,
      height: rect?.height,
      overflow: document.documentElement.style.overflow,
      hasAd: !!dialog?.querySelector('page-ad .page-fake-ad'),
      cls: (window as unknown as { __cls: number }).__cls,
    };
  });

describe('auto ads vignette', () => {
  it.each([375, 1024, 1440])('shows on a same-site link at %i px, held until Escape, then navigates', async (width) => {
    const { page, probe } = await open(width);
    await visit(page, '/uncapped.html');
    await page.click('#next');
    await page.waitForSelector('dialog.page-vignette page-ad .page-fake-ad');
    expect(await overlay(page)).toEqual({
      isOpen: true,
      focused: 'page-vignette-close',
      width,
      height: 700,
      overflow: 'hidden',
      hasAd: true,
      cls: 0,
    });
    expect(page.url()).toBe(server.origin + '/uncapped.html');
    // No scrolling behind the overlay.
    await page.mouse.wheel(0, 800);
    expect(await page.evaluate(() => scrollY)).toBe(0);
    // Focus is held in the overlay.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    expect((await overlay(page)).focused).toBe('page-vignette-close');
    await page.keyboard.press('Escape');
    await page.waitForURL(server.origin + '/next.html');
    expect(probe.opened).toBe(1);
    // Focus went back to the link before the navigation.
    expect(probe.focused.at(-1)).toBe('next');
  });

  it('navigates when the close button is pressed with the keyboard', async () => {
    const { page, probe } = await open(1024);
    await visit(page, '/uncapped.html');
    await page.focus('#next');
    await page.keyboard.press('Enter');
    await page.waitForSelector('dialog.page-vignette[open]');
    await page.keyboard.press('Enter');
    await page.waitForURL(server.origin + '/next.html');
    expect(probe.opened).toBe(1);
  });

  it('navigates when the ad never loads, after the time-out, with a warning', async () => {
    const { page, probe, messages } = await open(375);
    await visit(page, '/never-loads.html');
    await page.click('#next');
    await page.waitForURL(server.origin + '/next.html');
    expect(probe.opened).toBe(1);
    expect(messages.map((m) => m.text)).toContainEqual(expect.stringContaining('auto-ads-vignette-timeout'));
  });

  it('takes no excluded, download, new-tab, modified, other-site or in-page link', async () => {
    const { page, probe } = await open(1440);
    for (const [selector, modifiers] of [
      ['#excluded', []],
      ['#inside-excluded', []],
      ['#download', []],
      ['#blank', []],
      ['#next', ['Control']],
      ['#next', ['Shift']],
      ['#away', []],
      ['#hash', []],
    ] as const) {
      await visit(page, '/uncapped.html');
      await page.click(selector, { modifiers: [...modifiers] });
      // The page itself either stayed or left without an overlay.
      expect(probe.opened, selector + ' ' + modifiers.join('+')).toBe(0);
    }
    for (const extra of page.context().pages()) if (extra !== page) await extra.close();
  });

  it('never shows on the first page view of a visit', async () => {
    const { page, probe } = await open(375);
    await visit(page, '/uncapped.html', 'https://search.example/');
    await page.click('#next');
    await page.waitForURL(server.origin + '/next.html');
    expect(probe.opened).toBe(0);
  });

  it('never shows again on a page reached with the back button', async () => {
    const { page, probe } = await open(1024);
    await visit(page, '/uncapped.html');
    await page.click('#next');
    await page.waitForSelector('dialog.page-vignette[open]');
    await page.keyboard.press('Escape');
    await page.waitForURL(server.origin + '/next.html');
    await page.goBack();
    await page.waitForURL(server.origin + '/uncapped.html');
    expect(await page.$('dialog.page-vignette')).toBeNull();
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve)));
    await page.click('#next');
    await page.waitForURL(server.origin + '/next.html');
    expect(probe.opened).toBe(1);
  });

  it('shows at most once per interval per site, the time kept in storage when consent allows', async () => {
    const { page, probe } = await open(1024);
    await visit(page, '/vignette.html');
    await page.click('#next');
    await page.waitForSelector('dialog.page-vignette[open]');
    await page.click('.page-vignette-close');
    await page.waitForURL(server.origin + '/next.html');
    // Another page of the site, within the hour: the link is followed at once.
    await visit(page, '/second.html', server.origin + '/next.html');
    await page.click('#next');
    await page.waitForURL(server.origin + '/next.html');
    expect(probe.opened).toBe(1);
    const stored = await page.evaluate(() =>
      Object.keys(localStorage)
        .filter((key) => key.startsWith('page-store:'))
        .map((key) => atob(localStorage.getItem(key) ?? '')),
    );
    expect(stored.join()).toContain('auto-ads-vignette');
  });

  it('shows none before consent and none after a reject, one after an accept', async () => {
    const { page, probe } = await open(375);
    await page.goto(server.origin + '/consent.html', { referer: server.origin + '/start.html' });
    await page.waitForSelector('#accept', { state: 'visible' });
    await page.focus('#next');
    await page.keyboard.press('Enter');
    await page.waitForURL(server.origin + '/next.html');
    expect(probe.opened).toBe(0);

    await page.goto(server.origin + '/consent.html', { referer: server.origin + '/start.html' });
    await page.click('#reject');
    await page.click('#next');
    await page.waitForURL(server.origin + '/next.html');
    expect(probe.opened).toBe(0);

    const accepted = await open(375);
    await accepted.page.goto(server.origin + '/consent.html', { referer: server.origin + '/start.html' });
    await accepted.page.click('#accept');
    await accepted.page.waitForFunction(
      () => 'page-auto-ads-vignette' in ((self as { PAGE_PARTS?: object }).PAGE_PARTS ?? {}),
    );
    await accepted.page.evaluate(() => new Promise((resolve) => setTimeout(resolve)));
    await accepted.page.click('#next');
    await accepted.page.waitForSelector('dialog.page-vignette[open]');
    expect(accepted.probe.opened).toBe(1);
  });

  it('keeps the cap for the page view only when consent does not allow storage', async () => {
    const { page, probe } = await open(1024);
    // The ads themselves need no consent here; the reader rejects, so nothing may be stored for them.
    await page.goto(server.origin + '/unblocked.html', { referer: server.origin + '/start.html' });
    await page.click('#reject');
    await page.waitForFunction(() => 'page-auto-ads-vignette' in ((self as { PAGE_PARTS?: object }).PAGE_PARTS ?? {}));
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve)));
    await page.click('#next');
    await page.waitForSelector('dialog.page-vignette[open]');
    await page.keyboard.press('Escape');
    await page.waitForURL(server.origin + '/next.html');
    const stored = await page.evaluate(() =>
      Object.keys(localStorage)
        .filter((key) => key.startsWith('page-store:'))
        .map((key) => atob(localStorage.getItem(key) ?? '')),
    );
    expect(stored.join()).not.toContain('auto-ads-vignette');
    // The next page view of the visit, within the hour: shown again.
    await visit(page, '/unblocked.html', server.origin + '/next.html');
    await page.click('#next');
    await page.waitForSelector('dialog.page-vignette[open]');
    expect(probe.opened).toBe(2);
  });

  it('shows once at the end of the main content with the opt-in trigger, and closing stays on the page', async () => {
    const { page, probe } = await open(1440);
    await visit(page, '/article-end.html');
    expect(probe.opened).toBe(0);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForSelector('dialog.page-vignette[open]');
    expect((await overlay(page)).cls).toBe(0);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('dialog.page-vignette'));
    expect(page.url()).toBe(server.origin + '/article-end.html');
    expect(await page.evaluate(() => document.documentElement.style.overflow)).toBe('');
    // Capped for the hour: the link is followed at once.
    await page.click('#next');
    await page.waitForURL(server.origin + '/next.html');
    expect(probe.opened).toBe(1);
  });

  it('shows when the tab comes back after being hidden at least tabReturnSeconds, not sooner', async () => {
    const { page, probe } = await open(1440);
    // The tab's visibility, as the reader switching tabs would change it; the page's clock, moved on while hidden.
    await page.addInitScript(() => {
      let isHidden = false;
      Object.defineProperty(Document.prototype, 'hidden', { get: () => isHidden, configurable: true });
      Object.defineProperty(Document.prototype, 'visibilityState', {
        get: () => (isHidden ? 'hidden' : 'visible'),
        configurable: true,
      });
      (window as unknown as { setHidden(value: boolean): void }).setHidden = (value) => {
        isHidden = value;
        document.dispatchEvent(new Event('visibilitychange'));
      };
    });
    await page.clock.install();
    await visit(page, '/tab-return.html');
    const away = async (ms: number) => {
      await page.evaluate(() => (window as unknown as { setHidden(value: boolean): void }).setHidden(true));
      await page.clock.fastForward(ms);
      return page.evaluate(() => {
        (window as unknown as { setHidden(value: boolean): void }).setHidden(false);
        return !!document.querySelector('dialog.page-vignette[open]');
      });
    };
    expect(await away(30_000)).toBe(false);
    expect(await away(61_000)).toBe(true);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('dialog.page-vignette'));
    expect(page.url()).toBe(server.origin + '/tab-return.html');
    expect(probe.opened).toBe(1);
  });
});
