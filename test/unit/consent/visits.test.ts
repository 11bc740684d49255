/**
 * The consent decision over one reader's visits, below the browser: the controller with its
 * storage kept from visit to visit, a check endpoint the test answers, a clock the test moves,
 * and the policy states and gate decisions the page's elements get from it.
 */
import { describe, expect, it, vi } from 'vitest';
import { createConsentController } from '../../../src/consent/controller.ts';
import { decide, resolvePolicy } from '../../../src/consent/policy.ts';
import * as remote from '../../../src/consent/remote.ts';
import type { Clock } from '../../../src/consent/remote.ts';
import type { BlockPolicy } from '../../../src/runtime/types.ts';
import { parseStoredConsent } from '../../../src/wire/consent.ts';
import { parseConsentConfig } from '../../../src/wire/consent-config.ts';

const configOf = (json: Record<string, unknown>) =>
  parseConsentConfig(
    { consentInstanceId: 'site', promptUI: 'prompt', postPromptUI: 'post', ...json },
    { geoGroups: [], baseUrl: 'https://news.example/a' },
  ).value!;

/** A clock whose time moves only when the test says so. */
function fakeClock() {
  let now = 0;
  let next = 0;
  const timers = new Map<number, { at: number; callback: () => void }>();
  const clock: Clock = {
    setTimeout: (callback, ms) => {
      timers.set(++next, { at: now + ms, callback });
      return next;
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
  };
  const advance = async (ms: number) => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
    now += ms;
    for (const [id, timer] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at > now) continue;
      timers.delete(id);
      timer.callback();
    }
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  return { clock, advance };
}

type Answer = { status?: number; body: unknown } | 'never';

/**
 * One reader: `values` is their storage, kept across visits; every check request is recorded
 * with its body and answered by the next of the answers a visit is given.
 */
function reader() {
  const values = new Map<string, unknown>();
  const storage = {
    get: (key: string) => values.get(key),
    set: (key: string, value: unknown) => void values.set(key, value),
    remove: (key: string) => void values.delete(key),
  };
  const checks: Array<Record<string, unknown>> = [];

  /** A page view with `json` as its config; `answer` answers its check. */
  async function visit(json: Record<string, unknown>, answer: Answer = 'never') {
    const { clock, advance } = fakeClock();
    const fetch = vi.fn((_url: unknown, init?: RequestInit) => {
      checks.push(JSON.parse(String(init?.body ?? 'null')));
      if (answer === 'never') return new Promise<Response>(() => {});
      return Promise.resolve(
        new Response(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body), {
          status: answer.status ?? 200,
        }),
      );
    });
    const report = vi.fn();
    const config = configOf(json);
    const controller = createConsentController({
      storage,
      fetch: fetch as unknown as typeof globalThis.fetch,
      clock,
      report,
      onChange: () => {},
      expandUrl: async (url) => url,
      remote: async () => remote,
      parseStoredConsent,
      newId: () => 'user-1',
      now: () => 0,
    });
    const started = controller.start(config, null);
    await advance(0);
    const input = () => ({
      state: controller.model().state,
      purposeConsents: controller.model().purposeConsents,
      fallbackAction: config.fallbackAction,
      hasPrompt: true,
    });
    return {
      controller,
      started,
      advance,
      report,
      fetch,
      /** What `getPolicyState(policy)` resolves to now; null while it waits. */
      policyState: (policy: BlockPolicy = 'default') => resolvePolicy(policy, input()),
      /** The gate decision for an element with `data-block-on-consent` set to `policy`. */
      gate: (policy: BlockPolicy = 'default') => decide({ policy, purposes: [] }, input()),
      isPromptShown: () => controller.model().isPromptShown,
    };
  }
  return { values, checks, visit };
}

const POLICIES: BlockPolicy[] = ['default', '_till_accepted', '_till_responded', '_auto_reject'];
const CLIENT = { consentRequired: true };
const REMOTE = { checkConsentHref: 'https://cmp.example/check' };

describe('policy timeouts', () => {
  it('rejects on timeout with fallbackAction reject without storing it, and prompts again next visit', async () => {
    const { values, visit } = reader();
    const config = {
      ...CLIENT,
      policy: { default: { waitFor: { site: [] }, timeout: { seconds: 1, fallbackAction: 'reject' } } },
    };
    const first = await visit(config);
    expect(first.isPromptShown()).toBe(true);
    await first.advance(999);
    expect(first.policyState()).toBeNull();
    await first.advance(1);
    expect(first.policyState()).toBe('insufficient');
    expect(first.gate()).toBe('deny');
    expect(values.size).toBe(0);
    const next = await visit(config);
    expect(next.isPromptShown()).toBe(true);
  });

  it('builds when the reader accepts through a re-shown prompt after a reject timeout', async () => {
    const { values, visit } = reader();
    const page = await visit({ ...CLIENT, policy: { default: { timeout: { seconds: 1, fallbackAction: 'reject' } } } });
    await page.advance(1000);
    expect(page.policyState()).toBe('insufficient');
    expect(page.gate()).toBe('deny');
    page.controller.dispatch({ type: 'prompt' });
    expect(page.isPromptShown()).toBe(true);
    page.controller.dispatch({ type: 'decide', decision: 'accepted' });
    expect(page.policyState()).toBe('sufficient');
    expect(page.gate()).toBe('allow');
    expect(values.get('consent:site')).toMatchObject({ state: 'accepted' });
  });

  it('rejects at once with seconds 0 and fallbackAction reject', async () => {
    const { values, visit } = reader();
    const page = await visit({ ...CLIENT, policy: { default: { timeout: { seconds: 0, fallbackAction: 'reject' } } } });
    expect(page.policyState()).toBe('insufficient');
    expect(page.gate()).toBe('deny');
    expect(values.size).toBe(0);
  });

  it('dismisses on a numeric timeout: content stays blocked and nothing is stored', async () => {
    const { values, visit } = reader();
    const page = await visit({ ...CLIENT, policy: { default: { timeout: 1 } } });
    await page.advance(999);
    expect(page.policyState()).toBeNull();
    await page.advance(1);
    expect(page.policyState()).toBe('unknown');
    expect(page.gate()).toBe('deny');
    expect(values.size).toBe(0);
  });
});

describe('blocking policies', () => {
  it('applies the default policy timeout with fallbackAction reject, without caching', async () => {
    const { values, visit } = reader();
    const page = await visit({
      ...CLIENT,
      policy: { default: { waitFor: { site: [] }, timeout: { seconds: 1, fallbackAction: 'reject' } } },
    });
    await page.advance(999);
    expect(page.policyState()).toBeNull();
    await page.advance(1);
    expect(page.policyState()).toBe('insufficient');
    expect(POLICIES.map((policy) => page.gate(policy))).toEqual(['deny', 'pending', 'pending', 'allow']);
    expect(page.isPromptShown()).toBe(true);
    expect(values.has('consent:site')).toBe(false);
    page.controller.dispatch({ type: 'decide', decision: 'accepted' });
    expect(POLICIES.map((policy) => page.gate(policy))).toEqual(['allow', 'allow', 'allow', 'allow']);
  });

  it('resolves default to unknown after a timeout with the dismiss fallback', async () => {
    const { visit } = reader();
    const page = await visit({ ...CLIENT, policy: { default: { timeout: 0.5 } } });
    await page.advance(500);
    expect(page.policyState()).toBe('unknown');
    expect(page.policyState('_auto_reject')).toBe('insufficient');
  });

  it('resolves unknown_not_required when consent is not required', async () => {
    const { visit } = reader();
    const page = await visit({ ...CLIENT, consentRequired: false });
    expect(page.policyState()).toBe('unknown_not_required');
    expect(POLICIES.map((policy) => page.gate(policy))).toEqual(['allow', 'allow', 'allow', 'allow']);
  });
});

describe('checkConsentHref', () => {
  it('shows the prompt without waiting for the server when consentRequired is true', async () => {
    const { checks, visit } = reader();
    const page = await visit({ ...REMOTE, consentRequired: true });
    expect(page.fetch).toHaveBeenCalledTimes(1);
    expect(page.isPromptShown()).toBe(true);
    // The check is still on its way: nothing is built meanwhile.
    expect(page.gate()).toBe('pending');
    expect(checks).toHaveLength(1);
  });

  it('starts the policy timeout after a remote failure', async () => {
    const { visit } = reader();
    const page = await visit(
      { ...REMOTE, policy: { default: { timeout: { seconds: 1, fallbackAction: 'reject' } } } },
      { status: 503, body: 'down' },
    );
    await page.started;
    expect(page.isPromptShown()).toBe(true);
    expect(page.report).toHaveBeenCalledWith(expect.objectContaining({ code: 'consent-check-failed' }), 'error');
    expect(page.policyState()).toBeNull();
    await page.advance(1000);
    expect(page.policyState()).toBe('insufficient');
    expect(page.gate()).toBe('deny');
  });

  it('unblocks as not required when the answer lacks consentRequired', async () => {
    const { visit } = reader();
    const page = await visit(REMOTE, { body: {} });
    await page.started;
    expect(page.gate()).toBe('allow');
    expect(page.isPromptShown()).toBe(false);
    expect(page.policyState()).toBe('unknown_not_required');
  });

  it('enforces the server state sent with expireCache on that visit, and prompts on the next one', async () => {
    const { values, checks, visit } = reader();
    const first = await visit(REMOTE, { body: { consentRequired: true, consentStateValue: 'unknown' } });
    await first.started;
    expect(first.isPromptShown()).toBe(true);
    first.controller.dispatch({ type: 'decide', decision: 'rejected' });
    expect(values.get('consent:site')).toMatchObject({ state: 'rejected' });
    const second = await visit(REMOTE, {
      body: { consentRequired: true, expireCache: true, consentStateValue: 'accepted' },
    });
    await second.started;
    expect(checks[1]).toMatchObject({ consentStateValue: 'rejected' });
    expect(second.gate()).toBe('allow');
    expect(second.policyState()).toBe('sufficient');
    expect(second.isPromptShown()).toBe(false);
    expect(values.has('consent:site')).toBe(false);
    // With expireCache and a prompt UI, the next visit shows the prompt and blocks content.
    const third = await visit(REMOTE, { body: { consentRequired: true } });
    await third.started;
    expect(checks[2]).toMatchObject({ consentStateValue: 'unknown' });
    expect(third.isPromptShown()).toBe(true);
    expect(third.gate()).toBe('pending');
  });

  it('clears the cache on expireCache so that the next visit prompts and blocks again', async () => {
    const { values, visit } = reader();
    const first = await visit(REMOTE, { body: { consentRequired: true, consentStateValue: 'unknown' } });
    await first.started;
    first.controller.dispatch({ type: 'decide', decision: 'accepted' });
    expect(first.gate()).toBe('allow');
    const second = await visit(REMOTE, { body: { consentRequired: true, expireCache: true } });
    await second.started;
    expect(values.has('consent:site')).toBe(false);
    const third = await visit(REMOTE, { body: { consentRequired: true, consentStateValue: null } });
    await third.started;
    expect(third.isPromptShown()).toBe(true);
    expect(third.gate()).toBe('pending');
  });

  it('expireCache clears the cache, enforces the server state, and prompts on the next visit', async () => {
    const { values, visit } = reader();
    const config = { ...REMOTE, consentRequired: 'remote' };
    const first = await visit(config, { body: { consentRequired: true, consentStateValue: 'accepted' } });
    await first.started;
    expect(values.get('consent:site')).toMatchObject({ state: 'accepted' });
    const second = await visit(config, {
      body: { consentRequired: true, consentStateValue: 'rejected', expireCache: true },
    });
    await second.started;
    expect(values.has('consent:site')).toBe(false);
    expect(second.policyState()).toBe('insufficient');
    expect(second.isPromptShown()).toBe(false);
    expect(POLICIES.map((policy) => second.gate(policy))).toEqual(['deny', 'deny', 'allow', 'allow']);
    // Nothing cached: the next visit prompts once the server says consent is required.
    const third = await visit(config, { body: { consentRequired: true } });
    await third.started;
    expect(third.isPromptShown()).toBe(true);
    expect(POLICIES.map((policy) => third.gate(policy))).toEqual(['pending', 'pending', 'pending', 'allow']);
  });
});
