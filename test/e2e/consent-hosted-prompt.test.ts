/**
 * The reference server's hosted prompt (`/cmp/prompt.html`) framed by a real `<page-consent
 * type="page-hosted">`, against the real server process: the preset finds the prompt and the
 * endpoints, the reader's choice in the frame reaches `/consent/update` and the admin export.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer } from '../server/server-process.ts';
import { diagnosticsOf } from './consent-fixtures.ts';
import { html, launchBrowser, newPage, type TestPage } from './harness.ts';

const ADMIN_TOKEN = 'hosted-prompt-e2e-admin-token';
let browser: Browser;
let server: ServerProcess;
let port = 0;
let dir = '';
const opened: TestPage[] = [];

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });

function hostedPage(config: object): string {
  return html(
    `<page-consent id="consent" layout="nodisplay" type="page-hosted"><script type="application/json">${JSON.stringify(config)}</script></page-consent>
    <main><h1>Article</h1><p>Text.</p></main>
    <script>
      window.consentEvents = [];
      document.addEventListener('consent-change', (event) => window.consentEvents.push(event.detail));
    </script>`,
    { extensions: ['page-consent'], head: '<meta name="page-consent-blocking" content="page-img">' },
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'page-hosted-'));
  port = await freePort();
  server = await startServer({
    PORT: String(port),
    DATABASE_URL: `sqlite:${join(dir, 'page.db')}`,
    ADMIN_TOKEN,
    EXAMPLES_ROOT: dir,
  });
  browser = await launchBrowser();
});
afterEach(async () => {
  for (const test of opened.splice(0)) await test.context.close();
});
afterAll(async () => {
  await browser?.close();
  server?.child.kill('SIGTERM');
  await server?.exited();
  rmSync(dir, { recursive: true, force: true });
});

async function open(name: string, config: object): Promise<TestPage> {
  writeFileSync(join(dir, name), hostedPage(config));
  const test = await newPage(browser, { viewport: { width: 400, height: 700 } });
  opened.push(test);
  await test.page.goto(`http://127.0.0.1:${port}/examples/${name}`);
  return test;
}

async function promptFrame(page: Page): Promise<Frame> {
  let frame: Frame | undefined;
  await expect.poll(() => (frame = page.frames().find((f) => f.url().includes('/cmp/prompt.html')))).toBeTruthy();
  await page.waitForSelector('.page-consent-frame iframe:not([hidden])');
  return frame!;
}

async function exported(instance: string): Promise<{ state: string; purposeConsents?: object }[]> {
  const response = await fetch(`http://127.0.0.1:${port}/admin/api/instances/${instance}/export?format=ndjson`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    signal: AbortSignal.timeout(5_000),
  });
  const text = (await response.text()).trim();
  return text ? text.split('\n').map((line) => JSON.parse(line)) : [];
}

/**
 * `answer`, or `fallback` when it has not come within 2 s. An evaluate in a frame waits for the
 * frame's script context and has no time-out of its own; `expect.poll` waits for each call, so a
 * call that never answers held a test until its own time-out, with no word of which wait it was.
 */
const within = <T>(answer: Promise<T>, fallback: T): Promise<T> =>
  Promise.race([answer, new Promise<T>((resolve) => setTimeout(() => resolve(fallback), 2_000))]);

/**
 * `action`, failed with its name when it has not finished within 10 s. A key press waits for the
 * browser to take the key and has no time-out of its own: one that never came back held a test
 * until the test's own time-out, which named no step.
 */
const bounded = (name: string, action: Promise<void>): Promise<void> =>
  Promise.race([
    action,
    new Promise<void>((_, reject) => setTimeout(() => reject(new Error(`${name}: not done within 10 s`)), 10_000)),
  ]);

/** The frame's focused element while its document has focus, as `TAG#id`. */
const focusInFrame = (frame: Frame) =>
  within(
    frame.evaluate(() =>
      document.hasFocus() ? `${document.activeElement?.tagName}#${document.activeElement?.id}` : 'outside',
    ),
    'no answer from the frame in 2 s',
  );

/** The tag of the page's focused element. */
const activeTag = (page: Page) =>
  within(
    page.evaluate(() => document.activeElement?.tagName),
    'no answer from the page in 2 s',
  );

const lastState = (page: Page) =>
  within(
    page.evaluate(() => (window as unknown as { consentEvents: { state: string }[] }).consentEvents.at(-1)?.state),
    'no answer from the page in 2 s',
  );

describe('hosted prompt framed by <page-consent type="page-hosted">', () => {
  it('cross-origin (consent server on localhost): accept in the frame reaches /consent/update and the admin export', async () => {
    const test = await open('hosted-cross.html', {
      consentInstanceId: 'hosted-cross',
      checkConsentHref: `http://localhost:${port}/consent/check`,
      purposeConsentRequired: ['ads'],
    });
    const { page } = test;
    const frame = await promptFrame(page);
    const attributes = await page.$eval('.page-consent-frame iframe', (f: HTMLIFrameElement) => ({
      src: f.src,
      sandbox: f.getAttribute('sandbox'),
    }));
    expect(attributes).toEqual({
      src: `http://localhost:${port}/cmp/prompt.html?instance=hosted-cross`,
      sandbox: 'allow-scripts allow-popups allow-same-origin',
    });
    // 60vh of 700 px, bottom sheet.
    expect(
      await page.$eval('.page-consent-frame iframe', (f: HTMLIFrameElement) =>
        Math.round(f.getBoundingClientRect().height),
      ),
    ).toBe(420);
    expect(await frame.textContent('#summary')).toContain('ads');
    const update = page.waitForResponse((response) => response.url() === `http://localhost:${port}/consent/update`);
    await frame.click('#accept');
    expect((await update).status()).toBe(200);
    await expect.poll(() => lastState(page)).toBe('accepted');
    expect(
      await page.evaluate(
        () =>
          (window as unknown as { consentEvents: { purposeConsents: object }[] }).consentEvents.at(-1)?.purposeConsents,
      ),
    ).toEqual({ ads: true });
    expect(await page.$('.page-consent-frame iframe')).toBeNull();
    await expect.poll(async () => (await exported('hosted-cross')).map((r) => r.state)).toEqual(['accepted']);
    expect((await exported('hosted-cross'))[0]).toMatchObject({ purposeConsents: { ads: true } });
    expect(test.errors).toEqual([]);
  });

  it('same origin (the page served by the consent server): reject by keyboard alone is recorded', async () => {
    // An instance of this attempt's own: the export below counts every record of the instance.
    const instance = `hosted-same-${Date.now()}`;
    const test = await open('hosted-same.html', { consentInstanceId: instance });
    const { page } = test;
    const frame = await promptFrame(page);
    expect(await page.$eval('.page-consent-frame iframe', (f: HTMLIFrameElement) => f.getAttribute('sandbox'))).toBe(
      'allow-scripts allow-popups',
    );
    // Focus moves into the frame, onto the prompt itself (not the frame's <body>).
    await expect.poll(() => activeTag(page)).toBe('IFRAME');
    await expect.poll(() => focusInFrame(frame)).toBe('MAIN#prompt');
    const update = page.waitForResponse((response) => response.url().endsWith('/consent/update'), { timeout: 15_000 });
    // In the prompt: Reject all is the first button.
    await bounded('pressing Tab', page.keyboard.press('Tab'));
    await expect.poll(() => focusInFrame(frame)).toBe('BUTTON#reject');
    await bounded('pressing Enter', page.keyboard.press('Enter'));
    expect((await update).status()).toBe(200);
    await expect.poll(() => lastState(page)).toBe('rejected');
    await expect.poll(async () => (await exported(instance)).map((r) => r.state)).toEqual(['rejected']);
    expect(diagnosticsOf(test.messages, 'consent-prompt-frame-timeout')).toEqual([]);
  });

  it("reopened from the page's Privacy settings, focus lands on the second layer's heading", async () => {
    const config = { consentInstanceId: 'hosted-reopen', postPromptUI: 'settings' };
    writeFileSync(
      join(dir, 'hosted-reopen.html'),
      hostedPage(config).replace(
        '</page-consent>',
        '<div id="settings" hidden><button type="button" on="tap:consent.prompt">Privacy settings</button></div></page-consent>',
      ),
    );
    const test = await newPage(browser, { viewport: { width: 400, height: 700 } });
    opened.push(test);
    const { page } = test;
    await page.goto(`http://127.0.0.1:${port}/examples/hosted-reopen.html`);
    await (await promptFrame(page)).click('#accept');
    await expect.poll(() => lastState(page)).toBe('accepted');
    await page.click('#settings button');
    await expect.poll(() => activeTag(page)).toBe('IFRAME');
    await expect.poll(async () => focusInFrame(await promptFrame(page))).toBe('H2#layer2-title');
  });

  it('the framed prompt page and its host page have no axe violations', async () => {
    const { page } = await open('hosted-axe.html', { consentInstanceId: 'hosted-axe' });
    await promptFrame(page);
    const { violations } = await new AxeBuilder({ page }).analyze();
    expect(violations.map((v) => v.id)).toEqual([]);
  });
});
