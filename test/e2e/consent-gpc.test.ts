/** Global Privacy Control (docs/consent.md, "Global Privacy Control") in Chromium: `navigator.globalPrivacyControl` set per page. */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { builtProbes, consentPage, isShown, storedValues, useConsentFixture } from './consent-fixtures.ts';
import { newPage, settled } from './harness.ts';

const fixture = useConsentFixture();

/** The probes a rejection builds: open, and the policies that need only an answer. */
const REJECTED = ['open', 'till-responded', 'auto-reject'];

let count = 0;
/** A page with `config` (CHECK and UPDATE replaced by this page's paths), GPC on or off. */
async function open(config: Record<string, unknown>, hasGpc: boolean) {
  const n = ++count;
  const checkPath = `/gpc-check-${n}`;
  const updatePath = `/gpc-update-${n}`;
  fixture.server.route(checkPath, { body: { consentRequired: true, consentStateValue: 'unknown' } });
  fixture.server.route(updatePath, { status: 204 });
  const full = JSON.parse(
    JSON.stringify({
      consentInstanceId: 'site',
      promptUI: 'prompt',
      postPromptUI: 'post',
      onUpdateHref: 'UPDATE',
      ...config,
    })
      .replaceAll('CHECK', checkPath)
      .replaceAll('UPDATE', updatePath),
  );
  const path = `/gpc-${n}.html`;
  fixture.server.page(path, consentPage(full));
  const test = await newPage(fixture.browser);
  if (hasGpc)
    await test.page.addInitScript(() =>
      Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }),
    );
  await test.page.goto(fixture.server.origin + path);
  await test.page.waitForSelector('page-consent.page-built', { state: 'attached' });
  return { ...test, checkPath, updatePath };
}

const lastEvent = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { consentEvents: { state: string; consentMetadata?: object }[] }).consentEvents.at(-1),
  );

describe('Global Privacy Control with "gpc": "reject"', () => {
  it('rejects without a prompt, keeps blocked elements blocked, stores and posts nothing, and tells the server', async () => {
    const { page, checkPath, updatePath } = await open(
      { checkConsentHref: 'CHECK', consentRequired: 'remote', gpc: 'reject' },
      true,
    );
    await expect.poll(() => lastEvent(page)).toMatchObject({ state: 'rejected', consentMetadata: { gpc: true } });
    await expect.poll(() => builtProbes(page)).toEqual(REJECTED);
    await settled(page);
    expect(await builtProbes(page)).toEqual(REJECTED);
    expect(await isShown(page, '#prompt')).toBe(false);
    expect(await storedValues(page)).not.toHaveProperty('consent:site');
    expect(fixture.server.requestsTo(updatePath)).toEqual([]);
    expect(fixture.server.requestsTo(checkPath).map((request) => JSON.parse(request.body))).toEqual([
      expect.objectContaining({ consentStateValue: 'unknown', gpc: true }),
    ]);
  });

  it('prompts as before when the browser sends no GPC', async () => {
    const { page, checkPath } = await open(
      { checkConsentHref: 'CHECK', consentRequired: 'remote', gpc: 'reject' },
      false,
    );
    await expect.poll(() => isShown(page, '#prompt')).toBe(true);
    expect(JSON.parse(fixture.server.requestsTo(checkPath)[0]!.body)).not.toHaveProperty('gpc');
  });

  it('lets the post-prompt decide: an explicit accept wins, is stored and posted, and holds on the next visit', async () => {
    const { page, updatePath } = await open({ consentRequired: true, gpc: 'reject' }, true);
    await expect.poll(() => isShown(page, '#post')).toBe(true);
    expect(await isShown(page, '#prompt')).toBe(false);
    await page.click('#manage');
    await expect.poll(() => isShown(page, '#prompt')).toBe(true);
    await page.click('#accept');
    await expect.poll(() => builtProbes(page)).toHaveLength(5);
    expect(await storedValues(page)).toMatchObject({ 'consent:site': { version: 2, state: 'accepted' } });
    await expect.poll(() => fixture.server.requestsTo(updatePath).length).toBe(1);
    expect(JSON.parse(fixture.server.requestsTo(updatePath)[0]!.body)).toMatchObject({ consentStateValue: 'accepted' });
    await page.reload();
    await page.waitForSelector('page-consent.page-built', { state: 'attached' });
    await expect.poll(() => lastEvent(page)).toMatchObject({ state: 'accepted' });
    expect((await lastEvent(page))?.consentMetadata).toBeUndefined();
  });
});
