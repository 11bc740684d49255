/**
 * The hosted prompt's first layer against the TCF policy's Appendix B, in real Chromium at 320
 * and 1024 px, in English and German: the partner count is a control that opens the vendor
 * list; the legitimate-interest sentence with a control to the place to object; the scope (this
 * site, or the group of sites); how to change choices later; the special features under their
 * own heading; at 320 px the title, the summary sentence, the partner count and the first
 * purpose above the buttons without scrolling. Then one language per prompt: a German reader
 * gets an all-German prompt where the server has the IAB's German file, and an all-English one
 * with `lang="en"` where it has not (docs/decisions/hosted-prompt-appendix-b.md,
 * docs/decisions/hosted-prompt-one-language.md).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultInstanceConfig } from '../../server/store/store.ts';
import { hasChromium, launchBrowser } from '../browser.ts';
import { buildApp, type Harness } from '../server/app-harness.ts';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const gvlPath = resolve('fixtures/tcf/vendor-list.json');
const translationsDir = resolve('fixtures/tcf/translations');
const catalogue = (language: string): Record<string, string> =>
  JSON.parse(readFileSync(resolve(`src/messages/catalogues/${language}.json`), 'utf8'));
const tcf = { cmpId: 300, cmpVersion: 2, vendors: [1, 2, 8, 25, 52], specialFeatures: [1] };
const siteGroup = { name: 'Daily News Group', url: 'https://news.example/our-sites' };

let browser: Browser;
/** A server with the IAB's German file, and one without any translation. */
let withGerman: Harness;
let englishOnly: Harness;
const origins = new Map<Harness, string>();

async function serve(tcfTranslationsDir?: string): Promise<Harness> {
  const harness = await buildApp(
    { cdnRoot: resolve('dist/cdn'), tcfVendorList: gvlPath, ...(tcfTranslationsDir ? { tcfTranslationsDir } : {}) },
    true,
  );
  await harness.store.putInstance('tcf-site', { ...defaultInstanceConfig, tcf }, 1);
  await harness.store.putInstance('group-site', { ...defaultInstanceConfig, tcf: { ...tcf, siteGroup } }, 1);
  origins.set(harness, await harness.app.listen({ port: 0, host: '127.0.0.1' }));
  return harness;
}

beforeAll(async () => {
  if (!hasChromium) return;
  browser = await launchBrowser();
  withGerman = await serve(translationsDir);
  englishOnly = await serve();
});
afterAll(async () => {
  await browser?.close();
  await withGerman?.close();
  await englishOnly?.close();
});

type Options = { harness?: Harness; instance?: string; locale: string; width: number; clientInfo?: object };

/** The prompt framed like `<page-consent>` frames it: full width, 60vh high, at the bottom. */
async function open({ harness = withGerman, instance = 'tcf-site', locale, width, clientInfo = {} }: Options): Promise<{
  page: Page;
  frame: Frame;
}> {
  const context = await browser.newContext({ viewport: { width, height: width < 400 ? 568 : 768 }, locale });
  const page = await context.newPage();
  const src = `${origins.get(harness)}/cmp/prompt.html?instance=${instance}`;
  await page.route(`${origins.get(harness)}/parent.html`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><title>Parent</title><style>body{margin:0}iframe{position:fixed;bottom:0;left:0;width:100%;height:60vh;border:0}</style>
<iframe title="Consent prompt" name='${JSON.stringify(clientInfo)}' sandbox="allow-scripts allow-popups" src="${src}"></iframe>`,
    }),
  );
  await page.goto(`${origins.get(harness)}/parent.html`);
  const frame = page.frames().find((f) => f.url().includes('/cmp/prompt.html'))!;
  await frame.locator('#accept:not(:empty)').waitFor();
  return { page, frame };
}

/** Whether each of `selectors` lies within the frame's viewport and above the buttons, the frame not scrolled. */
const aboveTheButtons = (frame: Frame, selectors: readonly string[]) =>
  frame.evaluate((list) => {
    const buttons = document.querySelector('.actions')!.getBoundingClientRect().top;
    return {
      scrolled: document.scrollingElement!.scrollTop,
      hidden: list.filter((selector) => {
        const box = document.querySelector(selector)!.getBoundingClientRect();
        return !(box.height > 0 && box.top >= 0 && box.bottom <= buttons);
      }),
    };
  }, selectors);

const axe = async (frame: Frame) => {
  await frame.evaluate(axeSource);
  return frame.evaluate(async () => {
    type Result = { violations: { id: string; nodes: { target: string[] }[] }[] };
    const result = await (window as unknown as { axe: { run: (c: Document) => Promise<Result> } }).axe.run(document);
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
};

describe.skipIf(!hasChromium)('hosted prompt first layer (Appendix B) in Chromium', () => {
  it.each([
    ['en-GB', 'en', 320],
    ['en-GB', 'en', 1024],
    ['de-DE', 'de', 320],
    ['de-DE', 'de', 1024],
  ])('%s (%s) at %i px: every Appendix B item of the first layer', async (locale, language, width) => {
    const texts = catalogue(language);
    const { page, frame } = await open({ locale, width });
    expect(await frame.evaluate(() => document.documentElement.lang)).toBe(language);
    // The title, the summary sentence, the partner count and the first purpose, above the buttons, unscrolled.
    expect(await aboveTheButtons(frame, ['#title', '#message', '#partners', '#summary li'])).toEqual({
      scrolled: 0,
      hidden: [],
    });
    // The partner count is a button (not plain text) naming the number of vendors.
    const partners = frame.getByRole('button', { name: texts['partnersLink']!.replace('{n}', '5') });
    expect(await partners.isVisible()).toBe(true);
    // The special features under their own heading, apart from the purposes.
    expect(await frame.getByRole('heading', { name: texts['purposes']!, exact: true }).isVisible()).toBe(true);
    const features = frame.getByRole('list', { name: texts['specialFeatures']!, exact: true });
    expect(await features.getByRole('listitem').allTextContents()).toEqual([
      language === 'de' ? 'Genaue Standortdaten verwenden' : 'Use precise geolocation data',
    ]);
    expect(await frame.locator('#summary').textContent()).not.toContain(
      language === 'de' ? 'Standortdaten' : 'geolocation',
    );
    // Legitimate interest and the right to object, with the way there; the scope; how to change later.
    expect(await frame.locator('#li-text').textContent()).toBe(texts['liSummary']);
    expect(await frame.locator('#scope-line').textContent()).toBe(texts['scopeSite']);
    expect(await frame.locator('#later-line').textContent()).toBe(
      texts['changeLater']!.replace('{n}', texts['settingsLink']!),
    );
    expect(await axe(frame)).toEqual([]);
    expect(await frame.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
    // The partner count opens the vendor list, focused.
    await partners.click();
    await expect.poll(() => frame.evaluate(() => document.activeElement?.id)).toBe('vendors-title');
    expect(await frame.locator('#vendors-title').textContent()).toBe(texts['vendors']);
    expect(await frame.locator('#vendor-list li').count()).toBeGreaterThan(0);
    await page.context().close();
  });

  it.each([
    ['en-GB', 'en', 320],
    ['de-DE', 'de', 1024],
  ])(
    '%s (%s) at %i px: the objection control opens the legitimate-interest switches',
    async (locale, language, width) => {
      const texts = catalogue(language);
      const { page, frame } = await open({ locale, width });
      await frame.getByRole('button', { name: texts['liObject']!, exact: true }).click();
      const focused = frame.locator(':focus');
      await expect.poll(() => focused.textContent()).toBe(texts['purposes']);
      const section = frame.locator('section', { has: frame.locator(':focus') });
      expect(await section.locator('input[data-key^="pl:"]').count()).toBeGreaterThan(0);
      expect(await section.getByText(texts['liNote']!).isVisible()).toBe(true);
      expect(await focused.evaluate((heading) => heading.getBoundingClientRect().top >= 0)).toBe(true);
      await page.context().close();
    },
  );

  it('names the group of sites the choices apply to, linked to its list of sites', async () => {
    const { page, frame } = await open({ instance: 'group-site', locale: 'de-DE', width: 320 });
    expect(await frame.locator('#scope-line').textContent()).toBe(
      catalogue('de')['scopeGroup']!.replace('{n}', siteGroup.name),
    );
    expect(await frame.getByRole('link', { name: siteGroup.name }).getAttribute('href')).toBe(siteGroup.url);
    await page.context().close();
  });
});

describe.skipIf(!hasChromium)('hosted prompt in Chromium: one language per prompt', () => {
  const gvl = JSON.parse(readFileSync(gvlPath, 'utf8'));
  const german = JSON.parse(readFileSync(resolve(translationsDir, 'purposes-de.json'), 'utf8'));
  type Sections = Record<string, Record<string, { name: string; description?: string }>>;
  const entryTexts = (sections: Sections) =>
    Object.values(sections).flatMap((entries) =>
      Object.values(entries).flatMap((entry) => [entry.name, entry.description ?? '']),
    );
  const catalogueTexts = (language: string) =>
    Object.entries(catalogue(language)).flatMap(([key, text]) => (key === 'dir' ? [] : text.split('{n}')));
  const { purposes, specialPurposes, features, specialFeatures, stacks, dataCategories } = gvl;
  const known = {
    en: new Set([
      ...catalogueTexts('en'),
      ...entryTexts({ purposes, specialPurposes, features, specialFeatures, stacks, dataCategories }),
    ]),
    de: new Set([...catalogueTexts('de'), ...entryTexts(german)]),
  };
  /** The texts of one language only (a text both share, such as "Details", says nothing). */
  const onlyIn = (language: 'en' | 'de') => {
    const other = known[language === 'en' ? 'de' : 'en'];
    return new Set(
      [...known[language]].map((text) => text.trim()).filter((text) => text.length > 2 && !other.has(text)),
    );
  };

  /** Every text the reader can see: the first layer, then the second with a vendor's details open. */
  async function shownTexts(frame: Frame): Promise<string[]> {
    const visibleTexts = () =>
      frame.evaluate(() => {
        const texts: string[] = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent?.trim() ?? '';
          if (text && node.parentElement?.checkVisibility()) texts.push(text);
        }
        return texts;
      });
    const first = await visibleTexts();
    await frame.locator('#customize').click();
    await frame.locator('#vendor-list summary').first().click();
    await frame.locator('#vendor-list dl').first().waitFor();
    // Sections off screen skip their paint (content-visibility): scroll through so each counts as shown.
    await frame.evaluate(() => {
      for (const section of document.querySelectorAll('#layer2 section')) section.scrollIntoView();
    });
    return [...first, ...(await visibleTexts())];
  }

  it('a German reader gets an all-German prompt (lang="de") where the server has the IAB German file', async () => {
    const { page, frame } = await open({ locale: 'de-DE', width: 1024 });
    expect(await frame.evaluate(() => document.documentElement.lang)).toBe('de');
    const texts = await shownTexts(frame);
    const english = onlyIn('en');
    expect(texts.filter((text) => english.has(text))).toEqual([]);
    const germanTexts = onlyIn('de');
    expect(texts.filter((text) => germanTexts.has(text)).length).toBeGreaterThan(20);
    await page.context().close();
  });

  it('a German reader gets an all-English prompt (lang="en") where the server has no German file', async () => {
    const { page, frame } = await open({ harness: englishOnly, locale: 'de-DE', width: 1024 });
    expect(await frame.evaluate(() => document.documentElement.lang)).toBe('en');
    const texts = await shownTexts(frame);
    const germanTexts = onlyIn('de');
    expect(texts.filter((text) => germanTexts.has(text))).toEqual([]);
    const english = onlyIn('en');
    expect(texts.filter((text) => english.has(text)).length).toBeGreaterThan(20);
    await page.context().close();
  });

  it("does not reload for a page's clientConfig.lang that the server already answered in English", async () => {
    const clientInfo = { clientConfig: { lang: 'de-DE' } };
    const { page, frame } = await open({ harness: englishOnly, locale: 'de-DE', width: 1024, clientInfo });
    // Painted, so this document started the prompt; a reload would have asked for ?lang=de.
    expect(frame.url()).not.toContain('lang=');
    expect(await frame.evaluate(() => document.documentElement.lang)).toBe('en');
    await page.context().close();
  });
});
