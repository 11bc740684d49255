import { describe, expect, it, vi } from 'vitest';
import * as remote from '../../../src/consent/remote.ts';
import { createConsentController, USER_ID_KEY } from '../../../src/consent/controller.ts';
import { CHECK_TIMEOUT_MS, type Clock } from '../../../src/consent/remote.ts';
import { parseStoredConsent } from '../../../src/wire/consent.ts';
import { parseConsentConfig } from '../../../src/wire/consent-config.ts';

/** A clock whose time moves only when the test says so. */
function fakeClock() {
  let now = 0;
  const timers = new Map<number, { at: number; callback: () => void }>();
  let next = 0;
  const clock: Clock = {
    setTimeout: (callback, ms) => {
      timers.set(++next, { at: now + ms, callback });
      return next;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
  };
  const advance = async (ms: number) => {
    now += ms;
    for (const [id, timer] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at > now) continue;
      timers.delete(id);
      timer.callback();
    }
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  return { clock, advance, pending: () => timers.size, now: () => now };
}

const configOf = (json: Record<string, unknown>) =>
  parseConsentConfig({ consentInstanceId: 'site', ...json }, { geoGroups: [], baseUrl: 'https://news.example/a' })
    .value;

function setUp(fetch: typeof globalThis.fetch = vi.fn(), stored: Record<string, unknown> = {}) {
  const values = new Map(Object.entries(stored));
  const storage = {
    get: (key: string) => values.get(key),
    set: (key: string, value: unknown) => void values.set(key, value),
    remove: (key: string) => void values.delete(key),
  };
  const { clock, advance, pending, now } = fakeClock();
  const report = vi.fn();
  const onChange = vi.fn();
  const controller = createConsentController({
    storage,
    fetch,
    clock,
    report,
    onChange,
    expandUrl: async (url) => url,
    remote: async () => remote,
    parseStoredConsent,
    newId: () => 'user-1',
    now,
  });
  return { controller, values, advance, pending, report, onChange, fetch };
}

const answer = (body: unknown) =>
  vi.fn(async () => new Response(typeof body === 'string' ? body : JSON.stringify(body)));
const kind = (controller: { model(): { state: { kind: string } } }) => controller.model().state.kind;

describe('createConsentController', () => {
  it('asks at once when consent is required on the client, and times the policy out on its clock', async () => {
    const { controller, advance } = setUp();
    await controller.start(configOf({ consentRequired: true, policy: { default: { timeout: 3 } } }), null);
    expect(controller.model()).toMatchObject({ state: { kind: 'unknown', hasTimedOut: false }, isPromptShown: true });
    await advance(2999);
    expect(controller.model().state).toEqual({ kind: 'unknown', hasTimedOut: false });
    await advance(1);
    expect(controller.model().state).toEqual({ kind: 'unknown', hasTimedOut: true });
  });

  it('fails closed after 10 s without an answer, naming the cause', async () => {
    const never = vi.fn(
      (_url: unknown, init?: RequestInit) =>
        new Promise<Response>((_, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        ),
    );
    const { controller, advance, report } = setUp(never as typeof fetch);
    const started = controller.start(configOf({ checkConsentHref: 'https://cmp.example/check' }), 'eea');
    await advance(0);
    expect(never).toHaveBeenCalledTimes(1);
    await advance(CHECK_TIMEOUT_MS - 1);
    expect(kind(controller)).toBe('pending');
    await advance(1);
    await started;
    expect(controller.model()).toMatchObject({ state: { kind: 'unknown' }, isPromptShown: true });
    expect(report).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'consent-check-failed', got: '"no answer within 10 s"' }),
      'error',
    );
  });

  it('applies an accepted answer and caches it', async () => {
    const { controller, values } = setUp(
      answer({ consentRequired: true, consentStateValue: 'accepted', purposeConsents: { ads: true } }),
    );
    await controller.start(configOf({ checkConsentHref: '/check' }), null);
    expect(kind(controller)).toBe('accepted');
    expect(values.get('consent:site')).toEqual({
      version: 2,
      state: 'accepted',
      purposeConsents: { ads: true },
      time: 0,
    });
  });

  it.each([
    ['a string consentRequired', { consentRequired: 'false', consentStateValue: 'accepted' }],
    ['invalid JSON', '{"consentRequired": tru'],
    ['an array', '[true]'],
  ])('treats %s as a failure: required and unknown', async (_, body) => {
    const { controller, report } = setUp(answer(body));
    await controller.start(configOf({ checkConsentHref: '/check' }), null);
    expect(controller.model()).toMatchObject({ state: { kind: 'unknown' }, isPromptShown: true });
    expect(report).toHaveBeenCalledWith(expect.objectContaining({ code: 'consent-check-failed' }), 'error');
  });

  it('leaves a purpose with a string value undecided', async () => {
    const { controller, report } = setUp(
      answer({
        consentRequired: true,
        consentStateValue: 'accepted',
        purposeConsents: { ads: 'false', measure: true },
      }),
    );
    await controller.start(configOf({ checkConsentHref: '/check' }), null);
    expect(controller.model().purposeConsents).toEqual({ measure: true });
    expect(report).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'consent-answer-field-invalid', field: 'purposeConsents.ads' }),
      'warn',
    );
  });

  it('reads a stored decision through the parser, dropping mistyped purposes with a warning', async () => {
    const { controller, report } = setUp(vi.fn(), {
      'consent:site': { version: 1, state: 'accepted', purposeConsents: { ads: 'true', constructor: true } },
    });
    await controller.start(configOf({ consentRequired: true }), null);
    expect(kind(controller)).toBe('accepted');
    expect(controller.model().purposeConsents).toEqual({ constructor: true });
    expect(report).toHaveBeenCalledWith(expect.objectContaining({ code: 'consent-stored-invalid' }), 'warn');
  });

  it('caches a decision and notifies onUpdateHref once per change', async () => {
    const post = vi.fn(async () => new Response(null, { status: 204 }));
    const { controller, values, advance } = setUp(post);
    await controller.start(configOf({ consentRequired: true, onUpdateHref: 'https://cmp.example/update' }), null);
    controller.dispatch({ type: 'decide', decision: 'accepted' });
    controller.dispatch({ type: 'prompt' });
    controller.dispatch({ type: 'decide', decision: 'accepted' });
    await advance(0);
    expect(values.get('consent:site')).toMatchObject({ state: 'accepted' });
    expect(values.get(USER_ID_KEY)).toBe('user-1');
    expect(post).toHaveBeenCalledTimes(1);
    controller.dispatch({ type: 'prompt' });
    controller.dispatch({ type: 'decide', decision: 'rejected' });
    await advance(0);
    expect(post).toHaveBeenCalledTimes(2);
  });

  it('fails closed on an invalid config and stores nothing', async () => {
    const { controller, values } = setUp();
    await controller.start(null, null);
    expect(kind(controller)).toBe('invalid');
    controller.dispatch({ type: 'decide', decision: 'accepted' });
    expect(values.size).toBe(0);
  });
});

const DAY = 86_400_000;
const UPDATE = 'https://cmp.example/update';

describe('createConsentController: consent lifetime', () => {
  const storedAt = (time: number, state = 'accepted') => ({
    'consent:site': { version: 2, state, time, purposeConsents: { ads: true, video: false } },
  });

  it('rewrites a version 1 record as version 2 made now, without notifying onUpdateHref', async () => {
    const post = vi.fn(async () => new Response('{}'));
    const { controller, values, advance } = setUp(post, { 'consent:site': { version: 1, state: 'accepted' } });
    await advance(5 * DAY);
    await controller.start(configOf({ consentRequired: true, onUpdateHref: UPDATE }), null);
    await advance(0);
    expect(kind(controller)).toBe('accepted');
    expect(values.get('consent:site')).toEqual({ version: 2, state: 'accepted', time: 5 * DAY });
    expect(post).not.toHaveBeenCalled();
  });

  it('keeps a decision within its lifetime', async () => {
    const { controller, advance } = setUp(vi.fn(), storedAt(0));
    await advance(390 * DAY);
    await controller.start(configOf({ consentRequired: true }), null);
    expect(kind(controller)).toBe('accepted');
  });

  it('treats an expired decision as none: prompt shown, purposes kept but unblocking nothing', async () => {
    const { controller, advance, values } = setUp(vi.fn(), storedAt(0));
    await advance(390 * DAY + 1);
    await controller.start(configOf({ consentRequired: true }), null);
    expect(controller.model()).toMatchObject({
      state: { kind: 'unknown' },
      isPromptShown: true,
      purposeConsents: {},
      expiredPurposes: { ads: true, video: false },
    });
    expect(values.get('consent:site')).toMatchObject({ time: 0 });
  });

  it.each([
    ['accepted', 30, true],
    ['rejected', 30, false],
  ])(
    'applies the lifetime of the state (%s after 30 days of {accepted: 20, rejected: 182})',
    async (state, days, isGone) => {
      const { controller, advance } = setUp(vi.fn(), storedAt(0, state));
      await advance(days * DAY);
      await controller.start(
        configOf({ consentRequired: true, consentLifetimeDays: { accepted: 20, rejected: 182 } }),
        null,
      );
      expect(kind(controller)).toBe(isGone ? 'unknown' : state);
    },
  );

  it('notifies onUpdateHref once when the same choice is renewed after an expiry, with a new time and the kept purposes', async () => {
    const post = vi.fn(async () => new Response('{"recorded":true,"receiptId":"r1"}'));
    const { controller, advance, values } = setUp(post, storedAt(0));
    await advance(400 * DAY);
    await controller.start(configOf({ consentRequired: true, onUpdateHref: UPDATE }), null);
    controller.dispatch({ type: 'decide', decision: 'accepted' });
    await advance(0);
    expect(post).toHaveBeenCalledTimes(1);
    expect(values.get('consent:site')).toMatchObject({
      state: 'accepted',
      time: 400 * DAY,
      purposeConsents: { ads: true, video: false },
    });
    expect(controller.model()).toMatchObject({
      expiredPurposes: undefined,
      purposeConsents: { ads: true, video: false },
    });
    expect(await controller.receipt()).toBe('r1');
    expect(values.get('consent-receipt:site')).toBe('r1');
  });

  it('stores a reject after an expiry with the kept purpose acceptances rejected', async () => {
    const { controller, advance, values } = setUp(vi.fn(), storedAt(0));
    await advance(400 * DAY);
    await controller.start(configOf({ consentRequired: true }), null);
    controller.dispatch({ type: 'decide', decision: 'rejected' });
    expect(values.get('consent:site')).toMatchObject({
      state: 'rejected',
      purposeConsents: { ads: false, video: false },
    });
  });

  it('gives a decision confirmed again a new time without notifying onUpdateHref', async () => {
    const post = vi.fn(async () => new Response('{}'));
    const { controller, advance, values } = setUp(post, storedAt(0));
    await advance(10 * DAY);
    await controller.start(configOf({ consentRequired: true, onUpdateHref: UPDATE }), null);
    controller.dispatch({ type: 'prompt' });
    controller.dispatch({ type: 'decide', decision: 'accepted' });
    await advance(0);
    expect(values.get('consent:site')).toMatchObject({ time: 10 * DAY });
    expect(post).not.toHaveBeenCalled();
  });

  it('does not let the server copy of an expired decision decide', async () => {
    const check = answer({ consentRequired: true, consentStateValue: 'accepted' });
    const { controller, advance } = setUp(check, storedAt(0));
    await advance(400 * DAY);
    await controller.start(configOf({ checkConsentHref: '/check' }), null);
    expect(JSON.parse((check.mock.calls[0] as unknown as [string, RequestInit])[1].body as string)).toMatchObject({
      consentStateValue: 'unknown',
    });
    expect(controller.model()).toMatchObject({ state: { kind: 'unknown' }, isPromptShown: true });
  });

  it('forgets the receipt of an older decision when the latest update brings none', async () => {
    const answers = ['{"receiptId":"r1"}', '{"recorded":true}'];
    const post = vi.fn(async () => new Response(answers.shift()));
    const { controller, advance } = setUp(post);
    await controller.start(configOf({ consentRequired: true, onUpdateHref: UPDATE }), null);
    controller.dispatch({ type: 'decide', decision: 'accepted' });
    await advance(0);
    expect(await controller.receipt()).toBe('r1');
    controller.dispatch({ type: 'prompt' });
    controller.dispatch({ type: 'decide', decision: 'rejected' });
    await advance(0);
    expect(post).toHaveBeenCalledTimes(2);
    expect(await controller.receipt()).toBeNull();
  });

  it('resolves no receipt before any update', async () => {
    const { controller } = setUp();
    await controller.start(configOf({ consentRequired: true }), null);
    expect(await controller.receipt()).toBeNull();
  });
});
