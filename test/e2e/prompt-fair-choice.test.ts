/**
 * The validator's fair-choice rule, as rendered (cli/audit/fair-choice.ts, the code
 * `page-validate --audit` runs), held against the hosted prompt's first layer: real Chromium,
 * the real server with the GVL fixture, the prompt framed by a real `<page-consent
 * type="page-hosted">`, in English and in German (the longest labels), where the audit's own
 * lookup finds the controls by the catalogues' texts; the test also finds them by id and applies
 * the same judgement to every pair. Reject all, Customize and
 * Accept all are judged both ways round, so the rule's "no less prominent" becomes "equal".
 * Then `page-validate --audit` itself runs on the article (and on an inline prompt that fails).
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchAuditBrowser } from '../../cli/audit/browser.ts';
import { judgeShownPrompt, measureChoice, unfairnessOf } from '../../cli/audit/fair-choice.ts';
import type { AuditReport } from '../../cli/audit/report.ts';
import { runAudit } from '../../cli/audit/run-audit.ts';
import { defaultInstanceConfig } from '../../server/store/store.ts';
import { hasChromium, launchBrowser } from '../browser.ts';
import { buildApp, type Harness } from '../server/app-harness.ts';

const tcf = {
  cmpId: 300,
  cmpVersion: 2,
  vendors: [1, 2, 8, 25, 52],
  purposes: {},
  specialFeatures: [1],
  publisherCountryCode: 'DE',
};
const CHOICES = ['reject', 'customize', 'accept'] as const;
const VIEWPORTS = [
  { width: 320, height: 640 },
  { width: 1024, height: 768 },
];

let browser: Browser;
let harness: Harness;
let origin: string;

beforeAll(async () => {
  if (!hasChromium) return;
  browser = await launchBrowser();
  harness = await buildApp(
    {
      cdnRoot: resolve('dist/cdn'),
      tcfVendorList: resolve('fixtures/tcf/vendor-list.json'),
      // German throughout only with the IAB's German file.
      tcfTranslationsDir: resolve('fixtures/tcf/translations'),
    },
    true,
  );
  await harness.store.putInstance('fair-tcf', { ...defaultInstanceConfig, tcf }, 1);
  origin = await harness.app.listen({ port: 0, host: '127.0.0.1' });
  writeFileSync(
    join(harness.dir, 'examples', 'fair.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Article</title>
<script async src="/v0.js"></script><script async custom-element="page-consent" src="/v0/page-consent-0.1.js"></script>
<meta name="page-consent-blocking" content="page-img"></head><body>
<page-consent id="consent" layout="nodisplay" type="page-hosted"><script type="application/json">{"consentInstanceId": "fair-tcf", "exposesTcfApi": true}</script></page-consent>
<main><h1>Article</h1><p>Text.</p></main></body></html>`,
  );
  // An inline prompt whose reject is a small grey link in the text, beside a filled Accept all.
  writeFileSync(
    join(harness.dir, 'examples', 'unfair.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Article</title>
<script async src="/v0.js"></script><script async custom-element="page-consent" src="/v0/page-consent-0.1.js"></script></head><body>
<page-consent id="consent" layout="nodisplay"><script type="application/json">{"consentInstanceId": "unfair", "consentRequired": true, "promptUI": "prompt"}</script>
<div id="prompt" hidden style="position:fixed;bottom:0;left:0;right:0;padding:1rem;background:#fff">
<p>We use cookies. <a href="#" style="color:#999;font-size:12px" on="tap:consent.reject">or refuse</a></p>
<button type="button" style="width:100%;padding:1rem;background:#1f4fd1;color:#fff;border:0;font-weight:700" on="tap:consent.accept">Accept all</button></div>
</page-consent><main><h1>Article</h1><p>Text.</p></main></body></html>`,
  );
});
afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

/** The article with the hosted prompt shown, in the language of `locale` (Accept-Language). */
async function openPrompt(
  viewport: { width: number; height: number },
  locale: string,
): Promise<{ page: Page; frame: Frame }> {
  const context = await browser.newContext({ viewport, locale });
  const page = await context.newPage();
  await page.goto(`${origin}/examples/fair.html`);
  await page.waitForSelector('.page-consent-frame iframe:not([hidden])');
  const frame = page.frames().find((candidate) => candidate.url().includes('/cmp/prompt.html'))!;
  await frame.waitForFunction(() => document.querySelector('#accept')?.textContent !== '');
  return { page, frame };
}

/** Every ordered pair of the three choices judged by the rule: empty when they are equal. */
async function unequalChoices(frame: Frame): Promise<string[]> {
  const looks = await Promise.all(CHOICES.map((id) => measureChoice(frame.locator(`#${id}`))));
  return looks.flatMap((one) => looks.filter((other) => other !== one).flatMap((other) => unfairnessOf(one, other)));
}

describe.skipIf(!hasChromium)('the fair-choice rule on the hosted prompt', () => {
  for (const viewport of VIEWPORTS) {
    it(`holds in English at ${viewport.width} px, through the audit's own lookup of the controls`, async () => {
      const { page, frame } = await openPrompt(viewport, 'en-GB');
      expect(await frame.locator('.actions button:visible').allTextContents()).toEqual([
        'Reject all',
        'Customize',
        'Accept all',
      ]);
      expect(await judgeShownPrompt(page, 'consent')).toEqual([]);
      expect(await unequalChoices(frame)).toEqual([]);
      await page.context().close();
    });

    it(`holds in German at ${viewport.width} px, the labels the longest of the three, through the audit's lookup by the catalogue's texts`, async () => {
      const { page, frame } = await openPrompt(viewport, 'de-DE');
      expect(await frame.locator('html').getAttribute('lang')).toBe('de');
      expect(await frame.locator('.actions button:visible').allTextContents()).toEqual([
        'Alle ablehnen',
        'Anpassen',
        'Alle akzeptieren',
      ]);
      // Found by their German texts: null would mean the audit did not find both buttons.
      expect(await judgeShownPrompt(page, 'consent')).toEqual([]);
      expect(await unequalChoices(frame)).toEqual([]);
      await page.context().close();
    });
  }

  it('page-validate --audit finds nothing unfair in the hosted prompt, and the same rule reports a reject written as a link', async () => {
    const audit = await launchAuditBrowser({ isNoSandboxAllowed: true });
    try {
      const io = (sink: string[]) => ({
        stdin: (async function* () {})(),
        write: (text: string) => sink.push(text),
        writeError: (text: string) => sink.push(text),
      });
      const json: string[] = [];
      await runAudit(['--audit', `${origin}/examples/fair.html`, '--format', 'json'], io(json), audit);
      const report = JSON.parse(json.join('')) as AuditReport;
      expect(report.isPromptShown).toBe(true);
      expect(report.fairChoice).toEqual([]);
      expect(report.journeys.map((journey) => journey.decidedBy)).toEqual([
        null,
        "clicked the CMP frame's reject button",
        "clicked the CMP frame's accept button",
      ]);
      const text: string[] = [];
      await runAudit(['--audit', `${origin}/examples/unfair.html`, '--format', 'text'], io(text), audit);
      const lines = text
        .join('')
        .split('\n')
        .filter((line) => line.includes('audit-unfair-choice'));
      expect(lines.map((line) => line.trim().split(':')[1]?.trim())).toEqual([
        'size',
        'background',
        'color',
        'font size',
        'font weight',
        'place',
      ]);
    } finally {
      await audit.close();
    }
  }, 120_000);

  it('fails on a reject written as a plain link in the text (the rule can fail on this UI)', async () => {
    const { page, frame } = await openPrompt(VIEWPORTS[1]!, 'en-GB');
    await frame.locator('#reject').evaluate((reject) => {
      Object.assign((reject as HTMLElement).style, {
        background: 'transparent',
        color: 'gray',
        border: '0',
        fontWeight: '400',
        fontSize: '12px',
        padding: '0',
        minHeight: '0',
      });
      reject.parentElement!.parentElement!.querySelector('#layer1')!.append(reject);
    });
    const problems = (await judgeShownPrompt(page, 'consent')) ?? [];
    expect(problems.map((problem) => problem.split(':')[0])).toEqual([
      'size',
      'background',
      'color',
      'border',
      'font size',
      'font weight',
      'place',
      'place',
    ]);
    expect(problems.at(-2)).toBe(
      'place: expected "Reject all" as "Accept all" in view without scrolling, got outside the viewport',
    );
    expect(problems[0]).toMatch(/^size: expected "Reject all" as "Accept all" at least \d/);
    await page.context().close();
  });
});
