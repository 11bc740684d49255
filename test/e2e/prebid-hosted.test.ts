/**
 * Prebid.js 11 (its TCF and GPP consent modules and a recording bidder) on a page whose
 * `<page-consent type="page-hosted">` frames the reference server's hosted prompt for an
 * instance with `tcf` settings, against the real server process with the fixture GVL: the
 * reader accepts, rejects or customizes in the frame, and the auction's TC string (and GPP
 * string when the page exposes GPP) decodes to those choices.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { GppModel } from '@iabgpp/cmpapi';
import { PurposeRestriction, RestrictionType, TCString } from '@iabtechlabtcf/core';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { idsOf } from '../../src/tcf/tc-string.ts';
import { type ServerProcess, startServer } from '../server/server-process.ts';
import { writeTranslations } from './tcf-translations.ts';
import { html, launchBrowser, newPage, type TestPage } from './harness.ts';
import { bundlePrebid, prebidSetup } from './prebid-fixture.ts';

const ADMIN_TOKEN = 'prebid-hosted-e2e-admin-token';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const INSTANCE = 'hosted-tcf';
const TCF = {
  cmpId: 300,
  cmpVersion: 2,
  vendors: [1, 2, 8, 25, 52],
  purposes: { ads: [2, 3, 4] },
  specialFeatures: [1],
  publisherCountryCode: 'DE',
  googleAtps: [2572, 3, 89],
};
/** The same instance with publisher restrictions and a custom purpose (docs/consent.md, "Publisher restrictions and purposes"). */
const RESTRICTED = 'hosted-restricted';
const RESTRICTED_TCF = {
  ...TCF,
  publisherRestrictions: [
    { purpose: 2, type: 'notAllowed', vendors: [8] },
    { purpose: 7, type: 'requireConsent', vendors: [25] },
  ],
  publisherPurposes: { consent: [1], custom: [{ id: 1, name: 'Our newsletter', legalBasis: 'consent' }] },
};
let browser: Browser;
let server: ServerProcess;
let origin = '';
let dir = '';
const opened: TestPage[] = [];

const freePort = () =>
  new Promise<number>((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'page-prebid-hosted-'));
  writeFileSync(join(dir, 'prebid.js'), await bundlePrebid());
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  server = await startServer({
    PORT: String(port),
    DATABASE_URL: `sqlite:${join(dir, 'page.db')}`,
    ADMIN_TOKEN,
    EXAMPLES_ROOT: dir,
    TCF_VENDOR_LIST: resolve('fixtures/tcf/vendor-list.json'),
    GOOGLE_ATP_LIST: resolve('fixtures/tcf/google-atps.csv'),
    // The prompt speaks a reader's language only with the IAB's file for it (the tests below read Greek and Bulgarian).
    TCF_TRANSLATIONS_DIR: writeTranslations(join(dir, 'translations'), ['el', 'bg']),
  });
  for (const [instance, tcf] of [
    [INSTANCE, TCF],
    [RESTRICTED, RESTRICTED_TCF],
  ] as const) {
    const response = await fetch(`${origin}/admin/api/instances/${instance}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tcf }),
    });
    expect(response.status).toBe(200);
  }
  browser = await launchBrowser();
}, 120_000);
afterEach(async () => {
  for (const test of opened.splice(0)) await test.context.close();
});
afterAll(async () => {
  await browser?.close();
  server?.child.kill('SIGTERM');
  await server?.exited();
  rmSync(dir, { recursive: true, force: true });
});

let count = 0;
/** A page framing the hosted prompt, exposing TCF (and GPP when asked), with Prebid's consent modules. */
async function open(
  options: { gpp?: boolean; tcf?: boolean; locale?: string; instance?: string } = {},
): Promise<{ page: Page; frame: Frame; test: TestPage }> {
  const { gpp = false, tcf = true, locale = 'en-GB', instance = INSTANCE } = options;
  const name = `prebid-hosted-${++count}.html`;
  const config = { consentInstanceId: instance, exposesTcfApi: tcf, exposesGppApi: gpp, cmpId: 300, cmpVersion: 2 };
  const modules = [...(tcf ? ['gdpr' as const] : []), ...(gpp ? ['gpp' as const] : [])];
  const body = `<page-consent id="consent" layout="nodisplay" type="page-hosted"><script type="application/json">${JSON.stringify(config)}</script></page-consent>
    <main><h1>Article</h1></main>${prebidSetup(modules).replace('src="/prebid.js"', 'src="/examples/prebid.js"')}`;
  writeFileSync(join(dir, name), html(body, { extensions: ['page-consent'] }));
  const test = await newPage(browser, { viewport: { width: 400, height: 800 }, locale });
  opened.push(test);
  await test.page.goto(`${origin}/examples/${name}`);
  let frame: Frame | undefined;
  await expect
    .poll(() => (frame = test.page.frames().find((f) => f.url().includes('/cmp/prompt.html'))), { timeout: 20_000 })
    .toBeTruthy();
  await test.page.waitForSelector('.page-consent-frame iframe:not([hidden])');
  return { page: test.page, frame: frame!, test };
}

type Saw = {
  gdprConsent?: { consentString: string; gdprApplies: boolean; addtlConsent?: string };
  gppConsent?: { gppString: string; applicableSections: number[] };
};
const runAuction = (page: Page) =>
  page.evaluate(() => (window as never as { runAuction(): Promise<Saw | string> }).runAuction()) as Promise<
    Saw | string
  >;

/** The auction's TC string decoded by the IAB library: the choices it carries. */
async function auctionChoices(page: Page) {
  const saw = await runAuction(page);
  expect(saw).toMatchObject({ gdprConsent: { gdprApplies: true } });
  const tcString = (saw as Saw).gdprConsent!.consentString;
  const model = TCString.decode(tcString);
  return {
    saw: saw as Saw,
    tcString,
    header: [model.cmpId, model.cmpVersion, model.isServiceSpecific, model.publisherCountryCode, model.consentLanguage],
    choices: {
      purposeConsents: idsOf(model.purposeConsents),
      purposeLegitimateInterests: idsOf(model.purposeLegitimateInterests),
      vendorConsents: idsOf(model.vendorConsents),
      vendorLegitimateInterests: idsOf(model.vendorLegitimateInterests),
      specialFeatureOptins: idsOf(model.specialFeatureOptins),
      vendorsDisclosed: idsOf(model.vendorsDisclosed),
    },
  };
}

describe('Prebid.js with the hosted prompt (type="page-hosted", an instance with tcf settings)', () => {
  it("Accept all in the frame: the auction gets the frame's string with every purpose, the listed vendors and the special feature", async () => {
    const { page, frame, test } = await open();
    await frame.click('#accept');
    const { header, choices } = await auctionChoices(page);
    expect(header).toEqual([300, 2, true, 'DE', 'EN']);
    expect(choices).toEqual({
      purposeConsents: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
      purposeLegitimateInterests: [2, 7, 8, 9, 10, 11],
      vendorConsents: [1, 2, 8, 52],
      vendorLegitimateInterests: [1, 2, 8, 25, 52],
      specialFeatureOptins: [1],
      vendorsDisclosed: [1, 2, 8, 25, 52],
    });
    expect(test.messages.filter((line) => line.text.includes('[page-'))).toEqual([]);
  });

  it('Reject all in the frame: a valid string with nothing consented, every legitimate interest objected to', async () => {
    const { page, frame } = await open();
    await frame.click('#reject');
    const { choices } = await auctionChoices(page);
    expect(choices).toEqual({
      purposeConsents: [],
      purposeLegitimateInterests: [],
      vendorConsents: [],
      vendorLegitimateInterests: [],
      specialFeatureOptins: [],
      vendorsDisclosed: [1, 2, 8, 25, 52],
    });
  });

  it('Customize in the frame: the auction gets exactly the purposes, vendors, objections and special feature chosen', async () => {
    const { page, frame } = await open();
    await frame.click('#customize');
    await frame.locator('#vendor-list li').first().waitFor();
    for (const key of ['p:1', 'p:2', 'p:7', 'v:8', 'sf:1']) await frame.locator(`input[data-key="${key}"]`).check();
    for (const key of ['pl:10', 'vl:25']) await frame.locator(`input[data-key="${key}"]`).uncheck();
    await frame.click('#save');
    const { choices } = await auctionChoices(page);
    expect(choices).toMatchObject({
      purposeConsents: [1, 2, 7],
      purposeLegitimateInterests: [2, 7, 8, 9],
      vendorConsents: [8],
      vendorLegitimateInterests: [1, 52],
      specialFeatureOptins: [1],
    });
  });

  it('publisher restrictions in the frame: partners shown as restricted, a custom purpose switchable; the string carries both', async () => {
    const { page, frame } = await open({ instance: RESTRICTED });
    await frame.click('#customize');
    await frame.locator('#vendor-list li').first().waitFor();
    const row = (name: string) =>
      frame.locator('#vendor-list li.vendor', { has: frame.locator(`.name:text-is("${name}")`) });
    const consentRow = async (name: string) => {
      await row(name).locator('summary').click();
      // The details are built on the element's toggle event, a task after the click.
      const consent = row(name).locator('dt:text-is("Consent") + dd');
      await consent.first().waitFor();
      return consent.allTextContents();
    };
    // Vendor 25 declares purpose 7 flexibly on legitimate interest only: restricted to consent, it gets a consent switch.
    expect(await frame.locator('input[data-key="v:25"]').count()).toBe(1);
    expect(await consentRow('Placeholder Measurement')).toEqual([expect.stringMatching(/measure/i)]);
    // Vendor 8 is not allowed purpose 2 ("Use limited data to select advertising"): not listed for it.
    const demo = (await consentRow('Demo Bidder')).join(' ');
    expect(demo).not.toContain('Use limited data to select advertising');
    expect(demo).toContain('Store and/or access information on a device');
    expect(await frame.locator('.name:text-is("Our newsletter")').count()).toBe(1);
    for (const key of ['p:1', 'p:7', 'v:25', 'cp:1']) await frame.locator(`input[data-key="${key}"]`).check();
    await frame.click('#save');
    const { tcString, choices } = await auctionChoices(page);
    expect(choices.vendorConsents).toEqual([25]);
    const model = TCString.decode(tcString);
    expect(model.publisherRestrictions.getVendors(new PurposeRestriction(2, RestrictionType.NOT_ALLOWED))).toEqual([8]);
    expect(model.publisherRestrictions.getVendors(new PurposeRestriction(7, RestrictionType.REQUIRE_CONSENT))).toEqual([
      25,
    ]);
    expect([idsOf(model.publisherConsents), idsOf(model.publisherCustomConsents)]).toEqual([[1], [1]]);
  });

  it("Other partners in the frame: Google's ATPs with their policies, each switchable; the bidder gets the AC string", async () => {
    const { page, frame } = await open();
    await frame.click('#customize');
    await frame.locator('#vendor-list li').first().waitFor();
    const section = frame.locator('section:has(> h3:text-is("Other partners"))');
    expect(await section.locator('.name').allTextContents()).toEqual([
      'Fixture Ad Partner (made up)',
      'Fixture Social Ads (made up)',
      'Fixture Measurement (made up)',
    ]);
    expect(await section.locator('a').evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href))).toEqual([
      'https://ad-partner.example/privacy',
      'https://social-ads.example/privacy',
      'https://measurement.example/privacy',
    ]);
    await frame.locator('input[data-key="p:1"]').check();
    await frame.locator('input[data-key="a:89"]').check();
    await frame.click('#save');
    expect(((await runAuction(page)) as Saw).gdprConsent?.addtlConsent).toBe('2~89~dv.3.2572');
    // Opened again, the prompt's ATP switches start from the stored AC string.
    await page.evaluate(() => {
      const button = document.createElement('button');
      button.id = 'reopen';
      button.setAttribute('on', 'tap:consent.prompt');
      document.body.append(button);
    });
    await page.click('#reopen');
    let again: Frame | undefined;
    await expect
      .poll(async () => {
        again = page.frames().find((f) => f.url().includes('/cmp/prompt.html') && f !== frame && !f.isDetached());
        return again ? again.locator('input[data-key="a:89"]').count() : 0;
      })
      .toBe(1);
    expect(await again!.locator('input[data-key="a:89"]').isChecked()).toBe(true);
    expect(await again!.locator('input[data-key="a:3"]').isChecked()).toBe(false);
  });

  it('Accept all and Reject all in the frame: every ATP consented, or every ATP disclosed without consent', async () => {
    const accepted = await open();
    await accepted.frame.click('#accept');
    expect(((await runAuction(accepted.page)) as Saw).gdprConsent?.addtlConsent).toBe('2~3.89.2572~dv.');
    const rejected = await open();
    await rejected.frame.click('#reject');
    expect(((await runAuction(rejected.page)) as Saw).gdprConsent?.addtlConsent).toBe('2~~dv.3.89.2572');
  });

  it('with GPP exposed too: the frame answers the TC string, which __gpp carries as its tcfeuv2 section', async () => {
    const { page, frame } = await open({ gpp: true });
    const update = page.waitForResponse((response) => response.url().endsWith('/consent/update'));
    await frame.click('#accept');
    const { saw, tcString, choices } = await auctionChoices(page);
    expect(choices.vendorConsents).toEqual([1, 2, 8, 52]);
    expect(saw.gppConsent!.applicableSections).toEqual([2]);
    expect(new GppModel(saw.gppConsent!.gppString).encodeSection('tcfeuv2')).toBe(tcString);
    // The decision the page stored and posted is the TC string (type 2), which ${GDPR_CONSENT} reads too.
    const posted = JSON.parse((await update).request().postData() ?? '{}');
    expect(posted).toMatchObject({
      consentString: tcString,
      consentMetadata: { consentStringType: 2, gdprApplies: true },
    });
  });

  it("with GPP alone (no TCF API): Prebid's GPP module gets the tcfeuv2 section of the reader's choice", async () => {
    const { page, frame } = await open({ gpp: true, tcf: false });
    await frame.click('#reject');
    const saw = (await runAuction(page)) as Saw;
    expect(saw.gppConsent!.applicableSections).toEqual([2]);
    const model = TCString.decode(new GppModel(saw.gppConsent!.gppString).encodeSection('tcfeuv2'));
    expect([model.cmpId, idsOf(model.purposeConsents), idsOf(model.vendorsDisclosed)]).toEqual([
      300,
      [],
      [1, 2, 8, 25, 52],
    ]);
  });
});

/** axe-core run inside the prompt's frame (sandboxed, so axe's own frame walk does not reach it): the violations. */
async function axeInFrame(frame: Frame): Promise<string[]> {
  await frame.evaluate(axeSource);
  return frame.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run(context: Document): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };
    };
    const result = await axe.run(document);
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

describe('the framed hosted prompt in a non-Latin script, checked by axe on the host page and in its frame', () => {
  it.each([
    ['el-GR', 'el', 'Αποδοχή όλων'],
    ['bg-BG', 'bg', 'Приемане на всички'],
  ])('%s: the host page and both layers have no axe violations', async (locale, lang, acceptAll) => {
    const { page, frame } = await open({ locale });
    expect(await frame.evaluate(() => document.documentElement.lang)).toBe(lang);
    expect(await frame.locator('#accept').textContent()).toBe(acceptAll);
    expect((await new AxeBuilder({ page }).analyze()).violations.map((v) => v.id)).toEqual([]);
    expect(await axeInFrame(frame)).toEqual([]);
    await frame.click('#customize');
    await frame.locator('#vendor-list li').first().waitFor();
    await frame.locator('#vendor-list summary').first().click();
    expect(await axeInFrame(frame)).toEqual([]);
  });
});
