/** Consent lifetime (docs/consent.md, "Consent lifetime") in Chromium with a controlled clock: expiry, kept purposes, renewal. */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtProbes, consentPage, isShown, probe, SVG, storedValues } from './consent-fixtures.ts';
import { launchBrowser, newPage, settled, startServer, type TestServer } from './harness.ts';

let browser: Browser;
let server: TestServer;

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 10, 12);
const BODY = [probe('default', 'data-block-on-consent'), probe('ads', 'data-block-on-consent-purposes="ads"')].join(
  '\n',
);

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startServer({
    '/img.svg': SVG,
    '/update': { body: { recorded: true, policyVersion: 1, receiptId: 'rcpt_e2e' } },
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

let count = 0;
/** A page whose consent is required on the client, with an onUpdateHref; opened at `T0`. */
async function openPage(config: object = {}) {
  const path = `/lifetime-${++count}.html`;
  const full = {
    consentInstanceId: `site-${count}`,
    consentRequired: true,
    promptUI: 'prompt',
    postPromptUI: 'post',
    onUpdateHref: `${server.origin}/update`,
    ...config,
  };
  server.page(path, consentPage(full, { body: BODY }));
  const test = await newPage(browser);
  await test.page.clock.setFixedTime(T0);
  await test.page.goto(server.origin + path);
  await test.page.waitForSelector('page-consent.page-built', { state: 'attached' });
  return { ...test, path, instance: `site-${count}` };
}

const reloadAt = async (page: Page, time: number) => {
  await page.clock.setFixedTime(time);
  await page.reload();
  await page.waitForSelector('page-consent.page-built', { state: 'attached' });
  await settled(page);
};
/** The onUpdateHref posts the server got for `instance`. */
const updatesOf = (instance: string) =>
  server.requestsTo('/update').filter((request) => JSON.parse(request.body).consentInstanceId === instance).length;

describe('consent lifetime in Chromium', () => {
  it('asks again after the lifetime: prompt shown, blocked elements stay blocked, expired: true, purposes offered', async () => {
    const { page, instance } = await openPage();
    await page.click('#accept');
    await page.waitForFunction(() => document.querySelectorAll('page-img img').length === 1);
    expect((await storedValues(page))[`consent:${instance}`]).toMatchObject({
      version: 2,
      state: 'accepted',
      time: T0,
    });
    await reloadAt(page, T0 + 391 * DAY);
    expect(await isShown(page, '#prompt')).toBe(true);
    expect(await builtProbes(page)).toEqual([]);
    const events = await page.evaluate(() => (window as unknown as { consentEvents: object[] }).consentEvents);
    expect(events.at(-1)).toMatchObject({ state: 'unknown', expired: true });
    await page.close();
  });

  it('keeps a decision within the lifetime of its state, and lets a refusal expire on its own lifetime', async () => {
    const { page, instance } = await openPage({ consentLifetimeDays: { accepted: 390, rejected: 30 } });
    await page.click('#reject');
    // Stored at T0 before the clock moves (a rejection unblocks nothing there is to wait for).
    await expect
      .poll(async () => (await storedValues(page))[`consent:${instance}`])
      .toMatchObject({ state: 'rejected', time: T0 });
    await reloadAt(page, T0 + 29 * DAY);
    expect(await isShown(page, '#prompt')).toBe(false);
    await reloadAt(page, T0 + 31 * DAY);
    expect(await isShown(page, '#prompt')).toBe(true);
    await page.close();
  });

  it('notifies onUpdateHref once when the same choice is renewed, and stores the new time and receipt', async () => {
    const { page, instance } = await openPage();
    await page.click('#accept');
    await page.waitForFunction(() => document.querySelectorAll('page-img img').length === 1);
    // The first accept's post may land after its image: wait for it before counting.
    await expect.poll(() => updatesOf(instance)).toBe(1);
    await reloadAt(page, T0 + 400 * DAY);
    expect(updatesOf(instance)).toBe(1);
    await page.click('#accept');
    await page.waitForFunction(() => document.querySelectorAll('page-img img').length === 1);
    await expect.poll(() => updatesOf(instance)).toBe(2);
    await settled(page);
    expect(updatesOf(instance)).toBe(2);
    const stored = await storedValues(page);
    expect(stored[`consent:${instance}`]).toMatchObject({ state: 'accepted', time: T0 + 400 * DAY });
    expect(stored[`consent-receipt:${instance}`]).toBe('rcpt_e2e');
    const receipt = await page.evaluate(
      () =>
        new Promise((resolve) =>
          (window as unknown as { PAGE: unknown[] }).PAGE.push(
            (p: { consent: { getReceipt(): Promise<string | null> } }) => p.consent.getReceipt().then(resolve),
          ),
        ),
    );
    expect(receipt).toBe('rcpt_e2e');
    await page.close();
  });

  it('offers the earlier purposes at once after an expiry without unblocking them', async () => {
    const { page, instance } = await openPage();
    await page.click('#accept');
    await page.waitForFunction(() => document.querySelectorAll('page-img img').length === 1);
    // Seed purposes into the stored decision, then come back after its lifetime.
    await page.evaluate(
      ({ key }) => {
        const text = localStorage.getItem(`page-store:${location.hostname}`)!;
        const store = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(text), (c) => c.charCodeAt(0))));
        store.values[key].purposeConsents = { ads: true };
        localStorage.setItem(
          `page-store:${location.hostname}`,
          btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(store)))),
        );
      },
      { key: `consent:${instance}` },
    );
    await reloadAt(page, T0 + 391 * DAY);
    const purposes = await page.evaluate(
      () =>
        new Promise((resolve) =>
          (window as unknown as { PAGE: unknown[] }).PAGE.push(
            (p: { consent: { getPurposeConsents(): Promise<unknown> } }) =>
              p.consent.getPurposeConsents().then(resolve),
          ),
        ),
    );
    expect(purposes).toEqual({ ads: true });
    expect(await builtProbes(page)).toEqual([]);
    await page.close();
  });
});
