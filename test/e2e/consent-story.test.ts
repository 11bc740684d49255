/** `<page-story-consent>` (docs/consent.md, "The story prompt") in Chromium: rendering, onlyAccept, RTL, keyboard, axe. */
import { AxeBuilder } from '@axe-core/playwright';
import { describe, expect, it } from 'vitest';
import { builtProbes, consentPage, diagnosticsOf, isShown, useConsentFixture } from './consent-fixtures.ts';
import { newPage, settled } from './harness.ts';

const fixture = useConsentFixture();

const STORY = {
  title: 'Your privacy',
  message: 'We and our partners use cookies to show ads.',
  vendors: ['Ad Network', 'Analytics Co'],
  externalLink: { title: 'Privacy policy', href: 'https://news.example/privacy' },
};
const story = (config: object) =>
  `<page-story-consent layout="nodisplay" hidden><script type="application/json">${JSON.stringify(config)}</script></page-story-consent>`;
const CONFIG = { consentInstanceId: 'story', consentRequired: true };

let count = 0;
async function open(config: object, options: { rtl?: boolean } = {}) {
  const path = `/story-${++count}.html`;
  let markup = consentPage(CONFIG, { inside: story(config) });
  if (options.rtl) markup = markup.replace('<html lang="en">', '<html lang="ar" dir="rtl">');
  fixture.server.page(path, markup);
  const test = await newPage(fixture.browser, { viewport: { width: 360, height: 640 } });
  await test.page.goto(fixture.server.origin + path);
  return test;
}

describe('<page-story-consent>', () => {
  it('renders title, message, vendors, link and both buttons as a labelled modal dialog with focus', async () => {
    const { page } = await open(STORY);
    await expect.poll(() => isShown(page, 'page-story-consent')).toBe(true);
    const view = await page.$eval('page-story-consent', (s: HTMLElement) => ({
      hidden: s.hidden,
      role: s.getAttribute('role'),
      modal: s.getAttribute('aria-modal'),
      label: document.getElementById(s.getAttribute('aria-labelledby')!)?.textContent,
      dir: s.getAttribute('dir'),
      message: s.querySelector('p')?.textContent,
      vendors: [...s.querySelectorAll('li')].map((li) => li.textContent),
      link: [s.querySelector('a')?.textContent, s.querySelector('a')?.getAttribute('href')],
      buttons: [...s.querySelectorAll('button')].map((b) => b.textContent),
      focused: document.activeElement === s,
    }));
    expect(view).toEqual({
      hidden: false,
      role: 'dialog',
      modal: 'true',
      label: 'Your privacy',
      dir: 'ltr',
      message: STORY.message,
      vendors: STORY.vendors,
      link: ['Privacy policy', 'https://news.example/privacy'],
      buttons: ['Decline', 'Accept'],
      focused: true,
    });
    const { violations } = await new AxeBuilder({ page }).include('page-story-consent').analyze();
    expect(violations.map((v) => v.id)).toEqual([]);
  });

  it('is written hidden and never painted for a returning reader', async () => {
    const { page } = await open(STORY);
    await expect.poll(() => isShown(page, 'page-story-consent')).toBe(true);
    await page.click('text=Accept');
    await expect.poll(() => page.$eval('page-story-consent', (s: HTMLElement) => s.hidden)).toBe(true);
    await page.reload();
    await page.waitForSelector('page-consent.page-built', { state: 'attached' });
    await expect.poll(() => builtProbes(page)).toContain('default');
    expect(await page.$eval('page-story-consent', (s: HTMLElement) => s.hidden)).toBe(true);
  });

  it('is usable by keyboard alone: Tab to Decline, Enter rejects', async () => {
    const { page } = await open(STORY);
    await expect.poll(() => isShown(page, 'page-story-consent')).toBe(true);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Privacy policy');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Decline');
    await page.keyboard.press('Enter');
    await expect
      .poll(() =>
        page.evaluate(() => (window as unknown as { consentEvents: { state: string }[] }).consentEvents.at(-1)?.state),
      )
      .toBe('rejected');
    expect(await isShown(page, 'page-story-consent')).toBe(false);
  });

  it('onlyAccept hides decline; accept builds the blocked elements', async () => {
    const { page } = await open({ ...STORY, onlyAccept: true, externalLink: undefined });
    await expect.poll(() => isShown(page, 'page-story-consent')).toBe(true);
    expect(await page.$$eval('page-story-consent button', (buttons) => buttons.map((b) => b.textContent))).toEqual([
      'Accept',
    ]);
    expect(await page.$('page-story-consent a')).toBeNull();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => builtProbes(page)).toContain('till-accepted');
  });

  it('follows the document direction (RTL)', async () => {
    const { page } = await open(STORY, { rtl: true });
    await expect.poll(() => isShown(page, 'page-story-consent')).toBe(true);
    expect(
      await page.$eval('page-story-consent', (s: HTMLElement) => [
        s.getAttribute('dir'),
        getComputedStyle(s).direction,
      ]),
    ).toEqual(['rtl', 'rtl']);
  });

  it('an invalid config (no vendors, a javascript: link) is reported and no prompt shows', async () => {
    const test = await open({ title: 'T', message: 'M', externalLink: { title: 'x', href: 'javascript:alert(1)' } });
    await test.page.waitForSelector('page-consent.page-built', { state: 'attached' });
    await expect.poll(() => diagnosticsOf(test.messages, 'consent-story-invalid').length).toBe(2);
    expect(await isShown(test.page, 'page-story-consent')).toBe(false);
  });

  it('a story prompt without a config object is reported once and no prompt shows', async () => {
    const path = `/story-${++count}.html`;
    fixture.server.page(
      path,
      consentPage(CONFIG, { inside: '<page-story-consent layout="nodisplay" hidden></page-story-consent>' }),
    );
    const test = await newPage(fixture.browser, { viewport: { width: 360, height: 640 } });
    await test.page.goto(fixture.server.origin + path);
    await test.page.waitForSelector('page-consent.page-built', { state: 'attached' });
    await expect.poll(() => diagnosticsOf(test.messages, 'consent-story-invalid').length).toBeGreaterThan(0);
    await settled(test.page);
    expect(diagnosticsOf(test.messages, 'consent-story-invalid')).toHaveLength(1);
    expect(await isShown(test.page, 'page-story-consent')).toBe(false);
  });

  it('shows when named by promptUI, as AMP pages write it, and decides', async () => {
    const path = `/story-${++count}.html`;
    const named = story(STORY).replace('<page-story-consent', '<page-story-consent id="story-prompt"');
    fixture.server.page(path, consentPage({ ...CONFIG, promptUI: 'story-prompt' }, { inside: named }));
    const { page, messages } = await newPage(fixture.browser, { viewport: { width: 360, height: 640 } });
    await page.goto(fixture.server.origin + path);
    await expect.poll(() => isShown(page, 'page-story-consent')).toBe(true);
    expect(
      await page.$$eval('page-story-consent button', (buttons) => buttons.map((button) => button.textContent)),
    ).toEqual(['Decline', 'Accept']);
    await page.click('page-story-consent button:last-child');
    await expect
      .poll(() =>
        page.evaluate(() => (window as never as { consentEvents: { state: string }[] }).consentEvents.at(-1)?.state),
      )
      .toBe('accepted');
    expect(messages.filter((line) => line.text.includes('consent-prompt-missing'))).toEqual([]);
  });
});
