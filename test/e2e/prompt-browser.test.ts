/**
 * The hosted prompt in real Chromium against the real server (built frame scripts, the GVL
 * fixture, an IAB translation file), framed the way `<page-consent>` frames a promptUiSrc: the
 * protocol messages, both layers, the TC strings (decoded), re-opening on the stored choices,
 * languages, keyboard use and the focus trap.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { GppModel } from '@iabgpp/cmpapi';
import { TCString } from '@iabtechlabtcf/core';
import type { Browser, Frame, Page } from 'playwright-core';
import { hasChromium, launchBrowser } from '../browser.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultInstanceConfig } from '../../server/store/store.ts';
import { choicesOfTcString, encodeTcString } from '../../src/tcf/tc-string.ts';
import { parseGvl } from '../../src/wire/gvl.ts';
import { gppHeaderBomb, tcBomb } from '../consent-string-bombs.ts';
import { adminToken, buildApp, type Harness } from '../server/app-harness.ts';
import { writeTranslations } from './tcf-translations.ts';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const gvlPath = resolve('fixtures/tcf/vendor-list.json');
const gvl = parseGvl(JSON.parse(readFileSync(gvlPath, 'utf8'))).value!;
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
export const tcf = {
  cmpId: 300,
  cmpVersion: 2,
  vendors: [1, 2, 8, 25, 52],
  purposes: { ads: [1, 2, 3, 4], analytics: [1, 8, 9] },
  specialFeatures: [1],
  publisherCountryCode: 'DE',
};

function parentPage(windowName: string, src: string): string {
  return `<!doctype html><html lang="en"><head><title>Parent</title>
<style>body{margin:0}iframe{position:fixed;bottom:0;left:0;width:100%;height:60vh;border:0}</style></head><body>
<button id="outside">Outside</button>
<script>
window.messages = [];
addEventListener('message', (event) => { if (event.data && event.data.type) window.messages.push(event.data); });
const frame = document.createElement('iframe');
frame.name = ${JSON.stringify(windowName)};
frame.setAttribute('sandbox', 'allow-scripts allow-popups');
frame.title = 'Consent prompt';
frame.src = ${JSON.stringify(src)};
document.body.append(frame);
</script></body></html>`;
}

let browser: Browser;
let harness: Harness;
let origin: string;

beforeAll(async () => {
  if (!hasChromium) return;
  browser = await launchBrowser();
  // The IAB's files for the languages read below: the prompt speaks a language only with its file.
  const translations = writeTranslations(join(process.cwd(), 'dist', 'test-translations'), [
    'de',
    'el',
    'nb',
    'fi',
    'pl',
    'bg',
  ]);
  harness = await buildApp(
    { cdnRoot: resolve('dist/cdn'), tcfVendorList: gvlPath, tcfTranslationsDir: translations },
    true,
  );
  await harness.store.putInstance('site', { ...defaultInstanceConfig, prompt }, 1);
  await harness.store.putInstance('tcf-site', { ...defaultInstanceConfig, tcf }, 1);
  origin = await harness.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

type Opened = { page: Page; frame: Frame; logs: string[] };

type OpenOptions = {
  viewport?: { width: number; height: number };
  instance?: string;
  locale?: string;
  routes?: Record<string, string>;
  missing?: readonly string[];
};

/**
 * One page per reader language (the context's locale), kept for the whole file and navigated anew
 * by every `open`: the prompt runs in a sandboxed frame (an opaque origin: no storage or cookies
 * to carry from one test to the next; the server answers its page with `no-cache`), and each test
 * gets a new parent page and frame, its own viewport, routes and console lines. `done` leaves the
 * page for a blank one, so that nothing of a test runs on beside the next.
 */
const kept = new Map<string, { page: Page; logs: string[] }>();

/** The test is done with its page: it leaves for a blank one (the next `open` navigates it again). */
const done = (page: Page) => page.goto('about:blank').then(() => undefined);

export async function open(clientInfo: object | string, options: OpenOptions = {}): Promise<Opened> {
  const {
    viewport = { width: 390, height: 800 },
    instance = 'site',
    locale = 'en-GB',
    routes = {},
    missing = [],
  } = options;
  const name = typeof clientInfo === 'string' ? clientInfo : JSON.stringify(clientInfo);
  const file = `parent-${Math.random().toString(36).slice(2)}.html`;
  writeFileSync(
    join(harness.dir, 'examples', file),
    parentPage(name, `/cmp/prompt.html${instance ? `?instance=${instance}` : ''}`),
  );
  let held = kept.get(locale);
  if (!held) {
    const context = await browser.newContext({ viewport, locale });
    const created = { page: await context.newPage(), logs: [] as string[] };
    created.page.on('console', (message) => created.logs.push(message.text()));
    kept.set(locale, created);
    held = created;
  }
  const { page } = held;
  // What an earlier test left (it may have failed before `done`): its page, routes and console lines.
  if (page.url() !== 'about:blank') await done(page);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  const logs: string[] = [];
  held.logs = logs;
  await page.setViewportSize(viewport);
  // A file the frame fetches, replaced in the browser (the rest comes from the server).
  for (const [path, body] of Object.entries(routes))
    await page.route(`${origin}${path}`, (route) => route.fulfill({ body, contentType: 'application/json' }));
  // A file the server has, answered 404 in the browser (a partial deployment).
  for (const path of missing)
    await page.route(`${origin}${path}`, (route) =>
      route.fulfill({ status: 404, body: 'Not found', contentType: 'text/plain' }),
    );
  await page.goto(`${origin}/examples/${file}`);
  await page.waitForFunction(() => (window as unknown as { messages: unknown[] }).messages.length > 0);
  const frame = page.frames().find((f) => f.url().includes('/cmp/prompt.html'))!;
  return { page, frame, logs };
}

const messages = (page: Page) =>
  page.evaluate(() => (window as unknown as { messages: Record<string, unknown>[] }).messages);
const responseOf = async (page: Page) => {
  await page.waitForFunction(() =>
    (window as unknown as { messages: { type: string }[] }).messages.some((m) => m.type === 'consent-response'),
  );
  return (await messages(page)).find((m) => m['type'] === 'consent-response')!;
};
const switchOf = (frame: Frame, key: string) => frame.locator(`input[data-key="${key}"]`);

describe.skipIf(!hasChromium)('hosted prompt in Chromium: an instance with its own purposes', () => {
  it('posts ready with a 60vh bordered sheet before anything else', async () => {
    const { page } = await open({ consentStateValue: 'unknown', promptTrigger: 'load' });
    expect((await messages(page))[0]).toEqual({
      type: 'consent-ui',
      action: 'ready',
      initialHeight: '60vh',
      border: true,
    });
    await done(page);
  });

  it('shows the purposes and the three equal choices on the first layer', async () => {
    const { page, frame } = await open({});
    expect(await frame.locator('#summary li').allTextContents()).toEqual(['Audience measurement', 'Personalised ads']);
    const boxes = await frame.locator('.actions button:visible').evaluateAll((buttons) =>
      buttons.map((b) => {
        const r = b.getBoundingClientRect();
        const s = getComputedStyle(b);
        return [b.textContent, Math.round(r.width), Math.round(r.height), s.backgroundColor, s.color, s.fontWeight];
      }),
    );
    expect(boxes.map((b) => b[0])).toEqual(['Reject all', 'Customize', 'Accept all']);
    expect(new Set(boxes.map((b) => JSON.stringify(b.slice(1)))).size).toBe(1);
    await done(page);
  });

  it('saves per-purpose choices from the second layer, starting from the stored ones, and counts the outcome', async () => {
    const { page, frame } = await open({ consentStateValue: 'accepted', purposeConsents: { ads: true } });
    await frame.getByRole('button', { name: 'Customize' }).click();
    expect((await messages(page))[1]).toEqual({ type: 'consent-ui', action: 'enter-fullscreen' });
    const ads = frame.getByRole('switch', { name: 'Personalised ads Consent' });
    const analytics = frame.getByRole('switch', { name: 'Audience measurement Consent' });
    expect(await ads.isChecked()).toBe(true);
    expect(await analytics.isChecked()).toBe(false);
    await analytics.check();
    await ads.uncheck();
    await frame.getByRole('button', { name: 'Save choices' }).click();
    expect(await responseOf(page)).toEqual({
      type: 'consent-response',
      action: 'accept',
      purposeConsents: { analytics: true, ads: false },
    });
    await expect
      .poll(() => harness.store.promptOutcomes('site', '2000-01-01'))
      .toEqual([{ day: '2025-06-15', accept: 1, reject: 0, dismiss: 0 }]);
    await done(page);
  });

  it('rejects every purpose with Reject all, from the keyboard', async () => {
    const { page, frame } = await open({ consentStateValue: 'unknown' });
    await frame.getByRole('button', { name: 'Reject all' }).focus();
    await page.keyboard.press('Enter');
    expect(await responseOf(page)).toEqual({
      type: 'consent-response',
      action: 'reject',
      purposeConsents: { analytics: false, ads: false },
    });
    await done(page);
  });

  it('dismisses on Escape and sends no purposes', async () => {
    const { page, frame } = await open({});
    await frame.locator('main').focus();
    await page.keyboard.press('Escape');
    expect(await responseOf(page)).toEqual({ type: 'consent-response', action: 'dismiss' });
    await done(page);
  });

  it('offers the page purposes from the client info when the instance lists none', async () => {
    const clientInfo = {
      clientConfig: { consentInstanceId: 'bare', purposeConsentRequired: ['analytics', 'ads'] },
      purposeConsents: { ads: true, video: false },
    };
    const { page, frame } = await open(clientInfo, { instance: 'bare' });
    await frame.getByRole('button', { name: 'Customize' }).click();
    expect(await frame.getByRole('switch', { name: 'analytics Consent' }).isChecked()).toBe(false);
    expect(await frame.getByRole('switch', { name: 'ads Consent' }).isChecked()).toBe(true);
    expect(await frame.getByRole('switch', { name: 'video Consent' }).isChecked()).toBe(false);
    await frame.getByRole('button', { name: 'Accept all' }).click();
    expect(await responseOf(page)).toEqual({
      type: 'consent-response',
      action: 'accept',
      purposeConsents: { analytics: true, ads: true, video: true },
    });
    await done(page);
  });

  it('works without an instance parameter, counting the outcome for the client info instance', async () => {
    await harness.store.ensureInstance('from-page', defaultInstanceConfig, 1);
    const { page, frame } = await open({ clientConfig: { consentInstanceId: 'from-page' } }, { instance: '' });
    await frame.getByRole('button', { name: 'Reject all' }).click();
    expect(await responseOf(page)).toEqual({ type: 'consent-response', action: 'reject' });
    await expect
      .poll(() => harness.store.promptOutcomes('from-page', '2000-01-01'))
      .toEqual([{ day: '2025-06-15', accept: 0, reject: 1, dismiss: 0 }]);
    await done(page);
  });

  it('says "Opt-out request honored" above the choices when re-opened over a GPC rejection, and only then', async () => {
    const gpc = {
      consentStateValue: 'rejected',
      consentMetadata: { gpc: true },
      promptTrigger: 'action',
    };
    const honoured = await open(gpc);
    await expect.poll(() => honoured.frame.locator('#gpc-line').isVisible()).toBe(true);
    expect(await honoured.frame.locator('#gpc-line').textContent()).toBe('Opt-out request honored');
    await done(honoured.page);
    const chosen = await open({ ...gpc, consentMetadata: {} });
    // The first layer is painted in one go: once its summary is in, the line would be too.
    await chosen.frame.locator('#summary li').first().waitFor({ state: 'attached' });
    expect(await chosen.frame.locator('#gpc-line').isVisible()).toBe(false);
    await done(chosen.page);
  });

  it('survives a window.name that is not JSON', async () => {
    const { page, frame } = await open('{not json');
    await frame.getByRole('button', { name: 'Accept all' }).click();
    expect(await responseOf(page)).toMatchObject({ action: 'accept', purposeConsents: { analytics: true, ads: true } });
    await done(page);
  });

  it('keeps focus inside the prompt: Tab and Shift+Tab wrap around its controls', async () => {
    const { page, frame } = await open({});
    await frame.locator('main').focus();
    const seen: string[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      seen.push(
        await frame.evaluate(
          () => (document.hasFocus() ? document.activeElement?.id || document.activeElement?.tagName : 'outside') ?? '',
        ),
      );
    }
    expect(seen).not.toContain('outside');
    // The partner count, the privacy-policy link, the three choices, the close button, and round again.
    expect(seen.slice(0, 8)).toEqual(['partners', 'A', 'reject', 'customize', 'accept', 'dismiss', 'partners', 'A']);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await frame.evaluate(() => document.activeElement?.id)).toBe('dismiss');
    await done(page);
  });
});

describe.skipIf(!hasChromium)('hosted prompt in Chromium: an instance with tcf settings', () => {
  const decoded = async (page: Page) => {
    const response = await responseOf(page);
    const model = TCString.decode(String(response['info']));
    return {
      response,
      choices: choicesOfTcString(String(response['info'])),
      cmpId: model.cmpId,
      disclosed: [...model.vendorsDisclosed.values()].sort((a, b) => a - b),
      country: model.publisherCountryCode,
    };
  };

  it('paints the first layer from the embedded summary: stacks, leftover purposes, special feature, vendor count', async () => {
    const { page, frame } = await open({}, { instance: 'tcf-site' });
    const items = await frame.locator('#summary li').allTextContents();
    expect(items).toContain('Personalised advertising');
    expect(await frame.locator('#feature-summary li').allTextContents()).toEqual(['Use precise geolocation data']);
    expect(await frame.locator('#vendor-line').textContent()).toBe('View our partners (5)');
    await done(page);
  });

  it('Accept all gives a TC string with every purpose, the listed vendors, their legitimate interests and the special feature', async () => {
    const { page, frame } = await open({}, { instance: 'tcf-site' });
    await frame.getByRole('button', { name: 'Accept all' }).click();
    const { response, choices, cmpId, disclosed, country } = await decoded(page);
    expect(response).toMatchObject({
      action: 'accept',
      purposeConsents: { ads: true, analytics: true },
      consentMetadata: { consentStringType: 2, gdprApplies: true },
      tcfPolicyVersion: 5,
    });
    expect(choices).toEqual({
      purposeConsents: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
      // TCF 2.2: no legitimate interest for purposes 1 and 3-6 (the library drops them).
      purposeLegitimateInterests: [2, 7, 8, 9, 10, 11],
      vendorConsents: [1, 2, 8, 52],
      // Vendors 2 and 8 declare special purposes only: their legitimate interest stands on accept.
      vendorLegitimateInterests: [1, 2, 8, 25, 52],
      specialFeatureOptins: [1],
    });
    expect([cmpId, country, disclosed]).toEqual([300, 'DE', [1, 2, 8, 25, 52]]);
    await done(page);
  });

  it('Reject all gives a valid string with nothing consented and every legitimate interest objected to', async () => {
    const { page, frame } = await open({ consentMetadata: { gdprApplies: false } }, { instance: 'tcf-site' });
    await frame.getByRole('button', { name: 'Reject all' }).click();
    const { response, choices, disclosed } = await decoded(page);
    expect(response).toMatchObject({
      action: 'reject',
      purposeConsents: { ads: false, analytics: false },
      consentMetadata: { consentStringType: 2, gdprApplies: false },
    });
    expect(choices).toEqual({
      purposeConsents: [],
      purposeLegitimateInterests: [],
      vendorConsents: [],
      vendorLegitimateInterests: [],
      specialFeatureOptins: [],
    });
    expect(disclosed).toEqual([1, 2, 8, 25, 52]);
    await done(page);
  });

  it('Customize shows every vendor with its GVL details, and saves per-purpose, per-vendor, LI and special-feature choices', async () => {
    const { page, frame } = await open({}, { instance: 'tcf-site' });
    await frame.getByRole('button', { name: 'Customize' }).click();
    await frame.locator('#vendor-list li').first().waitFor();
    expect(await frame.locator('#vendor-list .name').allTextContents()).toEqual([
      'Example Exchange',
      'Sample Analytics',
      'Demo Bidder',
      'Placeholder Measurement',
      'Illustrative Personalisation',
    ]);
    const first = frame.locator('#vendor-list li').first();
    await first.locator('summary').click();
    const details = await first.locator('dl').textContent();
    for (const text of [
      'Create profiles for personalised advertising',
      'Retention365 days',
      'Stores cookies for up to 365 days',
      'Privacy policy',
    ])
      expect(details).toContain(text);
    // Each link once, shown as its address under its term; the legitimate-interest claim after the purposes it is claimed for.
    expect(details?.split('Privacy policy').length).toBe(2);
    const links = await first
      .locator('dl a')
      .evaluateAll((anchors) =>
        anchors.map((a) => [
          a.closest('dd')?.previousElementSibling?.textContent,
          a.getAttribute('href'),
          a.textContent,
        ]),
      );
    expect(links).toEqual([
      [
        'Legitimate interest',
        'https://vendor1.example/legitimate-interest',
        'https://vendor1.example/legitimate-interest',
      ],
      ['Privacy policy', 'https://vendor1.example/privacy', 'https://vendor1.example/privacy'],
    ]);
    expect(await first.locator('dt', { hasText: 'Legitimate interest' }).count()).toBe(1);
    for (const key of ['p:1', 'p:2', 'v:8', 'sf:1']) await switchOf(frame, key).check();
    expect(await switchOf(frame, 'pl:7').isChecked()).toBe(true);
    await switchOf(frame, 'pl:7').uncheck();
    await switchOf(frame, 'vl:52').uncheck();
    await frame.getByRole('button', { name: 'Save choices' }).click();
    const { response, choices } = await decoded(page);
    expect(response).toMatchObject({ action: 'accept', purposeConsents: { ads: false, analytics: false } });
    expect(choices).toEqual({
      purposeConsents: [1, 2],
      purposeLegitimateInterests: [2, 8, 9, 10],
      vendorConsents: [8],
      vendorLegitimateInterests: [1, 25],
      specialFeatureOptins: [1],
    });
    await done(page);
  });

  it('shows no consent switch for a vendor with legitimate-interest purposes only, and Accept all leaves no switch it could not set', async () => {
    const { page, frame } = await open({}, { instance: 'tcf-site' });
    await frame.getByRole('button', { name: 'Customize' }).click();
    const measurement = frame.locator('#vendor-list li', { hasText: 'Placeholder Measurement' });
    await measurement.waitFor();
    expect(
      await measurement
        .getByRole('switch')
        .evaluateAll((inputs) => inputs.map((i) => (i as HTMLElement).dataset['key'])),
    ).toEqual(['vl:25']);
    expect(await switchOf(frame, 'v:25').count()).toBe(0);
    expect(await switchOf(frame, 'v:1').count()).toBe(1);
    await frame.getByRole('button', { name: 'Accept all' }).click();
    const { choices } = await decoded(page);
    // Every vendor switch shown is one Accept all sets: consent for vendors 1, 2, 8, 52; legitimate interest for 25.
    expect(choices?.vendorConsents).toEqual([1, 2, 8, 52]);
    expect(choices?.vendorLegitimateInterests).toContain(25);
    await done(page);
  });

  it('searches the vendors by name, in a search field with a visible label', async () => {
    const { page, frame } = await open({}, { instance: 'tcf-site' });
    await frame.getByRole('button', { name: 'Customize' }).click();
    const label = frame.locator('label[for="vendor-search"]');
    expect(await label.textContent()).toBe('Search partners');
    expect(await label.isVisible()).toBe(true);
    await frame.getByRole('searchbox', { name: 'Search partners' }).fill('measure');
    await expect.poll(() => frame.locator('#vendor-list .name').allTextContents()).toEqual(['Placeholder Measurement']);
    await frame.getByRole('searchbox').fill('nothing like it');
    await expect.poll(() => frame.locator('.vendors .status').textContent()).toBe('No partner matches.');
    await done(page);
  });

  it('re-opened by prompt, opens on the second layer with the choices of the stored string', async () => {
    const stored = encodeTcString(
      gvl,
      { ...tcf },
      {
        purposeConsents: [1, 3],
        purposeLegitimateInterests: [10],
        vendorConsents: [2],
        vendorLegitimateInterests: [],
        specialFeatureOptins: [1],
      },
    );
    const { page, frame } = await open({ promptTrigger: 'action', consentString: stored }, { instance: 'tcf-site' });
    expect((await messages(page))[0]).toMatchObject({ action: 'ready', initialHeight: '80vh' });
    await frame.locator('#vendor-list li').first().waitFor();
    expect(await frame.locator('#layer1').isHidden()).toBe(true);
    const on = await frame
      .locator('input[role=switch]')
      .evaluateAll((inputs) =>
        inputs.filter((i) => (i as HTMLInputElement).checked).map((i) => (i as HTMLElement).dataset['key']),
      );
    expect(on.sort()).toEqual(['p:1', 'p:3', 'pl:10', 'sf:1', 'v:2'].sort());
    await frame.getByRole('button', { name: 'Save choices' }).click();
    expect((await decoded(page)).choices).toEqual({
      purposeConsents: [1, 3],
      purposeLegitimateInterests: [10],
      vendorConsents: [2],
      vendorLegitimateInterests: [],
      specialFeatureOptins: [1],
    });
    await done(page);
  });

  it('with GPP exposed: answers a GPP string holding the TC string (type 4, section 2), and re-opens on the choices inside a stored one', async () => {
    const tcString = encodeTcString(
      gvl,
      { ...tcf },
      {
        purposeConsents: [2, 4],
        purposeLegitimateInterests: [7],
        vendorConsents: [52],
        vendorLegitimateInterests: [],
        specialFeatureOptins: [],
      },
    );
    const model = new GppModel();
    model.decodeSection('tcfeuv2', tcString);
    const stored = model.encode();
    const clientInfo = {
      clientConfig: { exposesGppApi: true },
      promptTrigger: 'action',
      consentString: stored,
      consentMetadata: { consentStringType: 4, gdprApplies: true },
    };
    const { page, frame } = await open(clientInfo, { instance: 'tcf-site' });
    await frame.locator('#vendor-list li').first().waitFor();
    const on = await frame
      .locator('input[role=switch]')
      .evaluateAll((inputs) =>
        inputs.filter((i) => (i as HTMLInputElement).checked).map((i) => (i as HTMLElement).dataset['key']),
      );
    expect(on.sort()).toEqual(['p:2', 'p:4', 'pl:7', 'v:52']);
    await switchOf(frame, 'v:1').check();
    await frame.getByRole('button', { name: 'Save choices' }).click();
    const response = await responseOf(page);
    expect(response).toMatchObject({
      action: 'accept',
      consentMetadata: { consentStringType: 4, gppSectionId: '2', gdprApplies: true },
    });
    const section = new GppModel(String(response['info'])).encodeSection('tcfeuv2');
    expect(choicesOfTcString(section)).toMatchObject({ purposeConsents: [2, 4], vendorConsents: [1, 52] });
    await done(page);
  });

  it("speaks German from Accept-Language, with the IAB's German texts throughout", async () => {
    const { page, frame } = await open({}, { instance: 'tcf-site', locale: 'de-DE' });
    expect(await frame.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      'de',
      'ltr',
    ]);
    expect(await frame.locator('.actions button:visible').allTextContents()).toEqual([
      'Alle ablehnen',
      'Anpassen',
      'Alle akzeptieren',
    ]);
    expect(await frame.locator('#feature-summary li').allTextContents()).toEqual(['Genaue Standortdaten verwenden']);
    await frame.getByRole('button', { name: 'Anpassen' }).click();
    await frame.locator('#vendor-list li').first().waitFor();
    const names = await frame.locator('#layer2 section').first().locator('.name').allTextContents();
    expect(names[0]).toBe('Informationen auf einem Gerät speichern und/oder abrufen');
    expect(names[1]).toBe('Begrenzte Daten zur Auswahl von Werbung verwenden');
    await done(page);
  });

  it.each([
    ['de-DE', 'Alle akzeptieren', 'DE'],
    ['el-GR', 'Αποδοχή όλων', 'EL'],
    ['nb-NO', 'Godta alle', 'NO'],
    ['en-GB', 'Accept all', 'EN'],
  ])(
    "writes the language the prompt shows (%s) as the string's consentLanguage",
    async (locale, acceptAll, consentLanguage) => {
      const { page, frame } = await open({}, { instance: 'tcf-site', locale });
      await frame.getByRole('button', { name: acceptAll }).click();
      expect(TCString.decode(String((await responseOf(page))['info'])).consentLanguage).toBe(consentLanguage);
      await done(page);
    },
  );

  it('follows clientConfig.lang over Accept-Language (Greek)', async () => {
    const { page, frame } = await open({ clientConfig: { lang: 'el-GR' } }, { instance: 'tcf-site', locale: 'de-DE' });
    await expect
      .poll(() =>
        page
          .frames()
          .find((f) => f.url().includes('lang=el'))
          ?.locator('#accept')
          .textContent(),
      )
      .toBe('Αποδοχή όλων');
    expect(frame).toBeDefined();
    await done(page);
  });
});

describe.skipIf(!hasChromium)('hosted prompt in Chromium: accessibility in several languages', () => {
  const axe = async (frame: Frame) => {
    await frame.evaluate(axeSource);
    return frame.evaluate(async () => {
      const result = await (
        window as unknown as {
          axe: { run: (c: Document) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };
        }
      ).axe.run(document);
      return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
  };
  const overflow = (frame: Frame) =>
    frame.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  // One page per language, checked at 320 px and again after a resize to 1024 px: the prompt's
  // layout is its style sheet's media queries, which answer a resize as they answer a first width.
  it.each([
    ['en-GB', 'Accept all'],
    ['de-DE', 'Alle akzeptieren'],
    ['fi-FI', 'Hyväksy kaikki'],
    ['el-GR', 'Αποδοχή όλων'],
    ['pl-PL', 'Zaakceptuj wszystko'],
    ['bg-BG', 'Приемане на всички'],
  ])(
    '%s (%s): both layers have no axe violations and no horizontal scroll at 320 and 1024 px',
    async (locale, acceptAll) => {
      const widths = [320, 1024];
      const { page, frame } = await open({}, { instance: 'tcf-site', locale, viewport: { width: 320, height: 700 } });
      const check = async (width: number, layer: string) => {
        await page.setViewportSize({ width, height: 700 });
        await expect.poll(() => frame.evaluate(() => document.documentElement.clientWidth)).toBeLessThanOrEqual(width);
        expect(await axe(frame), `${layer} at ${width} px`).toEqual([]);
        expect(await overflow(frame), `${layer} at ${width} px`).toBeLessThanOrEqual(0);
      };
      expect(await frame.locator('#accept').textContent()).toBe(acceptAll);
      for (const width of widths) await check(width, 'first layer');
      await frame.locator('#customize').click();
      await frame.locator('#vendor-list li').first().waitFor();
      await frame.locator('#vendor-list summary').first().click();
      for (const width of [...widths].reverse()) {
        await check(width, 'second layer');
        const smallest = await frame
          .locator('.actions button:visible')
          .evaluateAll((buttons) => Math.min(...buttons.map((b) => b.getBoundingClientRect().height)));
        expect(smallest, `buttons at ${width} px`).toBeGreaterThanOrEqual(44);
      }
      await done(page);
    },
    120_000,
  );

  it('draws the whole focus ring of every control of the second layer: none is cut by a section or row that skips its paint off screen', async () => {
    const { page, frame } = await open({}, { instance: 'tcf-site', viewport: { width: 320, height: 700 } });
    await frame.locator('#customize').click();
    await frame.locator('#vendor-list li').first().waitFor();
    // A box with content-visibility clips what its children paint outside its padding box, the
    // focus ring included (3 px outline, 2 px offset: docs/decisions/server-hosted-cmp.md).
    const cut = await frame.evaluate(async () => {
      const RING = 5;
      const frameDone = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const controls = [
        ...document.querySelectorAll<HTMLElement>('#layer2 input, #layer2 button, #layer2 summary, #layer2 a'),
      ];
      const clips: string[] = [];
      for (const control of controls) {
        // Measured on screen: off screen, a skipped box has only its placeholder size.
        control.scrollIntoView({ block: 'center' });
        await frameDone();
        const box = control.getBoundingClientRect();
        if (!box.width) continue;
        for (let at = control.parentElement; at; at = at.parentElement) {
          if (getComputedStyle(at).contentVisibility !== 'auto') continue;
          const clip = at.getBoundingClientRect();
          const inside =
            box.left - RING >= clip.left &&
            box.right + RING <= clip.right &&
            box.top - RING >= clip.top &&
            box.bottom + RING <= clip.bottom;
          if (!inside)
            clips.push(
              `${control.localName}${control.dataset.key ? `[${control.dataset.key}]` : ''} in ${at.localName}.${at.className}`,
            );
        }
      }
      return clips;
    });
    expect(cut).toEqual([]);
    await done(page);
  }, 120_000);
});

describe.skipIf(!hasChromium)('admin vendor picker in Chromium', () => {
  it('searches the GVL, shows what each vendor adds, and stores a selection that the prompt then shows', async () => {
    await harness.store.putInstance(
      'picked',
      { ...defaultInstanceConfig, tcf: { cmpId: 300, cmpVersion: 1, vendors: [2] } },
      1,
    );
    const admin = await browser.newPage({ viewport: { width: 1024, height: 900 } });
    admin.setDefaultTimeout(8000);
    await admin.goto(`${origin}/admin/`);
    await admin.getByLabel('Admin token').fill(adminToken);
    await admin.getByRole('button', { name: 'Connect' }).click();
    await admin.locator('#instance').selectOption('picked');
    await expect
      .poll(() => admin.locator('#tcf-selection').textContent())
      .toMatch(/^1 vendors selected; TCF purposes they declare: Store and\/or access information on a device; /);
    expect(await admin.locator('#gvl-status').textContent()).toBe('Vendor list version 142, 6 vendors.');
    await admin.getByLabel('Search the vendor list').fill('bidder');
    const bidder = admin.locator('#vendor-options li');
    await expect.poll(() => bidder.count()).toBe(1);
    expect(await bidder.locator('.adds').textContent()).toBe(
      '(adds: Use limited data to select advertising; Create profiles for personalised advertising; Use profiles to select personalised advertising; Measure advertising performance)',
    );
    await bidder.getByRole('checkbox', { name: 'Demo Bidder (8)' }).check();
    await admin.getByLabel('Publisher country').fill('FR');
    await admin.getByRole('button', { name: 'Save TCF settings' }).click();
    await expect
      .poll(async () => (await harness.store.getInstance('picked'))?.config.tcf)
      .toEqual({ cmpId: 300, cmpVersion: 1, vendors: [2, 8], publisherCountryCode: 'FR' });
    await admin.close();

    const { page, frame } = await open({}, { instance: 'picked' });
    expect(await frame.locator('#vendor-line').textContent()).toBe('View our partners (2)');
    await frame.locator('#customize').click();
    await expect
      .poll(() => frame.locator('#vendor-list .name').allTextContents())
      .toEqual(['Sample Analytics', 'Demo Bidder']);
    await done(page);
  }, 90_000);
});

describe.skipIf(!hasChromium)('hosted prompt in Chromium: what the frame reads from outside', () => {
  const warnings = (logs: string[]) => logs.filter((line) => line.startsWith('[page-consent-prompt]'));

  it('reports a client info that is not JSON, and one with a mistyped field, and goes on without them', async () => {
    const bad = await open('{not json');
    await expect
      .poll(() => warnings(bad.logs))
      .toEqual([
        '[page-consent-prompt] consent-prompt-client-info: expected clientInfo: a JSON object, got "{not json"',
      ]);
    await done(bad.page);
    const mistyped = await open({ clientConfig: { lang: 5 }, purposeConsents: { ads: true } });
    await expect
      .poll(() => warnings(mistyped.logs))
      .toEqual([
        '[page-consent-prompt] consent-prompt-client-info: expected clientInfo.clientConfig.lang: a string of 2-35 characters, got 5',
      ]);
    await mistyped.frame.getByRole('button', { name: 'Customize' }).click();
    expect(await mistyped.frame.getByRole('switch', { name: 'Personalised ads Consent' }).isChecked()).toBe(true);
    await done(mistyped.page);
  });

  it('reports a translation entry it leaves out (English for it), and a translation file that is not JSON', async () => {
    const mistyped = JSON.stringify({ purposes: { 1: { id: 1, name: 7 }, 2: { id: 2, name: 'Begrenzte Daten' } } });
    const { page, frame, logs } = await open(
      {},
      { instance: 'tcf-site', locale: 'de-DE', routes: { '/tcf/purposes-de.json': mistyped } },
    );
    await frame.getByRole('button', { name: 'Anpassen' }).click();
    await frame.locator('#vendor-list li').first().waitFor();
    expect(warnings(logs)).toEqual([
      '[page-consent-prompt] consent-prompt-translation-invalid: expected translation.purposes.1.name: a string of 1-10000 characters, got 7',
    ]);
    const names = await frame.locator('#layer2 section').first().locator('.name').allTextContents();
    expect(names.slice(0, 2)).toEqual(['Store and/or access information on a device', 'Begrenzte Daten']);
    await done(page);
    const broken = await open(
      {},
      { instance: 'tcf-site', locale: 'de-DE', routes: { '/tcf/purposes-de.json': '{"purposes":' } },
    );
    await expect.poll(() => warnings(broken.logs)).toHaveLength(1);
    expect(warnings(broken.logs)[0]).toMatch(
      /^\[page-consent-prompt\] consent-prompt-translation-invalid: expected the IAB translation file as JSON, got "SyntaxError/,
    );
    await done(broken.page);
  });

  it('reports a GPP script that does not load, and answers with the TC string (type 2) instead', async () => {
    const clientInfo = { clientConfig: { exposesGppApi: true }, consentMetadata: { gdprApplies: true } };
    const { page, frame, logs } = await open(clientInfo, { instance: 'tcf-site', missing: ['/cmp/gpp-0.1.js'] });
    await frame.getByRole('button', { name: 'Accept all' }).click();
    const response = await responseOf(page);
    expect(response).toMatchObject({ action: 'accept', consentMetadata: { consentStringType: 2, gdprApplies: true } });
    expect(response['consentMetadata']).not.toHaveProperty('gppSectionId');
    expect(choicesOfTcString(String(response['info']))).toMatchObject({
      purposeConsents: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
      vendorConsents: [1, 2, 8, 52],
    });
    expect(warnings(logs)).toEqual([
      '[page-consent-prompt] consent-prompt-gpp-load-failed: expected the GPP script, got "Error: /cmp/gpp-0.1.js: did not load"',
    ]);
    await done(page);
  });

  it('refuses a stored TC string of ranges over huge id spans before decoding it, and opens without its choices', async () => {
    const { page, frame, logs } = await open(
      { promptTrigger: 'action', consentString: tcBomb() },
      { instance: 'tcf-site' },
    );
    await frame.locator('#vendor-list li').first().waitFor();
    expect(warnings(logs)).toEqual([
      expect.stringMatching(
        /^\[page-consent-prompt\] consent-string-refused: expected a TC string of .*, got "vendor id 65535"$/,
      ),
    ]);
    const on = await frame
      .locator('input[role=switch]')
      .evaluateAll((inputs) =>
        inputs.filter((i) => (i as HTMLInputElement).checked).map((i) => (i as HTMLElement).dataset['key']),
      );
    expect(on.filter((key) => key?.startsWith('v:'))).toEqual([]);
    await done(page);
  });

  it('with GPP exposed: refuses a stored GPP string whose header ranges span huge section ids, before decoding it', async () => {
    const clientInfo = {
      clientConfig: { exposesGppApi: true },
      promptTrigger: 'action',
      consentString: gppHeaderBomb(),
      consentMetadata: { consentStringType: 4, gdprApplies: true },
    };
    const { page, frame, logs } = await open(clientInfo, { instance: 'tcf-site' });
    await frame.locator('#vendor-list li').first().waitFor();
    await expect
      .poll(() => warnings(logs))
      .toEqual([expect.stringContaining('consent-string-refused: expected a GPP string of')]);
    expect(warnings(logs)[0]).toContain('got "more section ids than 1 sections"');
    await done(page);
  });

  it('stops reading a vendor list past its byte cap and goes on without it', async () => {
    const huge = `{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}`;
    const { page, frame, logs } = await open({}, { instance: 'tcf-site', routes: { '/tcf/vendor-list.json': huge } });
    await expect
      .poll(() => warnings(logs))
      .toEqual([
        expect.stringMatching(
          /^\[page-consent-prompt\] remote-answer-too-large: expected at most 4194304 bytes, got "more from .*\/tcf\/vendor-list\.json"$/,
        ),
      ]);
    expect(await frame.getByRole('button', { name: 'Accept all' }).isVisible()).toBe(true);
    await done(page);
  });

  it('reports a vendor list field it leaves out, and still shows the vendors', async () => {
    const json = JSON.parse(readFileSync(gvlPath, 'utf8'));
    json.vendors['52'].usesCookies = 'yes';
    const { page, frame, logs } = await open(
      {},
      { instance: 'tcf-site', routes: { '/tcf/vendor-list.json': JSON.stringify(json) } },
    );
    await frame.getByRole('button', { name: 'Customize' }).click();
    await frame.locator('#vendor-list li').first().waitFor();
    expect(warnings(logs)).toEqual([
      '[page-consent-prompt] consent-prompt-vendor-list-invalid: expected vendors.52.usesCookies: true or false, got "yes"',
    ]);
    await done(page);
  });
});
