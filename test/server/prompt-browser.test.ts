/**
 * The hosted prompt in real Chromium, framed the way `<page-consent>` frames a promptUiSrc:
 * the protocol messages, per-purpose choices, keyboard use, 320 px layout and axe checks.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Browser, chromium, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultInstanceConfig } from '../../server/store/store.ts';
import { buildApp, type Harness } from './app-harness.ts';

const chromiumPath = '/usr/bin/chromium';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const prompt = {
  title: 'Privacy at Daily News',
  message: 'We and our partners use cookies to measure our audience and show ads.',
  purposes: [
    { id: 'analytics', label: 'Audience measurement', description: 'Counts visits anonymously.' },
    { id: 'ads', label: 'Personalised ads', description: 'Ads based on what you read.' },
  ],
  vendors: [{ name: 'Ad Network', url: 'https://ads.example/privacy', purposes: ['ads'] }],
  privacyPolicyUrl: 'https://news.example/privacy',
};

function parentPage(windowName: string, instance: string): string {
  return `<!doctype html><html lang="en"><head><title>Parent</title>
<style>body{margin:0}iframe{position:fixed;bottom:0;left:0;width:100%;height:60vh;border:0}</style></head><body>
<script>
window.messages = [];
addEventListener('message', (event) => window.messages.push(event.data));
const frame = document.createElement('iframe');
frame.name = ${JSON.stringify(windowName)};
frame.setAttribute('sandbox', 'allow-scripts allow-popups');
frame.title = 'Consent prompt';
frame.src = '/cmp/prompt.html${instance ? `?instance=${instance}` : ''}';
document.body.append(frame);
</script></body></html>`;
}

let browser: Browser;
let harness: Harness;
let origin: string;

beforeAll(async () => {
  if (!existsSync(chromiumPath)) return;
  browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-background-networking'] });
  harness = await buildApp({}, true);
  await harness.store.putInstance('site', { ...defaultInstanceConfig, prompt }, 1);
  origin = await harness.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

async function open(
  clientInfo: object | string,
  viewport = { width: 390, height: 800 },
  instance = 'site',
): Promise<{ page: Page; frame: Frame }> {
  const name = typeof clientInfo === 'string' ? clientInfo : JSON.stringify(clientInfo);
  writeFileSync(join(harness.dir, 'examples/parent.html'), parentPage(name, instance));
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(`${origin}/examples/parent.html`);
  await page.waitForFunction(() => (window as unknown as { messages: unknown[] }).messages.length > 0);
  const frame = page.frames().find((f) => f.url().includes('/cmp/prompt.html'))!;
  return { page, frame };
}

const messages = (page: Page) => page.evaluate(() => (window as unknown as { messages: unknown[] }).messages);
const waitForMessages = (page: Page, count: number) =>
  page.waitForFunction((n) => (window as unknown as { messages: unknown[] }).messages.length >= n, count);

describe.skipIf(!existsSync(chromiumPath))('hosted prompt in Chromium', () => {
  it('posts ready with a 60vh bordered sheet before anything else', async () => {
    const { page } = await open({ consentStateValue: 'unknown', promptTrigger: 'load' });
    expect(await messages(page)).toEqual([{ type: 'consent-ui', action: 'ready', initialHeight: '60vh', border: true }]);
    await page.context().close();
  });

  it('saves per-purpose choices, starting from the stored ones, and counts the outcome', async () => {
    const { page, frame } = await open({ consentStateValue: 'accepted', purposeConsents: { ads: true } });
    await frame.getByRole('button', { name: 'Manage choices' }).click();
    const ads = frame.getByRole('switch', { name: 'Personalised ads' });
    const analytics = frame.getByRole('switch', { name: 'Audience measurement' });
    expect(await ads.isChecked()).toBe(true);
    expect(await analytics.isChecked()).toBe(false);
    expect(await analytics.evaluate((el) => el === document.activeElement)).toBe(true);
    await analytics.check();
    await ads.uncheck();
    await frame.getByRole('button', { name: 'Save choices' }).click();
    await waitForMessages(page, 2);
    expect((await messages(page))[1]).toEqual({
      type: 'consent-response',
      action: 'accept',
      purposeConsents: { analytics: true, ads: false },
    });
    await expect.poll(() => harness.store.promptOutcomes('site', '2000-01-01')).toEqual([
      { day: '2025-06-15', accept: 1, reject: 0, dismiss: 0 },
    ]);
    await page.context().close();
  });

  it('rejects every purpose with Reject all, from the keyboard', async () => {
    const { page, frame } = await open({ consentStateValue: 'unknown' });
    await frame.getByRole('button', { name: 'Reject all' }).focus();
    await page.keyboard.press('Enter');
    await waitForMessages(page, 2);
    expect((await messages(page))[1]).toEqual({
      type: 'consent-response',
      action: 'reject',
      purposeConsents: { analytics: false, ads: false },
    });
    await page.context().close();
  });

  it('dismisses on Escape and sends no purposes', async () => {
    const { page, frame } = await open({});
    await frame.locator('main').focus();
    await page.keyboard.press('Escape');
    await waitForMessages(page, 2);
    expect((await messages(page))[1]).toEqual({ type: 'consent-response', action: 'dismiss' });
    await page.context().close();
  });

  it('offers the page purposes from the client info when the instance lists none', async () => {
    const clientInfo = {
      clientConfig: { consentInstanceId: 'bare', purposeConsentRequired: ['analytics', 'ads'] },
      purposeConsents: { ads: true, video: false },
    };
    const { page, frame } = await open(clientInfo, undefined, 'bare');
    await frame.getByRole('button', { name: 'Manage choices' }).click();
    expect(await frame.getByRole('switch', { name: 'analytics' }).isChecked()).toBe(false);
    expect(await frame.getByRole('switch', { name: 'ads' }).isChecked()).toBe(true);
    expect(await frame.getByRole('switch', { name: 'video' }).isChecked()).toBe(false);
    await frame.getByRole('button', { name: 'Accept all' }).click();
    await waitForMessages(page, 2);
    expect((await messages(page))[1]).toEqual({
      type: 'consent-response',
      action: 'accept',
      purposeConsents: { analytics: true, ads: true, video: true },
    });
    await page.context().close();
  });

  it('works without an instance parameter, counting the outcome for the client info instance', async () => {
    await harness.store.ensureInstance('from-page', defaultInstanceConfig, 1);
    const { page, frame } = await open({ clientConfig: { consentInstanceId: 'from-page' } }, undefined, '');
    expect((await messages(page))[0]).toMatchObject({ type: 'consent-ui', action: 'ready' });
    await frame.getByRole('button', { name: 'Reject all' }).click();
    await waitForMessages(page, 2);
    expect((await messages(page))[1]).toEqual({ type: 'consent-response', action: 'reject' });
    await expect.poll(() => harness.store.promptOutcomes('from-page', '2000-01-01')).toEqual([
      { day: '2025-06-15', accept: 0, reject: 1, dismiss: 0 },
    ]);
    await page.context().close();
  });

  it('survives a window.name that is not JSON', async () => {
    const { page, frame } = await open('{not json');
    await frame.getByRole('button', { name: 'Accept all' }).click();
    await waitForMessages(page, 2);
    expect((await messages(page))[1]).toMatchObject({ action: 'accept', purposeConsents: { analytics: true, ads: true } });
    await page.context().close();
  });

  it('fits a 320 px screen without horizontal scrolling, with 44 px targets', async () => {
    const { page, frame } = await open({}, { width: 320, height: 640 });
    await frame.getByRole('button', { name: 'Manage choices' }).click();
    const layout = await frame.evaluate(() => ({
      overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      smallest: Math.min(...[...document.querySelectorAll('button.action')].filter((b) => (b as HTMLElement).offsetParent).map((b) => b.getBoundingClientRect().height)),
    }));
    expect(layout.overflow).toBeLessThanOrEqual(0);
    expect(layout.smallest).toBeGreaterThanOrEqual(44);
    await page.context().close();
  });

  it('has no axe violations, closed and open', async () => {
    const { page, frame } = await open({});
    await frame.evaluate(axeSource);
    const run = () => frame.evaluate(async () => {
      const result = await (window as unknown as { axe: { run: (c: Document) => Promise<{ violations: { id: string }[] }> } }).axe.run(document);
      return result.violations.map((v) => v.id);
    });
    expect(await run()).toEqual([]);
    await frame.getByRole('button', { name: 'Manage choices' }).click();
    expect(await run()).toEqual([]);
    await page.context().close();
  });
});
