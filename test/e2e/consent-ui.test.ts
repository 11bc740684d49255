import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  builtProbes,
  consentPage,
  diagnosticsOf,
  isShown,
  POST_PROMPT,
  PROBES,
  PROMPT,
  storedValues,
  useConsentFixture,
} from './consent-fixtures.ts';
import { installClock, pauseClock, runUntil, timerSetAt } from './clock.ts';
import { html, newPage, settled, type TestPage } from './harness.ts';

const fixture = useConsentFixture();

const CLIENT = { consentInstanceId: 'site', consentRequired: true, promptUI: 'prompt', postPromptUI: 'post' };
const TALL =
  '<div style="height:3000px"><button id="content-button" onclick="window.clicked = true">Content</button></div>';

let count = 0;
async function openHtml(markup: string, init?: string, clock = false) {
  const path = `/ui-${++count}.html`;
  fixture.server.page(path, markup);
  const test = await newPage(fixture.browser, { viewport: { width: 320, height: 568 } });
  if (clock) await installClock(test.page);
  if (init) await test.page.addInitScript(init);
  await test.page.goto(fixture.server.origin + path);
  await test.page.waitForSelector('page-consent.page-built', { state: 'attached' });
  return test;
}
const open = (config: object, options: Parameters<typeof consentPage>[1] = {}, init?: string, clock = false) =>
  openHtml(consentPage(config, options), init, clock);

describe('prompt UI', () => {
  it('is a dialog fixed to the bottom, labelled by the caption, with focus moved in', async () => {
    const { page } = await open({ ...CLIENT, captions: { consentPromptCaption: 'Your privacy' } }, { body: TALL });
    await expect.poll(() => isShown(page, '#prompt')).toBe(true);
    const info = await page.$eval('#prompt', (prompt) => {
      const host = prompt.parentElement!;
      const box = host.getBoundingClientRect();
      return {
        role: prompt.getAttribute('role'),
        label: prompt.getAttribute('aria-label'),
        modal: prompt.getAttribute('aria-modal'),
        focused: document.activeElement === prompt,
        position: getComputedStyle(host).position,
        bottom: Math.round(box.bottom),
        width: Math.round(box.width),
      };
    });
    expect(info).toEqual({
      role: 'dialog',
      label: 'Your privacy',
      modal: null,
      focused: true,
      position: 'fixed',
      bottom: 568,
      width: 320,
    });
  });

  it('returns focus to the element focused before the prompt opened', async () => {
    const { page } = await open(CLIENT, { body: TALL });
    await page.click('#accept');
    // The post-prompt UI shows once the accept is applied (the actions part loads at the first tap).
    await page.waitForSelector('#manage:visible');
    await page.focus('#manage');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('prompt');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('accept');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('manage');
  });

  it('lets go of focus as it hides the prompt when the page itself had it before, not at the next style update', async () => {
    const { page } = await open(CLIENT, { body: TALL });
    await expect.poll(() => isShown(page, '#prompt')).toBe(true);
    // Where focus is when the prompt gets `hidden`, read before the browser updates any style.
    await page.evaluate(() => {
      const prompt = document.getElementById('prompt')!;
      const seen = window as unknown as { focusWhenHidden?: string | undefined };
      new MutationObserver(() => {
        if (prompt.hidden) seen.focusWhenHidden ??= document.activeElement?.localName;
      }).observe(prompt, { attributes: true });
    });
    await page.click('#accept');
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { focusWhenHidden?: string }).focusWhenHidden))
      .toBe('body');
  });

  it('has no axe violations in the prompt, with and without the overlay', async () => {
    for (const uiConfig of [{}, { overlay: true }]) {
      const { page } = await open({ ...CLIENT, uiConfig }, { body: TALL });
      await expect.poll(() => isShown(page, '#prompt')).toBe(true);
      const { violations } = await new AxeBuilder({ page }).include('#consent').analyze();
      expect(violations.map((violation) => violation.id)).toEqual([]);
    }
  });

  it('keeps publisher roles and labels', async () => {
    const inside = `<div id="prompt" role="alertdialog" aria-labelledby="title"><h2 id="title">Cookies</h2><button id="accept" on="tap:consent.accept">OK</button></div>`;
    const { page } = await open(CLIENT, { inside, body: '' });
    await expect.poll(() => isShown(page, '#prompt')).toBe(true);
    expect(await page.$eval('#prompt', (p) => [p.getAttribute('role'), p.getAttribute('aria-label')])).toEqual([
      'alertdialog',
      null,
    ]);
  });

  it('shows one UI at a time and nothing before the element builds', async () => {
    const { page } = await open(CLIENT);
    expect(await isShown(page, '#post')).toBe(false);
    await page.click('#dismiss');
    // On a first visit the click is applied once the consent state is there.
    await expect.poll(() => isShown(page, '#prompt')).toBe(false);
    expect(await isShown(page, '#post')).toBe(true);
  });

  it('shows and hides a post-prompt UI placed elsewhere in the page', async () => {
    const { page } = await open(CLIENT, { inside: PROMPT, body: `<footer>${POST_PROMPT}</footer>` });
    expect(await isShown(page, '#post')).toBe(false);
    await page.click('#accept');
    await expect.poll(() => isShown(page, '#post')).toBe(true);
    expect(await page.$eval('#post', (post) => getComputedStyle(post).position)).toBe('static');
    await page.click('#manage');
    expect(await isShown(page, '#post')).toBe(false);
  });

  it('shows no post-prompt UI when consent is not required', async () => {
    const { page } = await open({ ...CLIENT, consentRequired: false });
    await settled(page);
    expect(await isShown(page, '#post')).toBe(false);
    expect(await isShown(page, '#prompt')).toBe(false);
  });

  it('makes the element position:fixed once laid out, with every UI display:none until shown', async () => {
    const { page } = await open(
      { ...CLIENT, consentRequired: false },
      { body: '<button id="again" on="tap:consent.prompt">Privacy</button>' },
    );
    await expect.poll(() => page.$eval('#consent', (host) => getComputedStyle(host).position)).toBe('fixed');
    expect(await page.$$eval('#prompt, #post', (uis) => uis.map((ui) => getComputedStyle(ui).display))).toEqual([
      'none',
      'none',
    ]);
    await page.click('#again');
    await expect
      .poll(() => page.$$eval('#consent, #prompt, #post', (uis) => uis.map((ui) => getComputedStyle(ui).display)))
      .toEqual(['block', 'block', 'none']);
  });
});

describe('overlay', () => {
  it('blocks interaction and scrolling beneath the prompt until a decision', async () => {
    const { page } = await open({ ...CLIENT, uiConfig: { overlay: true } }, { body: TALL });
    await expect.poll(() => isShown(page, '.page-consent-overlay')).toBe(true);
    expect(await page.$eval('#prompt', (p) => p.getAttribute('aria-modal'))).toBe('true');
    await page.mouse.click(10, 10);
    await page.mouse.wheel(0, 800);
    await settled(page);
    expect(
      await page.evaluate(() => [window.scrollY, (window as unknown as { clicked?: boolean }).clicked ?? false]),
    ).toEqual([0, false]);
    await page.focus('#content-button').catch(() => {});
    expect(await page.evaluate(() => document.activeElement?.id)).not.toBe('content-button');
    await page.click('#accept');
    // The first tap loads the actions part, then the tap is replayed.
    await expect.poll(() => isShown(page, '.page-consent-overlay')).toBe(false);
    await page.mouse.wheel(0, 800);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.click('#content-button');
    expect(await page.evaluate(() => (window as unknown as { clicked?: boolean }).clicked)).toBe(true);
  });

  it('is absent by default', async () => {
    const { page } = await open(CLIENT, { body: TALL });
    await expect.poll(() => isShown(page, '#prompt')).toBe(true);
    expect(await page.$('.page-consent-overlay')).toBeNull();
  });
});

describe('robustness', () => {
  it('works for the page view when storage throws, and warns that decisions will not persist', async () => {
    const init = `Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('denied', 'SecurityError'); } });`;
    const { page, messages } = await open(CLIENT, {}, init);
    await expect.poll(() => isShown(page, '#prompt')).toBe(true);
    await page.click('#accept');
    await expect
      .poll(() => builtProbes(page))
      .toEqual(['open', 'default', 'till-accepted', 'till-responded', 'auto-reject']);
    expect(diagnosticsOf(messages, 'storage-unavailable').length).toBeGreaterThan(0);
    await page.reload();
    await page.waitForSelector('page-consent.page-built', { state: 'attached' });
    await expect.poll(() => isShown(page, '#prompt')).toBe(true);
  });

  it('refuses a second consent element and keeps the first working', async () => {
    const second = `<page-consent id="other" layout="nodisplay"><script type="application/json">{"consentInstanceId":"other","consentRequired":false}</script></page-consent>`;
    const { page, messages } = await open(CLIENT, { body: second + PROBES });
    await expect.poll(() => diagnosticsOf(messages, 'consent-duplicate').length).toBe(1);
    await expect.poll(() => isShown(page, '#prompt')).toBe(true);
    expect(await builtProbes(page)).toEqual(['open', 'auto-reject']);
    await page.click('#accept');
    await expect.poll(() => builtProbes(page)).toHaveLength(5);
    expect(Object.keys(await storedValues(page))).toEqual(['consent:site']);
  });

  it('fails closed on an invalid config: blocked elements stay blocked, nothing is stored, one error says why', async () => {
    const { page, messages } = await open({ consentInstanceId: 'site', promptUI: 'prompt', postPromptUI: 5 });
    await settled(page);
    expect(await builtProbes(page)).toEqual(['open']);
    expect(await isShown(page, '#prompt')).toBe(false);
    const errors = messages.filter((m) => m.type === 'error' && m.text.includes('[page-consent#consent]'));
    expect(errors.map((m) => m.text)).toEqual([
      expect.stringContaining('consent-required-missing: expected consentRequired: true for a client-only setup'),
    ]);
    // The field of the wrong type is a warning beside it.
    expect(diagnosticsOf(messages, 'consent-field-invalid').map((m) => m.type)).toEqual(['warning']);
    expect(await storedValues(page)).toEqual({});
  });

  describe('with a config it cannot use', () => {
    // One page, navigated anew for each row: a row checks that one page view fails closed (it
    // stores nothing), not that nothing carries over from another.
    let shared: TestPage;
    beforeAll(async () => {
      shared = await newPage(fixture.browser, { viewport: { width: 320, height: 568 } });
    });
    afterAll(async () => {
      await shared?.context.close();
    });

    it.each([
      [
        'no id',
        `<page-consent layout="nodisplay"><script type="application/json">{"consentInstanceId":"s","consentRequired":true}</script></page-consent>`,
        'consent-id-missing',
      ],
      ['no JSON script', `<page-consent id="c" layout="nodisplay"></page-consent>`, 'consent-config-invalid'],
      [
        'two JSON scripts',
        `<page-consent id="c" layout="nodisplay"><script type="application/json">{}</script><script type="application/json">{}</script></page-consent>`,
        'consent-config-invalid',
      ],
      [
        'invalid JSON',
        `<page-consent id="c" layout="nodisplay"><script type="application/json">{nope</script></page-consent>`,
        'consent-config-invalid',
      ],
    ])('fails closed with %s', async (_, element, code) => {
      const path = `/ui-${++count}.html`;
      fixture.server.page(path, html(element + PROBES, { extensions: ['page-consent'] }));
      const { page, messages } = shared;
      messages.length = 0;
      await page.goto(fixture.server.origin + path);
      await page.waitForSelector('page-consent.page-built', { state: 'attached' });
      await expect.poll(() => diagnosticsOf(messages, code).length).toBe(1);
      await settled(page);
      expect(await builtProbes(page)).toEqual(['open']);
      expect(await storedValues(page)).toEqual({});
    });
  });

  it('reads its config and page-geo when its scripts run before the parser reaches them', async () => {
    const slow = `/slow-${++count}.js`;
    fixture.server.route(slow, {
      body: 'window.slow = 1;',
      headers: { 'content-type': 'text/javascript' },
      delay: 800,
    });
    const config = { ...CLIENT, geoOverride: { eea: { consentRequired: false } } };
    const markup = html(
      `<script src="${slow}"></script>
      <page-consent id="consent" layout="nodisplay"><script type="application/json">${JSON.stringify(config)}</script>${PROMPT}${POST_PROMPT}</page-consent>
      ${PROBES}
      <page-geo layout="nodisplay"><script type="application/json">{"ISOCountryGroups":{"eea":["de"]}}</script></page-geo>`,
      { extensions: ['page-consent', 'page-geo'] },
    );
    const path = `/ui-${++count}.html`;
    fixture.server.page(path, markup);
    const { page, messages } = await newPage(fixture.browser);
    await page.goto(`${fixture.server.origin}${path}#page-geo=de`);
    await expect.poll(() => builtProbes(page)).toHaveLength(5);
    expect(await isShown(page, '#prompt')).toBe(false);
    expect(messages.filter((m) => m.text.includes('[page-'))).toEqual([]);
  });

  it('reports missing prompt and post-prompt elements', async () => {
    const { messages } = await open({ ...CLIENT, promptUI: 'nope', postPromptUI: 'gone' });
    await expect.poll(() => diagnosticsOf(messages, 'consent-prompt-missing').length).toBe(1);
    expect(diagnosticsOf(messages, 'consent-post-prompt-missing')).toHaveLength(1);
  });

  it('reports geoOverride without a page-geo element and uses the base config', async () => {
    const { page, messages } = await open({ ...CLIENT, geoOverride: { eea: { consentRequired: false } } });
    await expect.poll(() => diagnosticsOf(messages, 'consent-geo-missing').length).toBe(1);
    await expect.poll(() => isShown(page, '#prompt')).toBe(true);
  });

  it('gives up waiting for page-geo after 5 s and uses the base config', async () => {
    const body = `<page-geo layout="nodisplay"><script type="application/json">{"ISOCountryGroups":{"eea":["de"]}}</script></page-geo>${PROBES}`;
    const { page, messages } = await open(
      { ...CLIENT, geoOverride: { eea: { consentRequired: false } } },
      { body },
      undefined,
      true,
    );
    await expect.poll(() => timerSetAt(page, 5_000).catch(() => null)).not.toBeNull();
    const waiting = await timerSetAt(page, 5_000);
    await pauseClock(page);
    await runUntil(page, waiting + 4_900);
    expect(await isShown(page, '#prompt')).toBe(false);
    expect(diagnosticsOf(messages, 'consent-geo-timeout')).toHaveLength(0);
    await runUntil(page, waiting + 5_000);
    await page.clock.resume();
    await expect.poll(() => isShown(page, '#prompt')).toBe(true);
    expect(diagnosticsOf(messages, 'consent-geo-timeout')).toHaveLength(1);
  });
});
