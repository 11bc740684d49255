/**
 * The hosted prompt's server side for TCF: the instance `tcf` settings checked against the
 * GVL by the admin API, the first layer's summary embedded in the page, the IAB translations at
 * `/tcf/purposes-<lang>.json`, and the first layer's byte budget.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { bearer, buildApp, json, writeFiles } from './app-harness.ts';

const tcfVendorList = resolve('fixtures/tcf/vendor-list.json');
const tcf = {
  cmpId: 300,
  cmpVersion: 2,
  vendors: [1, 8, 52],
  purposes: { ads: [1, 2, 3, 4] },
  specialFeatures: [1],
  publisherCountryCode: 'de',
};
const put = (app: Awaited<ReturnType<typeof buildApp>>['app'], body: object) =>
  app.inject({ method: 'PUT', url: '/admin/api/instances/news', headers: { ...bearer, ...json }, payload: body });
const embedded = (html: string) =>
  JSON.parse(/<script type="application\/json" id="prompt-config">([^<]*)<\/script>/.exec(html)![1]!);

describe('instance tcf settings', () => {
  it('stores settings whose ids the GVL has (country upper-cased), and the prompt embeds the first layer summary', async () => {
    const { app } = await buildApp({ tcfVendorList });
    const response = await put(app, { tcf });
    expect(response.statusCode).toBe(200);
    expect(response.json().config.tcf).toEqual({ ...tcf, publisherCountryCode: 'DE' });
    const config = embedded((await app.inject({ url: '/cmp/prompt.html?instance=news' })).body);
    expect(config.tcf).toMatchObject({
      settings: { cmpId: 300, cmpVersion: 2, vendors: [1, 8, 52], consentLanguage: 'EN', publisherCountryCode: 'DE' },
      purposeMapping: { ads: [1, 2, 3, 4] },
      vendorListUrl: '/tcf/vendor-list.json',
      translationsUrl: null,
      vendorCount: 3,
    });
    const names = (items: { name: string }[]) => items.map((item) => item.name);
    // Stack 3 covers purposes 2-4; purposes 1, 5-7, 10 and 11 are left; special feature 1 apart.
    expect(names(config.tcf.summary.purposes)).toEqual([
      'Personalised advertising',
      'Store and/or access information on a device',
      'Create profiles to personalise content',
      'Use profiles to select personalised content',
      'Measure advertising performance',
      'Develop and improve services',
      'Use limited data to select content',
    ]);
    expect(names(config.tcf.summary.specialFeatures)).toEqual(['Use precise geolocation data']);
    expect(config.tcf.hasLegitimateInterest).toBe(true);
    expect(config.siteGroup).toBeNull();
  });

  it('stores a group of sites as the scope of the choices, embedded for the first layer; refuses one without its list', async () => {
    const { app } = await buildApp({ tcfVendorList });
    const siteGroup = { name: 'Daily News Group', url: 'https://news.example/our-sites' };
    expect((await put(app, { tcf: { ...tcf, siteGroup } })).statusCode).toBe(200);
    const config = embedded((await app.inject({ url: '/cmp/prompt.html?instance=news' })).body);
    expect(config.siteGroup).toEqual(siteGroup);
    expect(config.tcf.settings).not.toHaveProperty('siteGroup');
    const refused = await put(app, { tcf: { ...tcf, siteGroup: { name: 'Daily News Group' } } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe('tcf.siteGroup.url: expected a string, got nothing');
  });

  it.each([
    [{ ...tcf, vendors: [1, 9999] }, 'tcf.vendors[1]: expected a vendor id of the vendor list (version 142), got 9999'],
    [
      { ...tcf, purposes: { ads: [1, 12] } },
      'tcf.purposes.ads[1]: expected a purpose id of the vendor list (version 142), got 12',
    ],
    [
      { ...tcf, specialFeatures: [3] },
      'tcf.specialFeatures[0]: expected a special feature id of the vendor list (version 142), got 3',
    ],
    [{ ...tcf, vendors: [1, 1] }, 'tcf.vendors[1]: expected each vendor once, got 1'],
    [{ ...tcf, cmpId: 1 }, 'tcf.cmpId: expected an integer from 2 to 4095, got 1'],
    [
      { ...tcf, vendor: [1] },
      'tcf.vendor: expected one of the fields cmpId, cmpVersion, siteGroup, vendors, purposes, specialFeatures, publisherCountryCode, googleAtps, publisherRestrictions, publisherPurposes, got [1]',
    ],
    [
      { ...tcf, publisherRestrictions: [{ purpose: 1, type: 'requireLi', vendors: [8] }] },
      'tcf.publisherRestrictions[0].purpose: expected a purpose requireLi can apply to (2, 7, 8, 9, 10, 11; purposes 1 and 3 to 6 are consent only), got 1',
    ],
    [
      // Vendor 1 declares purpose 10 flexibly on legitimate interest; vendor 8 does not declare it.
      { ...tcf, publisherRestrictions: [{ purpose: 10, type: 'requireConsent', vendors: [1, 8] }] },
      'tcf.publisherRestrictions[0].vendors[1]: expected requireConsent on purpose 10: vendors of the vendor list that declare the purpose flexibly, on legitimate interest, got 8',
    ],
    [
      { ...tcf, publisherPurposes: { legitimateInterest: [3] } },
      'tcf.publisherPurposes.legitimateInterest[0]: expected a purpose that may rest on legitimate interest (2, 7 to 11), got 3',
    ],
  ])('refuses %j with a 400 naming the field, and stores nothing', async (body, message) => {
    const { app, store } = await buildApp({ tcfVendorList });
    const response = await put(app, { tcf: body });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({ code: 'invalid-field', message });
    expect(await store.getInstance('news')).toBeNull();
  });

  it('stores publisher restrictions and purposes the GVL allows, and embeds them in the prompt settings', async () => {
    const { app } = await buildApp({ tcfVendorList });
    const publisher = {
      publisherRestrictions: [{ purpose: 2, type: 'notAllowed', vendors: [8] }],
      publisherPurposes: { consent: [1], custom: [{ id: 1, name: 'Our newsletter', legalBasis: 'consent' }] },
    };
    const response = await put(app, { tcf: { ...tcf, ...publisher } });
    expect(response.statusCode).toBe(200);
    expect(response.json().config.tcf).toMatchObject(publisher);
    const config = embedded((await app.inject({ url: '/cmp/prompt.html?instance=news' })).body);
    expect(config.tcf.settings).toMatchObject(publisher);
  });

  it('refuses tcf settings when the server has no vendor list', async () => {
    const { app } = await buildApp();
    const response = await put(app, { tcf });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe(
      'tcf: expected a server with a vendor list (set TCF_VENDOR_LIST), got "tcf settings"',
    );
  });

  it('removes the settings with a PATCH of null', async () => {
    const { app } = await buildApp({ tcfVendorList });
    await put(app, { tcf });
    const patched = await app.inject({
      method: 'PATCH',
      url: '/admin/api/instances/news',
      headers: { ...bearer, ...json },
      payload: { tcf: null },
    });
    expect(patched.json().config.tcf).toBeNull();
  });
});

describe('GET /tcf/purposes-<lang>.json', () => {
  it('serves the IAB translation compressed with cache headers, and the prompt points the frame at it', async () => {
    const { app, dir } = await buildApp({ tcfVendorList, tcfTranslationsDir: join(process.cwd(), 'dist/none') });
    const withDir = await buildApp({ tcfVendorList, tcfTranslationsDir: join(dir, 'tr') });
    writeFiles(dir, {
      'tr/purposes-de.json': JSON.stringify({ purposes: { 1: { id: 1, name: 'Informationen speichern' } } }),
    });
    const response = await withDir.app.inject({ url: '/tcf/purposes-de.json', headers: { 'accept-encoding': 'gzip' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['cache-control']).toMatch(/max-age=3600/);
    const missing = await app.inject({ url: '/tcf/purposes-fi.json' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toEqual({
      code: 'tcf-translation-missing',
      message: 'no translation file for "fi": the hosted prompt speaks the GVL\'s language, English',
    });
    const unset = await buildApp({ tcfVendorList });
    expect((await unset.app.inject({ url: '/tcf/purposes-de.json' })).json().error.message).toMatch(
      /^TCF_TRANSLATIONS_DIR is not set/,
    );
    expect((await withDir.app.inject({ url: '/tcf/purposes-..%2F..%2Fetc.json' })).statusCode).toBe(404);
  });
});

describe('one language per prompt', () => {
  const german = resolve('fixtures/tcf/translations');
  const promptFor = async (app: Awaited<ReturnType<typeof buildApp>>['app'], acceptLanguage: string) => {
    const body = (
      await app.inject({ url: '/cmp/prompt.html?instance=news', headers: { 'accept-language': acceptLanguage } })
    ).body;
    return { lang: /<html lang="([^"]+)"/.exec(body)?.[1], config: embedded(body) };
  };

  it("speaks the reader's language where the IAB translation covers the GVL, texts and string alike", async () => {
    const { app } = await buildApp({ tcfVendorList, tcfTranslationsDir: german });
    await put(app, { tcf });
    const { lang, config } = await promptFor(app, 'de-AT,en;q=0.5');
    expect([lang, config.lang, config.messages.acceptAll]).toEqual(['de', 'de', 'Alle akzeptieren']);
    expect(config.tcf.translationsUrl).toBe('/tcf/purposes-de.json');
    expect(config.tcf.settings.consentLanguage).toBe('DE');
    expect(config.tcf.summary.purposes[0].name).toBe('Personalisierte Werbung');
    expect(config.tcf.summary.specialFeatures[0].name).toBe('Genaue Standortdaten verwenden');
  });

  it.each([
    ['no file for the language', {}],
    [
      'a file that leaves a GVL entry out',
      { 'tr/purposes-de.json': JSON.stringify({ purposes: { 1: { id: 1, name: 'Informationen speichern' } } }) },
    ],
  ])('speaks English throughout, lang="en", with %s', async (_, files) => {
    const { dir } = await buildApp({ tcfVendorList });
    const withDir = await buildApp({ tcfVendorList, tcfTranslationsDir: join(dir, 'tr') });
    writeFiles(dir, files);
    await put(withDir.app, { tcf });
    const { lang, config } = await promptFor(withDir.app, 'de');
    expect([lang, config.lang, config.messages.acceptAll]).toEqual(['en', 'en', 'Accept all']);
    expect(config.tcf.translationsUrl).toBeNull();
    expect(config.tcf.settings.consentLanguage).toBe('EN');
    expect(config.tcf.summary.purposes[0].name).toBe('Personalised advertising');
  });

  it("speaks the reader's language on a prompt without tcf settings (no IAB texts to show)", async () => {
    const { app } = await buildApp({ tcfVendorList });
    await put(app, { prompt: { title: 'Datenschutz', message: 'Wir nutzen Cookies.' } });
    const { lang, config } = await promptFor(app, 'de');
    expect([lang, config.lang, config.tcf]).toEqual(['de', 'de', null]);
  });

  it('lists for the admin which languages are complete, and what the others lack', async () => {
    const { app, dir } = await buildApp({ tcfVendorList });
    writeFiles(dir, {
      'tr/purposes-de.json': readFileSync(join(german, 'purposes-de.json'), 'utf8'),
      'tr/purposes-fr.json': JSON.stringify({ purposes: { 1: { id: 1, name: 'Stocker des informations' } } }),
    });
    const withDir = await buildApp({ tcfVendorList, tcfTranslationsDir: join(dir, 'tr') });
    const response = await withDir.app.inject({ url: '/admin/api/tcf/languages', headers: bearer });
    expect(response.statusCode).toBe(200);
    const languages = response.json().languages as { language: string }[];
    expect(languages).toHaveLength(26);
    const byLanguage = Object.fromEntries(languages.map(({ language, ...rest }) => [language, rest]));
    expect(byLanguage['en']).toEqual({ translationFile: null, state: 'complete' });
    expect(byLanguage['de']).toEqual({ translationFile: 'purposes-de.json', state: 'complete' });
    expect(byLanguage['fr']).toEqual({
      translationFile: 'purposes-fr.json',
      state: 'partial',
      untranslated: 'purposes.1',
    });
    expect(byLanguage['nb']).toEqual({ translationFile: 'purposes-no.json', state: 'missing' });
    const noGvl = await buildApp();
    expect((await noGvl.app.inject({ url: '/admin/api/tcf/languages', headers: bearer })).json()).toEqual({
      languages: null,
    });
  });
});

describe('first layer budget', () => {
  it('keeps the first layer (page HTML with its CSS, and its script) within 15 KB brotli', async () => {
    const { app } = await buildApp({ cdnRoot: resolve('dist/cdn') });
    const html = (await app.inject({ url: '/cmp/prompt.html' })).body;
    // Built by `node scripts/build.mjs`; a missing file fails here rather than passing unmeasured.
    const script = readFileSync(resolve('dist/cdn/cmp/prompt-0.1.js'));
    const brotli = (bytes: Buffer | string) =>
      brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    expect(brotli(html) + brotli(script)).toBeLessThanOrEqual(15 * 1024);
  });
});
