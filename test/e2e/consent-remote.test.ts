import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  builtProbes,
  consentPage,
  diagnosticsOf,
  isShown,
  storedValues,
  useConsentFixture,
} from './consent-fixtures.ts';
import { fetchedAt, installClock, pauseClock, runUntil, shownAt } from './clock.ts';
import { newPage, type Reply, type Route, settled } from './harness.ts';

const fixture = useConsentFixture();

const ALL = ['open', 'default', 'till-accepted', 'till-responded', 'auto-reject'];
const UNDECIDED = ['open', 'auto-reject'];
const GEO = { ISOCountryGroups: { eea: ['preset-eea'], us: ['us'], other: ['mx', 'jp'], unknown: ['unknown'] } };

let count = 0;
/** A page whose checkConsentHref (`/check-N`) answers with `check`; returns the check path. */
async function open(
  config: Record<string, unknown>,
  check: Route | null,
  options: { hash?: string; update?: Route; clock?: boolean } = {},
) {
  const n = ++count;
  const checkPath = `/check-${n}`;
  const updatePath = `/update-${n}`;
  if (check) fixture.server.route(checkPath, check);
  fixture.server.route(updatePath, options.update ?? { status: 204 });
  const full = { promptUI: 'prompt', postPromptUI: 'post', ...config };
  const withUrls = JSON.parse(JSON.stringify(full).replaceAll('CHECK', checkPath).replaceAll('UPDATE', updatePath));
  const path = `/remote-${n}.html`;
  fixture.server.page(path, consentPage(withUrls, { geo: config.geoOverride ? GEO : undefined }));
  const test = await newPage(fixture.browser);
  if (options.clock) await installClock(test.page);
  await test.page.goto(fixture.server.origin + path + (options.hash ?? ''));
  await test.page.waitForSelector('page-consent.page-built', { state: 'attached' });
  return { ...test, checkPath, updatePath, path };
}

const bodies = (path: string) => fixture.server.requestsTo(path).map((request) => JSON.parse(request.body));
const consentOf = async (page: Page) => (await storedValues(page))['consent:site'];
const policyState = (page: Page, policy = 'default') =>
  page.evaluate(
    (id) =>
      new Promise((resolve) =>
        (
          self as unknown as {
            PAGE: { push(f: (p: { consent: { getPolicyState(id: string): Promise<unknown> } }) => void): void };
          }
        ).PAGE.push((p) => p.consent.getPolicyState(id).then(resolve)),
      ),
    policy,
  );

describe('geo flow examples (docs/consent.md, "How the decision is made")', () => {
  const config = {
    consentInstanceId: 'site',
    checkConsentHref: 'CHECK',
    consentRequired: 'remote',
    geoOverride: { us: { consentRequired: 'remote' }, unknown: { consentRequired: true } },
  };

  it('1. consentRequired false after the merge: nothing shown, everything unblocked', async () => {
    const { page, checkPath } = await open(
      { consentInstanceId: 'site', consentRequired: true, geoOverride: { other: { consentRequired: false } } },
      { body: { consentRequired: true } },
      { hash: '#page-geo=mx' },
    );
    await expect.poll(() => builtProbes(page)).toEqual(ALL);
    expect(await isShown(page, '#prompt')).toBe(false);
    expect(await isShown(page, '#post')).toBe(false);
    expect(fixture.server.requestsTo(checkPath)).toEqual([]);
    expect(await policyState(page)).toBe('unknown_not_required');
  });

  it('2. consentRequired true without checkConsentHref: prompt if and only if the cache is empty', async () => {
    const { page, checkPath } = await open(
      { consentInstanceId: 'site', consentRequired: false, geoOverride: { eea: { consentRequired: true } } },
      null,
      { hash: '#page-geo=de' },
    );
    await expect.poll(() => isShown(page, '#prompt')).toBe(true);
    await page.click('#accept');
    // Applied (and stored) before the next visit.
    await expect.poll(() => isShown(page, '#prompt')).toBe(false);
    await page.reload();
    await page.waitForSelector('page-consent.page-built', { state: 'attached' });
    await expect.poll(() => builtProbes(page)).toEqual(ALL);
    expect(await isShown(page, '#prompt')).toBe(false);
    expect(fixture.server.requestsTo(checkPath)).toEqual([]);
  });

  it('3. remote with an empty cache: waits for the server, prompts on required + unknown', async () => {
    // The answer is held until the test has seen the page waiting for it (the check sent, nothing shown).
    let answer = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    const reply = { body: { consentRequired: true, consentStateValue: 'unknown' } };
    const { page, checkPath } = await open(config, () => held.then(() => reply), { hash: '#page-geo=us' });
    await expect.poll(() => fixture.server.requestsTo(checkPath).length).toBe(1);
    expect(await isShown(page, '#prompt')).toBe(false);
    expect(await builtProbes(page)).toEqual(['open']);
    answer();
    await expect.poll(() => isShown(page, '#prompt'), { timeout: 10_000 }).toBe(true);
    // The prompt may paint a frame before _auto_reject builds.
    await expect.poll(() => builtProbes(page)).toEqual(UNDECIDED);
    await settled(page);
    expect(await builtProbes(page)).toEqual(UNDECIDED);
    expect(bodies(checkPath)).toEqual([
      { consentInstanceId: 'site', consentStateValue: 'unknown', matchedGeoGroup: 'us', isDirty: false },
    ]);
  });

  it('3. remote with an empty cache: uses and caches a server decision', async () => {
    const { page } = await open(
      config,
      { body: { consentRequired: true, consentStateValue: 'accepted', consentString: 'CS' } },
      { hash: '#page-geo=us' },
    );
    await expect.poll(() => builtProbes(page)).toEqual(ALL);
    expect(await isShown(page, '#prompt')).toBe(false);
    expect(await consentOf(page)).toEqual({
      version: 2,
      state: 'accepted',
      time: expect.any(Number),
      consentString: 'CS',
      purposeConsents: {},
    });
  });

  it('4. consentRequired true with checkConsentHref: prompt at once, the answer refreshes cache and sharedData', async () => {
    // The answer is held until the reader has accepted: the prompt cannot have waited for it.
    let answer = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    const reply = { body: { consentRequired: true, sharedData: { tier: 'gold' } } };
    const { page, checkPath } = await open(
      { consentInstanceId: 'site', consentRequired: true, checkConsentHref: 'CHECK' },
      () => held.then(() => reply),
    );
    await expect.poll(() => isShown(page, '#prompt')).toBe(true);
    expect(
      await page.evaluate(
        () => (window as unknown as { consentEvents: { sharedData?: unknown }[] }).consentEvents.at(-1)?.sharedData,
      ),
    ).toBeUndefined();
    expect(fixture.server.requestsTo(checkPath)).toHaveLength(1);
    await page.click('#accept');
    await expect.poll(() => builtProbes(page)).toEqual(ALL);
    answer();
    await expect
      .poll(
        () =>
          page.evaluate(
            () => (window as unknown as { consentEvents: { sharedData?: unknown }[] }).consentEvents.at(-1)?.sharedData,
          ),
        { timeout: 10_000 },
      )
      .toEqual({ tier: 'gold' });
    const shared = await page.evaluate(
      () =>
        new Promise((resolve) =>
          (
            self as unknown as {
              PAGE: { push(f: (p: { consent: { getSharedData(): Promise<unknown> } }) => void): void };
            }
          ).PAGE.push((p) => p.consent.getSharedData().then(resolve)),
        ),
    );
    expect(shared).toEqual({ tier: 'gold' });
    expect(await consentOf(page)).toMatchObject({ state: 'accepted' });
  });

  it('applies the override of the group that lists unknown to a user of unknown country', async () => {
    const { page, checkPath } = await open(
      config,
      { body: { consentRequired: false }, delay: 5000 },
      { hash: '#page-geo=unknown' },
    );
    await expect.poll(() => isShown(page, '#prompt'), { timeout: 4000 }).toBe(true);
    await expect
      .poll(() => bodies(checkPath))
      .toEqual([
        { consentInstanceId: 'site', consentStateValue: 'unknown', matchedGeoGroup: 'unknown', isDirty: false },
      ]);
  });
});

describe('remote check answers', () => {
  const remote = { consentInstanceId: 'site', checkConsentHref: 'CHECK' };

  it('is not required when the answer has no consentRequired', async () => {
    const { page } = await open(remote, { body: {} });
    await expect.poll(() => builtProbes(page)).toEqual(ALL);
    expect(await isShown(page, '#prompt')).toBe(false);
    expect(await isShown(page, '#post')).toBe(false);
  });

  it('applies a server rejected and caches it with the string and purposes', async () => {
    const { page } = await open(remote, {
      body: {
        consentRequired: true,
        consentStateValue: 'rejected',
        consentString: 'R',
        purposeConsents: { ads: true },
      },
    });
    await expect.poll(() => builtProbes(page)).toEqual(['open', 'till-responded', 'auto-reject']);
    expect(await consentOf(page)).toEqual({
      version: 2,
      state: 'rejected',
      time: expect.any(Number),
      consentString: 'R',
      purposeConsents: { ads: true },
    });
  });

  it('sends the cached state and clears the cache when the server says unknown', async () => {
    const { page, checkPath } = await open(remote, {
      body: { consentRequired: true, consentStateValue: 'accepted', consentString: 'A' },
    });
    await expect.poll(() => consentOf(page)).toMatchObject({ state: 'accepted' });
    fixture.server.route(checkPath, { body: { consentRequired: true, consentStateValue: 'unknown' } });
    await page.reload();
    await page.waitForSelector('page-consent.page-built', { state: 'attached' });
    await expect.poll(() => consentOf(page)).toBeUndefined();
    expect(bodies(checkPath)[1]).toEqual({
      consentInstanceId: 'site',
      consentStateValue: 'accepted',
      consentString: 'A',
      matchedGeoGroup: null,
      purposeConsents: {},
      isDirty: false,
    });
    expect(await builtProbes(page)).toEqual(ALL);
  });

  it('answers getSharedData with the server answer even when the cache already decided', async () => {
    const { page, checkPath } = await open(remote, { body: { consentRequired: true, consentStateValue: 'accepted' } });
    await expect.poll(() => consentOf(page)).toMatchObject({ state: 'accepted' });
    // The second answer waits until getSharedData has been asked, after the cache decided.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    fixture.server.route(checkPath, async () => {
      await held;
      return { body: { consentRequired: true, consentStateValue: 'accepted', sharedData: { tier: 'gold' } } };
    });
    await page.reload();
    const shared = page.evaluate(
      () =>
        new Promise((resolve) =>
          (
            self as unknown as {
              PAGE: { push(f: (p: { consent: { getSharedData(): Promise<unknown> } }) => void): void };
            }
          ).PAGE.push((p) => p.consent.getSharedData().then(resolve)),
        ),
    );
    await expect.poll(() => fixture.server.requestsTo(checkPath).length).toBe(2);
    release();
    expect(await shared).toEqual({ tier: 'gold' });
  });

  it('strips the xssiPrefix', async () => {
    const { page } = await open(
      { ...remote, xssiPrefix: ")]}'" },
      {
        body: `)]}'{"consentRequired":true,"consentStateValue":"accepted"}`,
        headers: { 'content-type': 'application/json' },
      },
    );
    await expect.poll(() => builtProbes(page)).toEqual(ALL);
  });
});

describe('remote check failures fail closed', () => {
  const remote = {
    consentInstanceId: 'site',
    checkConsentHref: 'CHECK',
    policy: { default: { timeout: { seconds: 1, fallbackAction: 'reject' } } },
  };

  it.each([
    ['a 500', { status: 500, body: 'down' }, 'HTTP 500'],
    ['invalid JSON', { body: 'not json' }, 'invalid JSON'],
    [
      'a CORS refusal',
      { body: { consentRequired: false }, headers: { 'access-control-allow-origin': 'https://elsewhere.example' } },
      'network or CORS',
    ],
  ] as const)(
    'on %s: prompt shown, nothing unblocked, timeouts run, diagnostic names the cause',
    async (_, reply, cause) => {
      const cross = cause === 'network or CORS';
      const { page, messages, checkPath } = await open(
        cross ? { ...remote, checkConsentHref: `${fixture.server.otherOrigin}CHECK` } : remote,
        reply,
      );
      await expect.poll(() => isShown(page, '#prompt')).toBe(true);
      expect(await builtProbes(page)).toEqual(UNDECIDED);
      const [line] = diagnosticsOf(messages, 'consent-check-failed');
      expect(line?.text).toContain(cause);
      expect(line?.type).toBe('error');
      expect(await policyState(page)).toBe('insufficient');
      expect(fixture.server.requestsTo(checkPath)).toHaveLength(1);
    },
  );

  it('on a network error', async () => {
    const { page, messages } = await open({ ...remote, checkConsentHref: 'http://127.0.0.1:9/check' }, null);
    await expect.poll(() => isShown(page, '#prompt')).toBe(true);
    await expect.poll(() => diagnosticsOf(messages, 'consent-check-failed').length).toBe(1);
    expect(await builtProbes(page)).toEqual(UNDECIDED);
  });

  it('after 10 s without an answer, and ignores the answer that comes later', async () => {
    // The answer (it would unblock everything) is held until the page's clock is past the time-out.
    let answer = () => {};
    const late = new Promise<Reply>((resolve) => (answer = () => resolve({ body: { consentRequired: false } })));
    const { page, messages, checkPath } = await open(remote, () => late, { clock: true });
    const requestEnd = new Promise<void>((resolve) => {
      const isCheck = (request: Request) => new URL(request.url()).pathname === checkPath && resolve();
      page.on('requestfailed', isCheck);
      page.on('requestfinished', isCheck);
    });
    await expect.poll(() => fixture.server.requestsTo(checkPath).length).toBe(1);
    const asked = await fetchedAt(page, checkPath);
    await pauseClock(page);
    await runUntil(page, asked + 9_900);
    expect(await isShown(page, '#prompt')).toBe(false);
    expect(await builtProbes(page)).toEqual(['open']);
    await runUntil(page, asked + 10_000);
    await page.clock.resume();
    await expect.poll(() => isShown(page, '#prompt')).toBe(true);
    // Shown by the time-out, not before: the page's own record, whatever the runner's pauses.
    expect((await shownAt(page, 'prompt')) - asked).toBeGreaterThanOrEqual(9_900);
    expect(diagnosticsOf(messages, 'consent-check-failed')[0]?.text).toContain('10 s');
    answer();
    // The browser has either dropped the request or received the late answer.
    await requestEnd;
    // The policy time-out (1 s, reject) runs; the late answer changes nothing.
    await runUntil(page, asked + 13_000);
    await expect.poll(() => builtProbes(page)).toEqual(UNDECIDED);
    await settled(page);
    expect(await builtProbes(page)).toEqual(UNDECIDED);
  });
});

describe('byte caps (docs/reliability.md, "Byte caps")', () => {
  /** A check endpoint on its own port that streams JSON padding, 64 KB at a time, for as long as the page reads it (at most 400 MB). */
  async function endlessCheck() {
    const state = { sent: 0, isClosed: false };
    const pump = (response: ServerResponse) => {
      const chunk = 'x'.repeat(64 * 1024);
      while (!state.isClosed && state.sent < 400 * 1024 * 1024 && response.write(chunk)) state.sent += chunk.length;
      if (!state.isClosed) response.once('drain', () => pump(response));
    };
    const endpoint = createServer((request, response) => {
      const cors = {
        'access-control-allow-origin': request.headers.origin ?? '*',
        'access-control-allow-credentials': 'true',
      };
      if (request.method === 'OPTIONS') {
        response.writeHead(204, {
          ...cors,
          'access-control-allow-methods': 'POST',
          'access-control-allow-headers': 'content-type',
        });
        return response.end();
      }
      response.on('close', () => (state.isClosed = true));
      response.writeHead(200, { ...cors, 'content-type': 'application/json' });
      response.write('{"consentRequired":false,"pad":"');
      pump(response);
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/check`;
    const close = () =>
      new Promise<void>((resolve) => {
        endpoint.closeAllConnections();
        endpoint.close(() => resolve());
      });
    return { url, state, close };
  }

  it('stops reading an endless check answer at its cap, cancels the rest, and the check fails closed', async () => {
    const check = await endlessCheck();
    try {
      // The answer would unblock everything (consentRequired false), were it read whole and applied.
      fixture.server.page(
        '/endless-check.html',
        consentPage({
          consentInstanceId: 'site',
          checkConsentHref: check.url,
          promptUI: 'prompt',
          postPromptUI: 'post',
        }),
      );
      const { page, messages } = await newPage(fixture.browser);
      await page.goto(`${fixture.server.origin}/endless-check.html`);
      await expect.poll(() => diagnosticsOf(messages, 'remote-answer-too-large').length).toBe(1);
      const [line] = diagnosticsOf(messages, 'remote-answer-too-large');
      expect(line?.type).toBe('error');
      expect(line?.text).toContain(`expected at most ${1024 * 1024} bytes, got "more from ${check.url}`);
      await expect.poll(() => isShown(page, '#prompt')).toBe(true);
      expect(await builtProbes(page)).toEqual(UNDECIDED);
      expect(diagnosticsOf(messages, 'consent-check-failed')).toEqual([]);
      // The rest of the body was cancelled: the endpoint saw its connection closed, a few MB in at most,
      // so the page never held more than the cap (docs/reliability.md, "Byte caps"); no clock is read.
      await expect.poll(() => check.state.isClosed).toBe(true);
      expect(check.state.sent).toBeLessThan(32 * 1024 * 1024);
      expect(await storedValues(page)).not.toHaveProperty('consent:site');
    } finally {
      await check.close();
    }
  });
});

describe('update notification', () => {
  const client = { consentInstanceId: 'site', consentRequired: true, onUpdateHref: 'UPDATE' };

  it('posts each actual change once, with a pageUserId kept across visits', async () => {
    const { page, updatePath } = await open(client, null);
    await page.click('#accept');
    await expect.poll(() => bodies(updatePath)).toHaveLength(1);
    const [first] = bodies(updatePath);
    expect(first).toEqual({
      consentInstanceId: 'site',
      pageUserId: expect.any(String),
      consentStateValue: 'accepted',
      purposeConsents: {},
    });
    expect(fixture.server.requestsTo(updatePath)[0]?.headers['content-type']).toBe('application/json');
    await page.reload();
    await page.waitForSelector('page-consent.page-built', { state: 'attached' });
    await page.click('#manage');
    await page.click('#accept');
    await settled(page);
    expect(bodies(updatePath)).toHaveLength(1);
    await page.click('#manage');
    await page.click('#reject');
    await expect.poll(() => bodies(updatePath)).toHaveLength(2);
    expect(bodies(updatePath)[1]).toEqual({ ...first, consentStateValue: 'rejected' });
    await page.click('#manage');
    await page.click('#dismiss');
    await settled(page);
    expect(bodies(updatePath)).toHaveLength(2);
  });

  it('posts a server decision written to the cache, and nothing when the answer changes nothing', async () => {
    const { page, updatePath, checkPath } = await open(
      { ...client, checkConsentHref: 'CHECK' },
      { body: { consentRequired: true, consentStateValue: 'rejected', consentString: 'S' } },
    );
    await expect.poll(() => bodies(updatePath)).toHaveLength(1);
    expect(bodies(updatePath)[0]).toMatchObject({ consentStateValue: 'rejected', consentString: 'S' });
    await page.reload();
    await page.waitForSelector('page-consent.page-built', { state: 'attached' });
    await expect.poll(() => fixture.server.requestsTo(checkPath).length).toBe(2);
    await settled(page);
    expect(bodies(updatePath)).toHaveLength(1);
  });

  it('reports an update that fails', async () => {
    const { page, messages } = await open(client, null, { update: { status: 500 } });
    await page.click('#accept');
    await expect.poll(() => diagnosticsOf(messages, 'consent-update-failed').length).toBe(1);
  });
});
