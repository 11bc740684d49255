/**
 * The first hour (README.md, "Set up and run"): the built server started as `npm start` starts it,
 * with no setting but a free port and a throwaway database (development defaults,
 * docs/server.md), runs the example pages as they say: the Prebid example's auction after
 * Accept, a TC string on the signals example, the hosted prompts' purposes by name with their
 * partner count, the hosted example's TC string and its getTCData after a decision; no console
 * error and no failed request on the way.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer } from '../server/server-process.ts';
import { launchBrowser, newPage, type TestPage } from './harness.ts';

let browser: Browser;
let server: ServerProcess;
let dir = '';
const opened: { test: TestPage; failed: string[] }[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'page-first-hour-'));
  // HOST as npm start has it (the helper's default is 127.0.0.1); no ADMIN_TOKEN, no TCF_VENDOR_LIST.
  server = await startServer({ HOST: 'localhost', DATABASE_URL: `sqlite:${join(dir, 'page.db')}` }, 50_000);
  browser = await launchBrowser();
});
afterEach(async () => {
  for (const { test } of opened.splice(0)) await test.context.close();
});
afterAll(async () => {
  await browser?.close();
  server?.child.kill('SIGTERM');
  await server?.exited();
  rmSync(dir, { recursive: true, force: true });
});

async function open(path: string) {
  const test = await newPage(browser, { viewport: { width: 1000, height: 800 } });
  const failed: string[] = [];
  test.context.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
  test.context.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.url()}: ${response.status()}`);
  });
  opened.push({ test, failed });
  await test.page.goto(`${server.url}/examples/${path}`);
  return { ...test, failed };
}

const problems = ({ messages, errors }: TestPage) => [
  ...messages.filter((m) => m.type === 'error').map((m) => m.text),
  ...errors,
];

describe('npm start with no setting', () => {
  it('prints the admin URL with a generated token and labels the fixture vendor list', async () => {
    // The server logs the admin URL just after its listening line, which is all `startServer` waits for.
    const log = () => server.lines.join('\n');
    await expect.poll(log).toMatch(/admin dashboard: http:\/\/localhost:\d+\/admin\/#token=[A-Za-z0-9_-]{32}/);
    expect(log()).toContain('fixtures/tcf/vendor-list.json, a FIXTURE');
  });

  it('runs an auction on the Prebid example after Accept, with a TC string', async () => {
    const test = await open('prebid.html');
    await test.page.waitForSelector('#prompt', { state: 'visible' });
    await test.page.getByRole('button', { name: 'Accept', exact: true }).click();
    await expect.poll(() => test.page.locator('#auctions > li').count(), { timeout: 20_000 }).toBe(1);
    expect(await test.page.getAttribute('#auctions > li:first-child [data-tc-string]', 'data-tc-string')).toMatch(
      /^C[A-Za-z0-9_-]{20,}/,
    );
    expect(await test.page.textContent('#prebid-status')).toBe('Prebid.js: 1 auction, the newest first');
    expect(problems(test)).toEqual([]);
    expect(test.failed).toEqual([]);
  });

  it('gives the signals example a TC string after Accept', async () => {
    const test = await open('ad-signals.html');
    await test.page.waitForSelector('#prompt', { state: 'visible' });
    await test.page.getByRole('button', { name: 'Accept', exact: true }).click();
    await expect
      .poll(() => test.page.textContent('#tcf-events'), { timeout: 15_000 })
      .toMatch(/useractioncomplete \(gdprApplies true, tcString "C[A-Za-z0-9_.-]+"\)/);
    expect(problems(test)).toEqual([]);
    expect(test.failed).toEqual([]);
  });

  it("shows the TC string and what __tcfapi('getTCData') reads from it below the hosted prompt, after Accept all", async () => {
    const test = await open('hosted-cmp.html');
    expect(await test.page.textContent('#tc-string')).toBe('TC string: waiting for a decision');
    await test.page.waitForSelector('.page-consent-frame iframe', { state: 'visible' });
    const update = test.page.waitForResponse((response) => response.url().endsWith('/consent/update'));
    await test.page.frameLocator('.page-consent-frame iframe').locator('#accept').click();
    expect((await update).status()).toBe(200);
    await expect
      .poll(() => test.page.textContent('#tc-string'), { timeout: 15_000 })
      .toMatch(/^TC string: C[A-Za-z0-9_.-]{20,}$/);
    const read = await test.page.textContent('#tc-data');
    expect(read).toContain('cmpId: 300');
    expect(read).toContain('publisherCC: "DE"');
    expect(read).toMatch(/vendor\.consents: \[1,2,8,/);
    expect(await test.page.isVisible('#tc-data')).toBe(true);
    expect(problems(test)).toEqual([]);
    // The frame's outcome beacon is sent as the frame is removed, and the update (answered 200
    // above) is a keepalive request: the browser may report either as aborted.
    expect(test.failed.filter((line) => !/\/cmp\/outcome\?|\/consent\/update: net::ERR_ABORTED$/.test(line))).toEqual(
      [],
    );
  });

  it.each([
    ['hosted-cmp.html', /^View our partners \(5\)$/],
    ['cmp-iframe.html', /^View our partners \(3\)$/],
  ])('lists the purposes of %s by name, with the partner count', async (name, partners) => {
    const test = await open(name);
    await test.page.waitForSelector('.page-consent-frame iframe', { state: 'visible' });
    const frame = test.page.frameLocator('.page-consent-frame iframe');
    await frame.locator('#summary li').first().waitFor();
    const items = await frame.locator('#summary li').allTextContents();
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) expect(item, 'a raw purpose key').not.toMatch(/^(ads|measurement)$/);
    if (name === 'cmp-iframe.html') expect(items).toEqual(['Audience measurement', 'Personalised ads']);
    expect((await frame.locator('#vendor-line').textContent())?.trim()).toMatch(partners);
    expect(problems(test)).toEqual([]);
    expect(test.failed).toEqual([]);
  });
});

describe('a returning reader on the reference server', () => {
  it('requests none of our files again with a warm cache, and starts what the decision allows', async () => {
    const test = await open('consent-client.html');
    await test.page.getByRole('button', { name: 'Accept', exact: true }).click();
    await test.page.waitForSelector('example-widget.page-built', { state: 'attached' });
    // The return record is written at idle after the decision.
    await test.page.waitForFunction(() => Object.keys(localStorage).some((name) => name.startsWith('page-return:')));
    await test.page.goto(`${server.url}/examples/consent-client.html`);
    await test.page.waitForSelector('example-widget.page-built', { state: 'attached' });
    // The element's set-up comes after load, at idle: its parts were cached by the first page too.
    await test.page.waitForSelector('#settings:not([hidden])', { state: 'attached' });
    // Our files as the page got them: a file taken from the HTTP cache transfers nothing.
    const ours = await test.page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry as PerformanceResourceTiming)
        .filter((entry) => /\/v0(\.js|\/)/.test(new URL(entry.name).pathname))
        .map((entry) => [new URL(entry.name).pathname, entry.transferSize]),
    );
    expect(ours.length).toBeGreaterThan(2);
    expect(ours.filter(([, size]) => size !== 0)).toEqual([]);
    expect(problems(test)).toEqual([]);
    expect(test.failed).toEqual([]);
  });
});
