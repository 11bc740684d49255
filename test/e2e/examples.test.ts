/**
 * The example pages, served by the real server process as `npm start` runs it (the built
 * `dist/server/main.mjs` on a free loopback port, no setting at all: the development defaults of
 * docs/server.md give the fixture vendor list, the examples' instances and a generated admin
 * token, read from the start-up log), in real Chromium: each page loads without console errors,
 * component diagnostics or a failed request, its "Try" steps do what the page says, it fits
 * 320 px and passes axe; the remote-consent journey ends in the admin export (docs/server.md,
 * "Admin API").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { TCString } from '@iabtechlabtcf/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { idsOf } from '../../src/tcf/tc-string.ts';
import { type ServerProcess, startServer } from '../server/server-process.ts';
import { installClock, pauseClock, runUntil, timerSetAt } from './clock.ts';
import { launchBrowser, newPage, settled, type TestPage } from './harness.ts';

/** The server process's start, with room for a machine busy with other Chromium tests (the hook allows 60 s). */
const SERVER_START_MS = 50_000;

/** The development admin token the server generated and logged (`admin dashboard: .../admin/#token=...`). */
let adminToken = '';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PAGES = readdirSync('examples')
  .filter((name) => name.endsWith('.html'))
  .sort();

let browser: Browser;
let server: ServerProcess;
const opened: TestPage[] = [];

beforeAll(async () => {
  server = await startServer({}, SERVER_START_MS);
  const deadline = Date.now() + SERVER_START_MS;
  while (!adminToken && Date.now() < deadline) {
    adminToken = server.lines.map((line) => /\/admin\/#token=([A-Za-z0-9_-]+)/.exec(line)?.[1]).find(Boolean) ?? '';
    if (!adminToken) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(adminToken, 'the development admin token in the start-up log').not.toBe('');
  browser = await launchBrowser();
});
afterEach(async () => {
  for (const test of opened.splice(0)) await test.context.close();
});
afterAll(async () => {
  await browser?.close();
  server?.child.kill('SIGTERM');
  await server?.exited();
});

/** Requests of each opened page that failed or answered 400 or more. */
const failures = new WeakMap<TestPage, string[]>();

/** Records the page's failed requests and answers of 400 or more in `failures`. */
function watchRequests(test: TestPage): void {
  const failed: string[] = [];
  failures.set(test, failed);
  test.page.on('requestfailed', (request) => {
    // A beacon (the hosted prompt's outcome) is handed to the browser and sent after its frame is
    // gone; the frame's own view of it then reads "aborted".
    if (request.resourceType() !== 'ping')
      failed.push(`failed: ${request.url()} ${request.failure()?.errorText ?? ''}`);
  });
  test.page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()}: ${response.url()}`);
  });
}

async function open(
  path: string,
  viewport = { width: 1000, height: 800 },
  options: { clock?: boolean; gpc?: boolean } = {},
): Promise<TestPage> {
  const test = await newPage(browser, { viewport });
  opened.push(test);
  watchRequests(test);
  if (options.clock) await installClock(test.page);
  if (options.gpc)
    await test.page.addInitScript(() =>
      Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }),
    );
  await test.page.goto(`${server.url}/examples/${path}`);
  return test;
}

/** Console errors, page errors, component diagnostics at any level, and failed requests. */
function problems(test: TestPage): string[] {
  const { messages, errors } = test;
  const logged = messages.filter((m) => m.type === 'error' || (m.type === 'warning' && m.text.startsWith('[page-')));
  return [...logged.map((m) => `${m.type}: ${m.text}`), ...errors, ...(failures.get(test) ?? [])];
}

const stateOf = (page: Page, selector: string) => page.getAttribute(selector, 'data-state');
/** Waits for a widget's state; on time-out, says what the page looked like. */
async function waitForState(page: Page, selector: string, state: string): Promise<void> {
  try {
    await page.waitForSelector(`${selector}[data-state="${state}"]`, { timeout: 15_000 });
  } catch (error) {
    const seen = await page.evaluate(
      (widget) => ({
        widget: document.querySelector(widget)?.outerHTML,
        html: document.documentElement.className,
        consent: document.querySelector('page-consent')?.className,
        status: document.querySelector('[data-consent-status]')?.textContent,
      }),
      selector,
    );
    throw new Error(`${selector} never became ${state}: ${JSON.stringify(seen)}\n${error}`);
  }
}
const click = (page: Page, name: string, scope = 'body') =>
  page.locator(scope).getByRole('button', { name, exact: true }).click();
const shown = (page: Page, selector: string) => page.waitForSelector(selector, { state: 'visible' });
const hidden = (page: Page, selector: string) => page.waitForSelector(selector, { state: 'hidden' });

async function admin(path: string): Promise<Response> {
  return fetch(`${server.url}/admin/api/${path}`, { headers: { authorization: `Bearer ${adminToken}` } });
}

describe('examples index', () => {
  it('links every example page, and every link answers 200', async () => {
    const test = await open('');
    const links = await test.page.$$eval('main a', (anchors) => anchors.map((a) => (a as HTMLAnchorElement).href));
    const linkedPages = new Set(links.map((href) => new URL(href).pathname.replace('/examples/', '')));
    for (const name of PAGES.filter((name) => name !== 'index.html')) expect(linkedPages, name).toContain(name);
    for (const href of new Set(links.map((link) => link.split('#')[0]!))) {
      expect((await fetch(href)).status, href).toBe(200);
    }
    expect(problems(test)).toEqual([]);
  });
});

describe('every example page', () => {
  /**
   * One page for the whole table, navigated anew for each row with the site's storage and cookies
   * cleared before it: a row checks what one first view of its page loads, logs and looks like, not
   * that nothing carries over in the browser (the other tests open a fresh context each).
   */
  let shared: TestPage;
  beforeAll(async () => {
    shared = await newPage(browser, { viewport: { width: 320, height: 640 } });
    watchRequests(shared);
  });
  afterAll(async () => {
    await shared?.context.close();
  });

  /** Leaves the last row's page, then clears what it stored: a row starts as a first visit. */
  async function firstVisit(name: string): Promise<TestPage> {
    const { page, context } = shared;
    // The tab's session storage outlives a navigation; the origin's other storage is cleared below.
    await page.evaluate(() => sessionStorage.clear()).catch(() => undefined);
    await page.goto('about:blank');
    await context.clearCookies();
    const session = await context.newCDPSession(page);
    await session.send('Storage.clearDataForOrigin', { origin: server.url, storageTypes: 'all' });
    await session.detach();
    shared.messages.length = 0;
    shared.errors.length = 0;
    failures.get(shared)!.length = 0;
    await page.goto(`${server.url}/examples/${name}`);
    return shared;
  }

  it.each(PAGES)('%s loads cleanly, fits 320 px and has no axe violations', async (name) => {
    const test = await firstVisit(name);
    await test.page.waitForLoadState('load');
    await settled(test.page);
    const width = await test.page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'horizontal overflow').toBeLessThanOrEqual(320);
    await test.page.evaluate(axeSource);
    const violations = await test.page.evaluate(async () => {
      type Axe = { run: (context: object) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };
      // The anchor ad is placed by <page-auto-ads> right after itself, outside the page's landmarks.
      const result = await (window as unknown as { axe: Axe }).axe.run({ exclude: [['page-ad[sticky]']] });
      return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
    expect(violations).toEqual([]);
    const html = readFileSync(join('examples', name), 'utf8');
    expect(html, 'absolute URLs').not.toMatch(/(src|href)="https?:/);
    expect(problems(test)).toEqual([]);
  });
});

describe('client-only consent example', () => {
  it('prompts, builds after accept, remembers, and removes after a later reject', async () => {
    const test = await open('consent-client.html');
    const { page } = test;
    await shown(page, '#prompt');
    expect(await stateOf(page, 'example-widget')).toBeNull();
    await click(page, 'Accept');
    await waitForState(page, 'example-widget', 'loaded');
    await hidden(page, '#prompt');
    await shown(page, '#settings');
    expect(await page.textContent('[data-consent-status]')).toContain('state: accepted');

    // The decision's work first finishes (the parts and scripts it requests): a request the reload
    // cuts off would read as failed in the page's problems.
    await settled(page);
    await page.reload();
    await waitForState(page, 'example-widget', 'loaded');
    expect(await page.isVisible('#prompt')).toBe(false);

    await click(page, 'Privacy settings');
    await shown(page, '#prompt');
    await click(page, 'Reject');
    await waitForState(page, 'example-widget', 'removed');
    expect(await page.textContent('[data-consent-status]')).toContain('state: rejected');
    expect(problems(test)).toEqual([]);
  });

  it('closes the prompt for this page view only with Decide later', async () => {
    const test = await open('consent-client.html');
    const { page } = test;
    await shown(page, '#prompt');
    await click(page, 'Decide later');
    await hidden(page, '#prompt');
    expect(await stateOf(page, 'example-widget')).toBeNull();
    await settled(page);
    await page.reload();
    await shown(page, '#prompt');
    expect(problems(test)).toEqual([]);
  });
});

describe('remote consent example', () => {
  it('records an accept that the admin export shows, and restores it from the server', async () => {
    const test = await open('consent-remote.html');
    const { page } = test;
    await shown(page, '#prompt');
    const update = page.waitForResponse((response) => response.url().endsWith('/consent/update'));
    await click(page, 'Accept');
    expect((await update).status()).toBe(200);
    await waitForState(page, 'example-widget', 'loaded');
    const pageUserId = (await page.textContent('[data-page-user-id]'))!;
    expect(pageUserId).toMatch(/^[0-9a-f-]{36}$/);

    const exported = await admin('instances/examples-remote/export?format=ndjson');
    expect(exported.status).toBe(200);
    const records = (await exported.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const record = records.find((r) => r.pageUserId === pageUserId);
    expect(record).toMatchObject({ instanceId: 'examples-remote', state: 'accepted', origin: server.url });
    const users = await (await admin(`instances/examples-remote/users?pageUserId=${pageUserId}`)).json();
    expect(users.users[0].decision.state).toBe('accepted');

    // The cached decision is forgotten; the server's answer (page_uid cookie) restores it. (The
    // decision's idle work first finishes: the button reloads the page.)
    await settled(page);
    const check = page.waitForResponse((response) => response.url().endsWith('/consent/check'));
    await click(page, 'Forget the cached decision and reload');
    expect(await (await check).json()).toMatchObject({ consentRequired: true, consentStateValue: 'accepted' });
    await waitForState(page, 'example-widget', 'loaded');
    await page.waitForFunction(() =>
      document.querySelector('[data-consent-status]')?.textContent?.includes('state: accepted'),
    );
    expect(await page.isVisible('#prompt')).toBe(false);
    expect(problems(test)).toEqual([]);
  });
});

describe('geo example', () => {
  it('needs no consent for an unknown country on localhost', async () => {
    const test = await open('geo.html');
    const { page } = test;
    await waitForState(page, 'example-widget', 'loaded');
    expect(await page.textContent('#geo-result')).toBe('unknown; groups: elsewhere');
    const classes = await page.evaluate(() => document.documentElement.className);
    expect(classes).toContain('page-iso-country-unknown');
    expect(classes).toContain('page-geo-group-elsewhere');
    expect(await page.isVisible('.group-note.elsewhere')).toBe(true);
    expect(await page.isVisible('#prompt-eea')).toBe(false);
    expect(problems(test)).toEqual([]);
  });

  it('shows the EEA prompt for #page-geo=de and the opt-out prompt for #page-geo=us', async () => {
    const de = await open('geo.html#page-geo=de');
    await shown(de.page, '#prompt-eea');
    expect(await de.page.textContent('#geo-result')).toBe('de; groups: eea');
    expect(await de.page.isVisible('.group-note.eea')).toBe(true);
    await click(de.page, 'Accept');
    await waitForState(de.page, 'example-widget', 'loaded');

    const us = await open('geo.html#page-geo=us');
    await shown(us.page, '#prompt-california');
    expect(await us.page.isVisible('#prompt-eea')).toBe(false);
    expect(await us.page.isVisible('#prompt-california .gpc-notice')).toBe(false);
    expect(await stateOf(us.page, 'example-widget')).toBeNull();
    expect([...problems(de), ...problems(us)]).toEqual([]);
  });

  it('says "Opt-out request honored" in the settings bar to a California reader whose browser sends GPC', async () => {
    const test = await open('geo.html#page-geo=us-ca', undefined, { gpc: true });
    await test.page.locator('#settings .gpc-notice').waitFor();
    expect(await test.page.textContent('#settings .gpc-notice')).toBe('Opt-out request honored');
    expect(await test.page.isVisible('#prompt-california')).toBe(false);
    expect(problems(test)).toEqual([]);
  });

  it('reloads with the new country when the debug hash changes', async () => {
    const test = await open('geo.html');
    await waitForState(test.page, 'example-widget', 'loaded');
    await test.page.getByRole('link', { name: '#page-geo=de' }).click();
    await shown(test.page, '#prompt-eea');
    expect(await test.page.textContent('#geo-result')).toBe('de; groups: eea');
  });
});

describe('US states example', () => {
  const text = (page: Page, selector: string) => page.textContent(selector);

  it("gives a Virginia reader usva, and the footer's Do-Not-Sell control opts out without the prompt", async () => {
    const test = await open('us-states.html#page-geo=us-va');
    const { page } = test;
    await shown(page, '#prompt-us');
    expect(await text(page, '#geo-result')).toBe('us us-va; groups: usstates, us');
    await click(page, 'Do Not Sell or Share My Personal Information', 'footer');
    await hidden(page, '#prompt-us');
    await expect.poll(() => text(page, '#gpp-result')).toContain('usva: SaleOptOut 1, TargetedAdvertisingOptOut 1');
    await expect.poll(() => text(page, '#usp-result')).toBe('1YYN');
    expect(await text(page, '[data-consent-status]')).toContain('state: rejected');
    expect(await stateOf(page, 'example-widget')).toBeNull();
    expect(problems(test)).toEqual([]);
  });

  it('says "Opt-out request honored" to a California reader whose browser sends GPC, with usca', async () => {
    const test = await open('us-states.html#page-geo=us-ca', undefined, { gpc: true });
    const { page } = test;
    await page.locator('#settings .gpc-notice').waitFor();
    expect(await page.isVisible('#prompt-us')).toBe(false);
    await expect.poll(() => text(page, '#gpp-result')).toContain('usca: SaleOptOut 1, SharingOptOut 1');
    expect(await text(page, '#gpp-result')).toContain('Gpc true');
    await expect.poll(() => text(page, '#usp-result')).toBe('1YYN');
    expect(problems(test)).toEqual([]);
  });

  it('loads the map for a New York reader, and the Limit control withdraws it with usnat', async () => {
    const test = await open('us-states.html#page-geo=us-ny');
    const { page } = test;
    await waitForState(page, 'example-widget', 'loaded');
    expect(await page.isVisible('#prompt-us')).toBe(false);
    await click(page, 'Limit the Use of My Sensitive Personal Information', 'footer');
    await waitForState(page, 'example-widget', 'removed');
    await expect.poll(() => text(page, '#gpp-result')).toContain('usnat: SaleOptOut 2, SharingOptOut 2');
    await expect.poll(() => text(page, '#usp-result')).toBe('1YNN');
    expect(problems(test)).toEqual([]);
  });

  it('shows the accept/reject prompt and no US controls to a reader in Germany', async () => {
    const test = await open('us-states.html#page-geo=de');
    const { page } = test;
    await shown(page, '#prompt');
    expect(await page.isVisible('footer .us-only')).toBe(false);
    expect(await text(page, '#gpp-result')).toBe('none');
    expect(problems(test)).toEqual([]);
  });
});

describe('geo example, its Try steps', () => {
  it('walks the state links: us-tx no group and the map loads, us-ca the opt-out prompt, jp elsewhere', async () => {
    const test = await open('geo.html');
    const { page } = test;
    await waitForState(page, 'example-widget', 'loaded');
    const result = () => page.textContent('#geo-result');
    const classes = () => page.textContent('#geo-classes');

    await page.getByRole('link', { name: '#page-geo=us-tx', exact: true }).click();
    await expect.poll(result).toBe('us; groups: none');
    await waitForState(page, 'example-widget', 'loaded');
    expect(await classes()).toContain('page-iso-subdivision-us-tx');
    for (const prompt of ['#prompt-eea', '#prompt-california'])
      expect(await page.isVisible(prompt), prompt).toBe(false);

    await page.getByRole('link', { name: '#page-geo=us-ca', exact: true }).click();
    await shown(page, '#prompt-california');
    expect(await result()).toBe('us; groups: california');
    expect(await classes()).toContain('page-iso-subdivision-us-ca');
    expect(await page.isVisible('.group-note.california')).toBe(true);
    expect(await stateOf(page, 'example-widget')).toBeNull();

    await page.getByRole('link', { name: '#page-geo=jp', exact: true }).click();
    await expect.poll(result).toBe('jp; groups: elsewhere');
    await waitForState(page, 'example-widget', 'loaded');
    expect(await page.isVisible('#prompt-california')).toBe(false);
    expect(problems(test)).toEqual([]);
  });
});

describe('purposes example', () => {
  it('builds each component once its purposes are chosen', async () => {
    const test = await open('purposes.html');
    const { page } = test;
    const analytics = 'example-widget[data-block-on-consent-purposes="analytics"]';
    const ads = 'example-widget[data-block-on-consent-purposes="ads"]';
    const both = 'example-widget[data-block-on-consent-purposes="analytics,ads"]';
    await shown(page, '#prompt');
    await page.getByLabel('Audience measurement').check();
    await click(page, 'Save my choices');
    await waitForState(page, analytics, 'loaded');
    expect(await page.textContent('[data-consent-status]')).toContain('purposes: analytics yes, ads no');
    expect(await stateOf(page, ads)).toBeNull();
    expect(await stateOf(page, both)).toBeNull();
    expect(await page.$('#purpose-ad .page-fake-ad')).toBeNull();

    await click(page, 'Privacy settings');
    await shown(page, '#prompt');
    expect(await page.getByLabel('Audience measurement').isChecked()).toBe(true);
    await page.getByLabel('Personalised ads').check();
    await click(page, 'Save my choices');
    await waitForState(page, ads, 'loaded');
    await waitForState(page, both, 'loaded');
    await page.waitForSelector('#purpose-ad .page-fake-ad');

    await settled(page);
    await page.reload();
    await waitForState(page, both, 'loaded');
    expect(await page.isVisible('#prompt')).toBe(false);

    await click(page, 'Privacy settings');
    await click(page, 'Reject all');
    await waitForState(page, analytics, 'removed');
    await waitForState(page, ads, 'removed');
    expect(await page.$('#purpose-ad .page-fake-ad')).toBeNull();
    expect(problems(test)).toEqual([]);
  });
});

describe('post-prompt example', () => {
  it('shows the footer UI in place after a decision and reopens the prompt from it', async () => {
    const test = await open('post-prompt.html');
    const { page } = test;
    await shown(page, '#prompt');
    expect(await page.isVisible('#privacy-footer')).toBe(false);
    await click(page, 'Accept');
    await waitForState(page, 'example-widget', 'loaded');
    await shown(page, '#privacy-footer');
    expect(await page.$eval('#privacy-footer', (element) => getComputedStyle(element).position)).toBe('static');

    await click(page, 'Change privacy settings');
    await shown(page, '#prompt');
    await hidden(page, '#privacy-footer');
    await click(page, 'Reject', '#prompt');
    await waitForState(page, 'example-widget', 'removed');
    await shown(page, '#privacy-footer');

    await click(page, 'Privacy');
    await shown(page, '#prompt');
    await click(page, 'Accept', '#prompt');
    await waitForState(page, 'example-widget', 'loaded');
    expect(problems(test)).toEqual([]);
  });
});

describe('policies example', () => {
  it('builds by policy, times the default policy out to insufficient, then follows the answers, a later reject too', async () => {
    // The page's 5 s time-out runs on Playwright's clock: moved on at once, not waited out.
    const test = await open('policies.html', undefined, { clock: true });
    const { page } = test;
    await shown(page, '#prompt');
    await waitForState(page, '#auto-reject-widget', 'loaded');
    const timerAt = await timerSetAt(page, 5_000);
    await pauseClock(page);
    expect(await page.textContent('[data-policy-state="_auto_reject"]')).toBe('insufficient');
    await runUntil(page, timerAt + 4_900);
    expect(await page.textContent('[data-policy-state="default"]')).toBe('waiting');
    expect(await page.textContent('#vendor')).toContain('waiting');
    await runUntil(page, timerAt + 5_000);
    await page.clock.resume();

    await page.waitForFunction(
      () => document.querySelector('[data-policy-state="default"]')?.textContent === 'insufficient',
    );
    expect(await page.textContent('#vendor')).toBe('Vendor: non-personalised ad (policy insufficient)');
    expect(await page.isVisible('#prompt')).toBe(true);
    for (const id of ['#default-widget', '#till-accepted-widget', '#till-responded-widget'])
      expect(await stateOf(page, id), id).toBeNull();

    await click(page, 'Decide later');
    await waitForState(page, '#till-responded-widget', 'loaded');
    expect(await stateOf(page, '#till-accepted-widget')).toBeNull();
    expect(await stateOf(page, '#default-widget')).toBeNull();

    await click(page, 'Privacy settings');
    await click(page, 'Accept');
    await waitForState(page, '#default-widget', 'loaded');
    await waitForState(page, '#till-accepted-widget', 'loaded');
    await page.waitForFunction(
      () => document.querySelector('[data-policy-state="_till_accepted"]')?.textContent === 'sufficient',
    );

    // Reject afterwards: what needs acceptance is removed, what needed an answer stays.
    await click(page, 'Privacy settings');
    await click(page, 'Reject');
    await waitForState(page, '#default-widget', 'removed');
    await waitForState(page, '#till-accepted-widget', 'removed');
    expect(await stateOf(page, '#till-responded-widget')).toBe('loaded');
    expect(problems(test)).toEqual([]);
  });
});

describe('text/plain scripts example', () => {
  it('runs _till_responded on any answer, the others in order after accept, and all at once on a reload', async () => {
    const test = await open('text-plain.html');
    const { page } = test;
    const log = () => page.$$eval('#script-log li', (items) => items.map((item) => item.textContent));
    await shown(page, '#prompt');
    expect(await log()).toEqual([]);
    await click(page, 'Decide later');
    await page.waitForSelector('#script-log li');
    expect(await log()).toEqual(['Consent-aware script ran after an answer (_till_responded)']);

    await click(page, 'Privacy settings');
    await click(page, 'Accept');
    await page.waitForFunction(() => document.querySelectorAll('#script-log li').length === 5);
    expect(await log()).toEqual([
      'Consent-aware script ran after an answer (_till_responded)',
      'Inline analytics snippet ran (data-block-on-consent)',
      'External tag tag.js loaded',
      'Script after the tag ran; the tag had loaded: true',
      'Module script ran (data-type="module"): string',
    ]);

    // Reload: the cached decision runs them at once, no prompt. (The page's idle work after the
    // decision first finishes: a request the reload cuts off would read as failed.)
    await settled(page);
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll('#script-log li').length === 5);
    expect(await page.isVisible('#prompt')).toBe(false);
    expect(problems(test)).toEqual([]);
  });
});

describe('auto ads example', () => {
  it.each([
    ['desktop', { width: 1000, height: 800 }],
    ['mobile', { width: 360, height: 640 }],
  ])('places fake ads through the article from the demo config (%s)', async (_name, viewport) => {
    const test = await open('auto-ads.html', viewport);
    const { page } = test;
    await page.waitForFunction(() => document.getElementById('ads-placed')?.textContent !== 'none yet', null, {
      timeout: 20_000,
    });
    const ads = await page.$$eval('article page-ad', (elements) =>
      elements.map((ad) => ({
        top: ad.getBoundingClientRect().top + scrollY,
        height: ad.getBoundingClientRect().height,
      })),
    );
    expect(ads.length).toBeGreaterThanOrEqual(3);
    expect(ads.length).toBeLessThanOrEqual(6);
    expect(await page.textContent('#ads-placed')).toBe(`${ads.length} placed, ${ads.length} on the page`);
    for (const ad of ads) {
      expect(ad.height).toBe(250);
      expect(ad.top).toBeGreaterThanOrEqual(viewport.height);
    }
    const tops = ads.map((ad) => ad.top).sort((a, b) => a - b);
    for (let i = 1; i < tops.length; i++)
      expect(tops[i]! - (tops[i - 1]! + 250)).toBeGreaterThanOrEqual(viewport.height);
    expect(await page.isVisible('page-ad[sticky="bottom"] .page-fake-ad')).toBe(true);
    await page.locator('article page-ad').first().scrollIntoViewIfNeeded();
    await page.waitForSelector('article page-ad .page-fake-ad', { state: 'visible' });
    expect(problems(test)).toEqual([]);
  });

  it('draws the debug overlay with #page-ads-debug, and not without', async () => {
    const test = await open('auto-ads.html#page-ads-debug');
    const { page } = test;
    await page.waitForSelector('page-ads-debug pre', { timeout: 20_000 });
    const panel = await page.textContent('page-ads-debug pre');
    expect(panel).toContain('max 6');
    expect(panel).toContain('spacing: 1vp, from 3 ads 2vp, from 6 ads 3vp');
    expect(
      await page.$$eval(
        'page-ads-debug span',
        (spans) => spans.filter((span) => span.textContent?.trim().endsWith(' placed')).length,
      ),
    ).toBeGreaterThanOrEqual(3);

    await page.getByRole('link', { name: 'hide it' }).click();
    await page.waitForFunction(() => document.getElementById('ads-placed')?.textContent !== 'none yet', null, {
      timeout: 20_000,
    });
    expect(await page.$('page-ads-debug')).toBeNull();
    expect(problems(test)).toEqual([]);
  });
});

describe('auto ads experiment example', () => {
  it("puts the reader in one arm, keeps it on reload, and the page view's counts reach the admin", async () => {
    type Arms = {
      experiments: { experiment: string; arms: { arm: string; pageViews: number; meanLayoutShift: number }[] }[];
    };
    // The server's store may hold views of earlier runs: only the two of this test are counted.
    const viewsOf = async (arm: string) => {
      const { experiments } = (await (await admin('ads-experiments/demo')).json()) as Arms;
      return experiments.find((e) => e.experiment === 'ads-per-page')?.arms.find((a) => a.arm === arm);
    };
    const before = {
      'three-no-anchor': (await viewsOf('three-no-anchor'))?.pageViews ?? 0,
      'five-with-anchor': (await viewsOf('five-with-anchor'))?.pageViews ?? 0,
    };
    const test = await open('experiment.html');
    const { page } = test;
    const placed = () =>
      page.waitForFunction(() => document.querySelectorAll('article page-ad').length > 0, null, { timeout: 20_000 });
    await placed();
    const shape = () =>
      page.evaluate(() => ({
        inContent: document.querySelectorAll('article page-ad').length,
        anchor: document.querySelectorAll('page-ad[sticky]').length,
      }));
    const first = await shape();
    // three-no-anchor or five-with-anchor (at most five ads in all, the anchor ad among them).
    expect([0, 1]).toContain(first.anchor);
    expect(first.inContent + first.anchor).toBeLessThanOrEqual(first.anchor ? 5 : 3);
    await page.reload();
    await placed();
    expect((await shape()).anchor).toBe(first.anchor);
    await page.goto(`${server.url}/examples/`);
    const arm = first.anchor ? 'five-with-anchor' : 'three-no-anchor';
    let views = 0;
    for (let tries = 0; tries < 100 && views < 2; tries++) {
      views = ((await viewsOf(arm))?.pageViews ?? 0) - before[arm];
      if (views < 2) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(views).toBe(2);
    expect(problems(test)).toEqual([]);
  });
});

describe('built-in elements example', () => {
  it('builds the elements and runs the actions', async () => {
    const test = await open('builtins.html');
    const { page } = test;
    await page.waitForSelector('page-img img');
    await page.waitForSelector('page-ad .page-fake-ad');
    await page.waitForSelector('page-iframe iframe');
    await click(page, 'Add one');
    await page.locator('#counter-box').press('Enter');
    await page.waitForFunction(() => document.getElementById('counter')?.textContent === '11');
    expect(problems(test)).toEqual([]);
  });
});

describe('hosted CMP iframe example', () => {
  it('records per-purpose choices made in the hosted prompt and builds by purpose', async () => {
    const test = await open('cmp-iframe.html');
    const { page } = test;
    await shown(page, '.page-consent-frame iframe');
    const frame = page.frameLocator('.page-consent-frame iframe');
    await frame.getByRole('button', { name: 'Customize' }).click();
    // The frame goes full screen and draws its second layer: click its switch once both are done.
    await page.waitForSelector('.page-consent-frame-full');
    await frame.getByRole('switch', { name: 'measurement' }).waitFor();
    await settled(page);
    await frame.getByRole('switch', { name: 'measurement' }).check();
    const update = page.waitForResponse((response) => response.url().endsWith('/consent/update'));
    await frame.getByRole('button', { name: 'Save choices' }).click();
    expect((await update).status()).toBe(200);
    await waitForState(page, 'example-widget[data-name="Audience measurement"]', 'loaded');
    expect(await stateOf(page, 'example-widget[data-name="Ads"]')).not.toBe('loaded');
    const records = (await (await admin('instances/examples-cmp/export?format=ndjson')).text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records.at(-1)).toMatchObject({ state: 'accepted', purposeConsents: { measurement: true, ads: false } });
    expect(problems(test)).toEqual([]);
  });
});

describe('hosted CMP iframe example, its Try steps', () => {
  it('gives the sheet focus as it shows, brings focus back from the page, and reopens on the stored choices', async () => {
    const test = await open('cmp-iframe.html');
    const { page } = test;
    await shown(page, '.page-consent-frame iframe');
    const frameHasFocus = () => page.evaluate(() => document.activeElement?.localName === 'iframe');
    await expect.poll(frameHasFocus).toBe(true);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.getByRole('button', { name: 'Go to the privacy choices', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(frameHasFocus).toBe(true);
    const frame = page.frameLocator('.page-consent-frame iframe');
    await frame.getByRole('button', { name: 'Customize' }).click();
    await page.waitForSelector('.page-consent-frame-full');
    await frame.getByRole('switch', { name: 'measurement' }).waitFor();
    await settled(page);
    await frame.getByRole('switch', { name: 'measurement' }).check();
    await frame.getByRole('button', { name: 'Save choices' }).click();
    await waitForState(page, 'example-widget[data-name="Audience measurement"]', 'loaded');
    await click(page, 'Privacy settings');
    await shown(page, '.page-consent-frame iframe');
    // A reader who decided before is shown the second layer at once, on the stored choices.
    const reopened = page.frameLocator('.page-consent-frame iframe');
    await expect.poll(() => reopened.getByRole('switch', { name: 'measurement' }).isChecked()).toBe(true);
    expect(await reopened.getByRole('switch', { name: 'ads' }).isChecked()).toBe(false);
    expect(problems(test)).toEqual([]);
  });
});

describe('hosted TCF prompt example', () => {
  it('shows the TC string and the TCData a vendor reads after Accept all, and reopens on the second layer', async () => {
    const test = await open('hosted-cmp.html');
    const { page } = test;
    await shown(page, '.page-consent-frame iframe');
    const frame = page.frameLocator('.page-consent-frame iframe');
    await frame.getByRole('button', { name: 'Accept all', exact: true }).click();
    await waitForState(page, 'example-widget[data-name="Ads"]', 'loaded');
    await waitForState(page, 'example-widget[data-name="Audience measurement"]', 'loaded');
    await page.waitForFunction(() => /^TC string: C/.test(document.getElementById('tc-string')?.textContent ?? ''));
    const shownString = (await page.textContent('#tc-string'))!.replace('TC string: ', '');
    // The string the page shows is the one __tcfapi gives, and it decodes to the reader's accept.
    const read = await page.evaluate(
      () =>
        new Promise<string>((resolve) =>
          (
            window as unknown as { __tcfapi: (c: string, v: number, cb: (d: { tcString: string }) => void) => void }
          ).__tcfapi('getTCData', 2, (data) => resolve(data.tcString)),
        ),
    );
    expect(shownString).toBe(read);
    const decoded = TCString.decode(shownString);
    expect(decoded.cmpId).toBe(300);
    expect(idsOf(decoded.purposeConsents).length).toBeGreaterThan(0);
    await shown(page, '#tc-data');
    expect(await page.textContent('#tc-data')).toContain('purpose.consents');
    await click(page, 'Privacy settings');
    await frame.getByRole('button', { name: 'Save choices', exact: true }).waitFor();
    expect(problems(test)).toEqual([]);
  });
});

describe('hosted TCF prompt example, its Try steps', () => {
  it('finds a partner by the labelled search, shows its details with each link once, and saves the switched choices that the page and the reopened prompt show', async () => {
    const test = await open('hosted-cmp.html');
    const { page } = test;
    await shown(page, '.page-consent-frame iframe');
    const frame = page.frameLocator('.page-consent-frame iframe');
    await frame.getByRole('button', { name: 'Customize', exact: true }).click();
    await page.waitForSelector('.page-consent-frame-full');
    // The search by its visible label: one partner, the one with legitimate interest only.
    await frame.getByLabel('Search partners', { exact: true }).fill('placeholder');
    await expect.poll(() => frame.locator('#vendor-list .name').allTextContents()).toEqual(['Placeholder Measurement']);
    expect(await frame.locator('.vendors .status').textContent()).toBe('Partners: 1');
    const row = frame.locator('#vendor-list li');
    expect(await row.getByRole('switch').count(), 'a vendor with no consent purpose has no consent switch').toBe(1);
    const objection = frame.getByRole('switch', { name: 'Placeholder Measurement Legitimate interest', exact: true });
    expect(await objection.isChecked()).toBe(true);
    await row.getByText('Details', { exact: true }).click();
    const terms = row.locator('dt');
    await terms.first().waitFor();
    expect(await terms.allTextContents()).toEqual([
      'Legitimate interest',
      'Special purposes',
      'Features',
      'Data collected',
      'Retention',
      'Device storage',
      'Privacy policy',
    ]);
    // Each link once, under its term: the claim beside the purposes it is made for.
    const links = await row
      .locator('dd a')
      .evaluateAll((anchors) =>
        anchors.map((a) => [a.parentElement?.previousElementSibling?.textContent, (a as HTMLAnchorElement).href]),
      );
    expect(links).toEqual([
      ['Legitimate interest', 'https://vendor25.example/legitimate-interest'],
      ['Privacy policy', 'https://vendor25.example/privacy'],
    ]);
    // Switch a legitimate interest off, a partner's consent and a purpose on, then save.
    await objection.uncheck();
    await frame.getByLabel('Search partners', { exact: true }).fill('');
    await frame.getByRole('switch', { name: 'Sample Analytics Consent', exact: true }).check();
    await frame.getByRole('switch', { name: 'Measure content performance Consent', exact: true }).check();
    await frame.getByRole('button', { name: 'Save choices', exact: true }).click();
    await page.waitForFunction(() => /^TC string: C/.test(document.getElementById('tc-string')?.textContent ?? ''));
    const read = (await page.textContent('#tc-data'))!;
    expect(read).toContain('purpose.consents: [8]');
    expect(read).toContain('vendor.consents: [2]');
    expect(read).not.toMatch(/vendor\.legitimateInterests: \[[^\]]*\b25\b/);
    // Reopened on the second layer, the stored choices decoded from the TC string.
    await click(page, 'Privacy settings');
    const reopened = page.frameLocator('.page-consent-frame iframe');
    const analytics = reopened.getByRole('switch', { name: 'Sample Analytics Consent', exact: true });
    await expect.poll(() => analytics.isChecked()).toBe(true);
    expect(
      await reopened.getByRole('switch', { name: 'Measure content performance Consent', exact: true }).isChecked(),
    ).toBe(true);
    await reopened.getByLabel('Search partners', { exact: true }).fill('placeholder');
    expect(
      await reopened
        .getByRole('switch', { name: 'Placeholder Measurement Legitimate interest', exact: true })
        .isChecked(),
    ).toBe(false);
    expect(problems(test)).toEqual([]);
  });
});

describe('story consent example', () => {
  it('accepts by keyboard alone, builds the widget, and reopens from Privacy settings', async () => {
    const test = await open('story-consent.html');
    const { page } = test;
    await shown(page, 'page-story-consent');
    // From the dialog: the policy link, Decline, Accept.
    for (let step = 0; step < 3; step++) await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Accept');
    await page.keyboard.press('Enter');
    await waitForState(page, 'example-widget', 'loaded');
    expect(await page.isVisible('page-story-consent')).toBe(false);
    await click(page, 'Privacy settings');
    await shown(page, 'page-story-consent');
    expect(problems(test)).toEqual([]);
  });
});

describe('prebid example', () => {
  it('shows the bidder a TC string with the accepted vendors after accept, and a new one after a change in the privacy settings', async () => {
    const test = await open('prebid.html');
    const { page } = test;
    await shown(page, '#prompt');
    await click(page, 'Accept');
    const newest = (attribute: string) => page.getAttribute(`#auctions > li:first-child [${attribute}]`, attribute);
    await expect.poll(() => page.locator('#auctions > li').count(), { timeout: 20_000 }).toBe(1);
    const accepted = TCString.decode((await newest('data-tc-string'))!);
    expect([accepted.cmpId, idsOf(accepted.vendorConsents), idsOf(accepted.purposeConsents).length]).toEqual([
      10,
      [1, 2, 8],
      11,
    ]);
    expect(await newest('data-vendors')).toBe('1, 2, 8');
    expect(await newest('data-gpp')).toContain('sections [2]');
    await click(page, 'Privacy settings');
    await click(page, 'Measurement only');
    await expect.poll(() => page.locator('#auctions > li').count(), { timeout: 20_000 }).toBe(2);
    const changed = TCString.decode((await newest('data-tc-string'))!);
    expect([idsOf(changed.vendorConsents), idsOf(changed.purposeConsents)]).toEqual([[2], [1, 5, 6, 7, 8, 9, 10, 11]]);
    await click(page, 'Privacy settings');
    await click(page, 'Reject');
    await expect.poll(() => page.locator('#auctions > li').count(), { timeout: 20_000 }).toBe(3);
    const rejected = TCString.decode((await newest('data-tc-string'))!);
    expect([idsOf(rejected.vendorConsents), idsOf(rejected.purposeConsents), idsOf(rejected.vendorsDisclosed)]).toEqual(
      [[], [], [1, 2, 8, 25, 91]],
    );
    expect(await newest('data-vendors')).toBe('none');
    expect(problems(test)).toEqual([]);
  });
});

describe('ad signals example, its Try steps', () => {
  it('tells the TCF listener useractioncomplete and dataLayer an update on Accept, and cmpuishown on Privacy settings', async () => {
    const test = await open('ad-signals.html');
    const { page } = test;
    await shown(page, '#prompt');
    await click(page, 'Accept');
    await page.waitForFunction(() =>
      (document.getElementById('tcf-events')?.textContent ?? '').includes('useractioncomplete'),
    );
    await page.waitForFunction(() =>
      /"consent","update"/.test(document.getElementById('data-layer')?.textContent ?? ''),
    );
    await click(page, 'Privacy settings');
    await page.waitForFunction(() => (document.getElementById('tcf-events')?.textContent ?? '').includes('cmpuishown'));
    expect(problems(test)).toEqual([]);
  });
});

describe('ad signals example', () => {
  it('tells a blocked creative its consent in its URL and in the postMessage reply, once accepted', async () => {
    const test = await open('ad-signals.html');
    const { page } = test;
    await shown(page, '#prompt');
    expect(await page.$$eval('page-ad iframe', (frames) => frames.length)).toBe(0);
    await click(page, 'Accept');
    const creative = async () => page.frames().find((frame) => frame.url().includes('creative-consent.html'));
    await expect.poll(async () => (await creative()) !== undefined, { timeout: 15_000 }).toBe(true);
    const frame = (await creative())!;
    expect(new URL(frame.url()).searchParams.get('state')).toBe('accepted');
    await expect.poll(() => frame.textContent('#reply'), { timeout: 15_000 }).toContain('"consentState":"accepted"');
    expect(await frame.textContent('#reply')).toContain('"gdpr":"1"');
    await expect.poll(() => page.textContent('#gpp-status')).toContain('signalStatus ready');
    expect(await page.textContent('#usp-status')).toContain('no US privacy string');
    await expect.poll(() => page.textContent('#tcf-events')).toContain('useractioncomplete');
    expect(problems(test)).toEqual([]);
  });
});
