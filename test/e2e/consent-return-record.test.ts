/**
 * The return record (docs/decisions/consent-return-record.md) in Chromium: a decision made on one
 * page writes the record at idle, beside the site store (which it leaves as it was); on the next
 * page the element starts what it allows at its build, before any of its parts has arrived (the
 * state part is held here), its set-up and its parts wait for idle,
 * a request the record does not know starts the element at once and is added to the record,
 * and a record that no longer matches the stored decision is not used.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { CDN_ROOT, launchBrowser, newPage, partPath, settled, startServer, type TestServer } from './harness.ts';
import { readFileSync } from 'node:fs';

let browser: Browser;
let server: TestServer;
/** The consent state part answers once the test has read what ran before it. */
let held = Promise.resolve();
let release = () => {};

const cdn = (path: string) => readFileSync(`${CDN_ROOT}/${path}`, 'utf8');
const script = { headers: { 'content-type': 'text/javascript' } };
/** The consent state part's file, named after its content (docs/decisions/part-names.md). */
const STATE = partPath('page-consent-state');

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({
    [STATE]: () => held.then(() => ({ ...script, body: cdn(STATE.slice(1)) })),
    '/blank.html': { body: '<!doctype html><title>blank</title>' },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const CONFIG = { consentInstanceId: 'site', consentRequired: true, promptUI: 'prompt', postPromptUI: 'settings' };

type PageOptions = { readonly config?: object; readonly extra?: string };

/** A consent page: three blocked scripts (any answer, accepted, purpose `ads`). */
function recordPage({ config = CONFIG, extra = '' }: PageOptions = {}) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>return record</title>
<script async src="/v0.js"></script>
<script async custom-element="page-consent" src="/v0/page-consent-0.1.js"></script>
</head><body>
<page-consent id="consent" layout="nodisplay"><script type="application/json">${JSON.stringify(config)}</script>
<div id="prompt" hidden><button id="accept" on="tap:consent.accept">Accept</button><button id="reject" on="tap:consent.reject">Reject</button></div>
<div id="settings" hidden><button on="tap:consent.prompt">Privacy settings</button></div></page-consent>
<p>Article text.</p>
<script type="text/plain" data-block-on-consent="_till_responded">window.runs = (window.runs || []).concat('responded');</script>
<script type="text/plain" data-block-on-consent>window.runs = (window.runs || []).concat('default');</script>
<script type="text/plain" data-block-on-consent-purposes="ads">window.runs = (window.runs || []).concat('ads');</script>
${extra}
</body></html>`;
}

let count = 0;
const serve = (options: PageOptions = {}) => {
  const path = `/record-${++count}.html`;
  server.page(path, recordPage(options));
  return `${server.origin}${path}`;
};

/** The site store's values on `page`'s origin. */
const storeOf = (page: Page) =>
  page.evaluate(() => {
    const text = localStorage.getItem(`page-store:${location.hostname}`);
    return text === null ? {} : (JSON.parse(atob(text)).values as Record<string, unknown>);
  });

/** The return record's entries on `page`'s origin (`page-return:` items), as lines, once one holds `includes` (written at idle, by its part). */
const recordOf = async (page: Page, includes = '') => {
  const entries = () =>
    page.evaluate(() =>
      Object.keys(localStorage)
        .filter((name) => name.startsWith('page-return:'))
        .map((name) => (localStorage.getItem(name) ?? '').split('\n')),
    );
  await expect
    .poll(async () => (await entries()).some((lines) => lines.join('\n').includes(includes) && lines.length > 1))
    .toBe(true);
  return entries();
};

const runsOf = (page: Page) => page.evaluate(() => (window as never as { runs?: string[] }).runs ?? []);
/** Whether the consent state part has run (its exports registered). */
const hasState = (page: Page) =>
  page.evaluate(() =>
    Object.hasOwn((window as never as { PAGE_PARTS?: object }).PAGE_PARTS ?? {}, 'page-consent-state'),
  );

/** A first visit in a fresh context: the prompt, then `button` clicked and the record written. */
async function decide(button: 'accept' | 'reject', options: PageOptions = {}) {
  const test = await newPage(browser);
  await test.page.goto(serve(options));
  await test.page.click(`#${button}`);
  const record = await recordOf(test.page);
  return { ...test, record };
}

/** Opens a second page of the site with the state part held; returns what ran before it arrived, then after. */
async function heldVisit(page: Page, options: PageOptions = {}) {
  held = new Promise((resolve) => (release = resolve));
  onTestFinished(() => release());
  await page.goto(serve(options), { waitUntil: 'domcontentloaded' });
  await settled(page, { ignore: [STATE] });
  const early = { runs: await runsOf(page), hasState: await hasState(page) };
  release();
  await page.waitForFunction(() =>
    Object.hasOwn((window as never as { PAGE_PARTS?: object }).PAGE_PARTS ?? {}, 'page-consent-state'),
  );
  await settled(page);
  return { early, late: await runsOf(page) };
}

describe('return record', () => {
  it('is written at idle after a decision, with what the decision allows on this page, leaving the site store as it was', async () => {
    const { page, record } = await decide('accept');
    expect(record).toHaveLength(1);
    const [key, decision, until, wait, ...requests] = record[0] ?? [];
    expect([key, wait, requests]).toEqual(['consent:site', '1', ['+_till_responded|', '+default|', '-null|ads']]);
    expect(JSON.parse(decision ?? '')).toMatchObject({ state: 'accepted' });
    expect(Number(until)).toBeGreaterThan(Date.now() + 300 * 86_400_000);
    expect(Object.keys(await storeOf(page))).toEqual(['consent:site']);
  });

  it('starts what an accepted decision allows before any consent part arrives, once each', async () => {
    const { page } = await decide('accept');
    const { early, late } = await heldVisit(page);
    expect(early).toEqual({ runs: ['responded', 'default'], hasState: false });
    expect(late).toEqual(['responded', 'default']);
  });

  it('starts only the any-answer script for a rejection', async () => {
    const { page } = await decide('reject');
    const { early, late } = await heldVisit(page);
    expect(early).toEqual({ runs: ['responded'], hasState: false });
    expect(late).toEqual(['responded']);
  });

  it('is not used once the stored decision changed, nor for another config', async () => {
    const { page } = await decide('accept');
    // Another tab rejected: the record's copy of the decision no longer matches.
    await page.evaluate(() => {
      const key = `page-store:${location.hostname}`;
      const store = JSON.parse(atob(localStorage.getItem(key) ?? ''));
      store.values['consent:site'] = { version: 2, state: 'rejected', time: Date.now() };
      localStorage.setItem(key, btoa(JSON.stringify(store)));
    });
    const changed = await heldVisit(page);
    expect(changed.early).toEqual({ runs: [], hasState: false });
    expect(changed.late).toEqual(['responded']);
    const other = await heldVisit(page, { config: { ...CONFIG, policy: { default: { timeout: 5 } } } });
    expect(other.early.runs).toEqual([]);
  });

  it('lets the element start a request the record does not know, and adds it to the record', async () => {
    const { page } = await decide('accept');
    const extra =
      '<script type="text/plain" data-block-on-consent="_till_accepted">window.runs = (window.runs || []).concat(\'accepted\');</script>';
    await page.goto(serve({ extra }));
    await page.waitForFunction(() => ((window as never as { runs?: string[] }).runs ?? []).includes('accepted'));
    expect(await runsOf(page)).toEqual(['responded', 'default', 'accepted']);
    const [entry] = await recordOf(page, '+_till_accepted|');
    expect(entry?.slice(4)).toEqual(['+_till_responded|', '+default|', '-null|ads', '+_till_accepted|']);
  });

  it('puts off the state part until after the allowed script ran and the page loaded', async () => {
    const { page } = await decide('accept');
    // Counts the writes of return record entries from here on.
    await page.addInitScript(() => {
      const counter = window as unknown as { returnWrites: number };
      counter.returnWrites = 0;
      const setItem = Storage.prototype.setItem;
      Storage.prototype.setItem = function (key: string, value: string) {
        if (String(key).startsWith('page-return:')) counter.returnWrites++;
        return setItem.call(this, key, value);
      };
    });
    const order: string[] = [];
    page.on('request', (request) => order.push(new URL(request.url()).pathname));
    await page.exposeFunction('ran', () => order.push('ran'));
    await page.goto(serve({ extra: '<script type="text/plain" data-block-on-consent>ran()</script>' }));
    await page.waitForSelector('#settings:not([hidden])');
    const state = order.findIndex((path) => path.includes('page-consent-state'));
    expect(order.indexOf('ran')).toBeGreaterThan(-1);
    expect(state).toBeGreaterThan(order.indexOf('ran'));
    // The record was current: it was not written again.
    await settled(page);
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    expect(await page.evaluate(() => (window as unknown as { returnWrites: number }).returnWrites)).toBe(0);
  });

  it('ignores a replay asked for by any element but <page-consent>', async () => {
    const { page } = await newPage(browser);
    const fake = `<page-fake id="fake" layout="nodisplay"></page-fake><script>(self.PAGE = self.PAGE || []).push((page) => page.define('page-fake', class extends page.PageElement {
      buildCallback() { page.replayConsent(this, ['1', '+default|', '+_till_responded|'], () => {}); }
    }));</script>`;
    await page.goto(serve({ extra: fake }));
    await page.waitForSelector('#prompt:not([hidden])');
    await page.waitForSelector('page-fake.page-built', { state: 'attached' });
    await settled(page);
    expect(await runsOf(page)).toEqual([]);
  });
});
