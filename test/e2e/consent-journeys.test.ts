import { describe, expect, it } from 'vitest';
import {
  builtProbes,
  consentPage,
  isShown,
  POST_PROMPT,
  probe,
  requestedProbes,
  storedValues,
  useConsentFixture,
} from './consent-fixtures.ts';
import { newPage, settled } from './harness.ts';

const fixture = useConsentFixture();

const CLIENT = { consentInstanceId: 'site', consentRequired: true, promptUI: 'prompt', postPromptUI: 'post' };
const ALL = ['open', 'default', 'till-accepted', 'till-responded', 'auto-reject'];

let pageCount = 0;
async function open(config: object, options = {}) {
  const path = `/journey-${++pageCount}.html`;
  fixture.server.page(path, consentPage(config, options));
  const test = await newPage(fixture.browser);
  await test.page.goto(fixture.server.origin + path);
  await test.page.waitForSelector('page-consent.page-built', { state: 'attached' });
  return { ...test, path };
}

const events = (page: import('playwright-core').Page) =>
  page.evaluate(() => (window as unknown as { consentEvents: unknown[] }).consentEvents);

describe('consent journeys', () => {
  it('builds only unblocked and _auto_reject elements before a decision, and requests nothing else', async () => {
    const { page } = await open(CLIENT);
    await expect.poll(() => isShown(page, '#prompt')).toBe(true);
    await expect.poll(() => builtProbes(page)).toEqual(['open', 'auto-reject']);
    await settled(page);
    expect(requestedProbes(fixture.server).filter((id) => !['open', 'auto-reject'].includes(id!))).toEqual([]);
    expect(await isShown(page, '#post')).toBe(false);
  });

  it('accepts: unblocks every policy, hides the prompt, shows the post-prompt and caches accepted', async () => {
    const { page } = await open(CLIENT);
    await page.click('#accept');
    await expect.poll(() => builtProbes(page)).toEqual(ALL);
    expect(await isShown(page, '#prompt')).toBe(false);
    expect(await isShown(page, '#post')).toBe(true);
    expect((await storedValues(page))['consent:site']).toEqual({
      version: 2,
      state: 'accepted',
      time: expect.any(Number),
      purposeConsents: {},
    });
    expect(await events(page)).toContainEqual({ state: 'accepted', purposeConsents: {} });
  });

  it('rejects: only _till_responded and _auto_reject build, and rejected is cached', async () => {
    const { page } = await open(CLIENT);
    await page.click('#reject');
    await expect.poll(() => builtProbes(page)).toEqual(['open', 'till-responded', 'auto-reject']);
    expect(await isShown(page, '#prompt')).toBe(false);
    expect((await storedValues(page))['consent:site']).toMatchObject({ state: 'rejected' });
    expect(await events(page)).toContainEqual({ state: 'rejected', purposeConsents: {} });
  });

  it('dismisses: _till_responded builds, nothing is cached, the post-prompt shows', async () => {
    const { page } = await open(CLIENT);
    await page.click('#dismiss');
    await expect.poll(() => builtProbes(page)).toEqual(['open', 'till-responded', 'auto-reject']);
    expect(await isShown(page, '#post')).toBe(true);
    expect((await storedValues(page))['consent:site']).toBeUndefined();
    expect(await events(page)).toContainEqual({ state: 'dismissed', purposeConsents: {} });
  });

  it('re-shows the prompt from the post-prompt and builds blocked elements on a later accept, without reload', async () => {
    const { page } = await open(CLIENT);
    await page.click('#reject');
    await expect.poll(() => isShown(page, '#post')).toBe(true);
    await page.click('#manage');
    expect(await isShown(page, '#prompt')).toBe(true);
    expect(await isShown(page, '#post')).toBe(false);
    await page.click('#accept');
    await expect.poll(() => builtProbes(page)).toEqual(ALL);
    expect((await storedValues(page))['consent:site']).toMatchObject({ state: 'accepted' });
  });

  it('removes what was built when the user withdraws consent', async () => {
    const { page } = await open(CLIENT);
    await page.click('#accept');
    await expect.poll(() => builtProbes(page)).toEqual(ALL);
    await page.click('#manage');
    await page.click('#reject');
    await expect.poll(() => builtProbes(page)).toEqual(['open', 'till-responded', 'auto-reject']);
  });

  it('keeps the decision across a reload: no prompt, blocked elements build at once', async () => {
    const { page } = await open(CLIENT);
    await page.click('#accept');
    await expect.poll(() => builtProbes(page)).toEqual(ALL);
    await page.reload();
    await page.waitForSelector('page-consent.page-built', { state: 'attached' });
    await expect.poll(() => builtProbes(page)).toEqual(ALL);
    expect(await isShown(page, '#prompt')).toBe(false);
    expect(await isShown(page, '#post')).toBe(true);
  });

  it('ignores accept and reject while no prompt is shown', async () => {
    const { page } = await open(
      { ...CLIENT, consentRequired: false },
      { body: `${probe('default', 'data-block-on-consent')}<button id="outside" on="tap:consent.reject">x</button>` },
    );
    await expect.poll(() => builtProbes(page)).toEqual(['default']);
    await page.click('#outside');
    await settled(page);
    expect((await storedValues(page))['consent:site']).toBeUndefined();
    expect(await builtProbes(page)).toEqual(['default']);
  });

  it('chooses purposes with setPurpose, merges them with accept and blocks on purposes', async () => {
    const inside = `<div id="prompt">
        <button id="ads-yes" on="tap:consent.setPurpose(ads=true)">Ads</button>
        <button id="video-no" on="tap:consent.setPurpose(video=false)">No video</button>
        <button id="accept" on="tap:consent.accept">Save</button>
      </div>${POST_PROMPT}`;
    const body = [
      probe('ads', 'data-block-on-consent-purposes="ads"'),
      probe('video', 'data-block-on-consent-purposes="video"'),
      probe('both', 'data-block-on-consent-purposes="ads, video"'),
    ].join('');
    const { page } = await open({ ...CLIENT, purposeConsentRequired: ['ads', 'video'] }, { inside, body });
    await page.click('#ads-yes');
    await page.click('#video-no');
    await settled(page);
    expect(await builtProbes(page)).toEqual([]);
    await page.click('#accept');
    await expect.poll(() => builtProbes(page)).toEqual(['ads']);
    expect((await storedValues(page))['consent:site']).toEqual({
      version: 2,
      state: 'accepted',
      time: expect.any(Number),
      purposeConsents: { ads: true, video: false },
    });
    expect(await events(page)).toContainEqual({ state: 'accepted', purposeConsents: { ads: true, video: false } });
  });

  it('fills purposes without a choice from purposeConsentDefault', async () => {
    const inside = `<div id="prompt"><button id="ads-yes" on="tap:consent.setPurpose(ads=true)">Ads</button>
      <button id="reject" on="tap:consent.reject(purposeConsentDefault=false)">Reject rest</button></div>`;
    const { page } = await open({ ...CLIENT, purposeConsentRequired: ['ads', 'video'] }, { inside, body: '' });
    await page.click('#ads-yes');
    await page.click('#reject');
    await expect
      .poll(async () => (await storedValues(page))['consent:site'])
      .toEqual({
        version: 2,
        state: 'rejected',
        time: expect.any(Number),
        purposeConsents: { ads: true, video: false },
      });
  });

  it('prompts again on the next visit until every required purpose has a choice', async () => {
    const { page } = await open({ ...CLIENT, purposeConsentRequired: ['ads'] }, { body: '' });
    await page.click('#accept');
    await page.reload();
    await page.waitForSelector('page-consent.page-built', { state: 'attached' });
    await expect.poll(() => isShown(page, '#prompt')).toBe(true);
  });
});
