/** Global Privacy Control (docs/consent.md, "Global Privacy Control"): the reducer and the controller. */
import { describe, expect, it, vi } from 'vitest';
import * as remote from '../../../src/consent/remote.ts';
import { createConsentController } from '../../../src/consent/controller.ts';
import { checkRequestOf } from '../../../src/consent/remote.ts';
import { type ConsentEvent, initialModel, reduceConsent } from '../../../src/consent/state.ts';
import { parseStoredConsent } from '../../../src/wire/consent.ts';
import { parseConsentConfig } from '../../../src/wire/consent-config.ts';

const run = (...events: ConsentEvent[]) => events.reduce(reduceConsent, initialModel);
const gpcStart = (consentRequired: boolean | 'remote', isGpcReject = true): ConsentEvent => ({
  type: 'start',
  stored: null,
  consentRequired,
  requiredPurposes: [],
  isGpcReject,
});

describe('reduceConsent with GPC', () => {
  it('rejects an undecided required consent without a prompt and saves nothing', () => {
    expect(run(gpcStart(true))).toMatchObject({
      state: { kind: 'rejected' },
      consentMetadata: { gpc: true },
      saved: null,
      isPromptShown: false,
    });
  });

  it('leaves a consent that is not required alone', () => {
    expect(run(gpcStart(false))).toMatchObject({ state: { kind: 'not-required' }, saved: null });
  });

  it('keeps a stored explicit decision', () => {
    const stored = { version: 2 as const, time: 0, state: 'accepted' as const };
    expect(
      run({ type: 'start', stored, consentRequired: true, requiredPurposes: [], isGpcReject: true }),
    ).toMatchObject({ state: { kind: 'accepted' }, saved: stored });
  });

  it('lets the post-prompt decide: an explicit choice wins and is saved', () => {
    const model = run(gpcStart(true), { type: 'prompt' }, { type: 'decide', decision: 'accepted' });
    expect(model).toMatchObject({
      state: { kind: 'accepted' },
      saved: { version: 2, state: 'accepted' },
      isPromptShown: false,
    });
    expect(model.consentMetadata).toBeUndefined();
  });

  it('keeps the GPC rejection on a dismiss', () => {
    expect(run(gpcStart(true), { type: 'prompt' }, { type: 'decide', decision: 'dismissed' })).toMatchObject({
      state: { kind: 'rejected' },
      saved: null,
    });
  });

  it('rejects once the server finds no decision, and yields to its stored decision', () => {
    const response = (consentStateValue: 'accepted' | 'unknown' | null): ConsentEvent => ({
      type: 'response',
      response: { consentRequired: true, consentStateValue, expireCache: false } as never,
    });
    expect(run(gpcStart('remote')).state.kind).toBe('pending');
    expect(run(gpcStart('remote'), response(null))).toMatchObject({
      state: { kind: 'rejected' },
      consentMetadata: { gpc: true },
      saved: null,
    });
    expect(run(gpcStart('remote'), response('unknown'))).toMatchObject({ state: { kind: 'rejected' }, saved: null });
    expect(run(gpcStart('remote'), response('accepted'))).toMatchObject({
      state: { kind: 'accepted' },
      saved: { state: 'accepted' },
    });
    expect(run(gpcStart(true), response('accepted'))).toMatchObject({
      state: { kind: 'accepted' },
      saved: { state: 'accepted' },
    });
  });

  it('prompts as before without GPC', () => {
    expect(run(gpcStart(true, false))).toMatchObject({ state: { kind: 'unknown' }, isPromptShown: true });
  });
});

describe('checkRequestOf with GPC', () => {
  it('carries gpc: true only when GPC applies', () => {
    expect(checkRequestOf('site', null, null, true)).toMatchObject({ gpc: true });
    expect(checkRequestOf('site', null, null, false)).not.toHaveProperty('gpc');
  });
});

const clock = { setTimeout: () => 0, clearTimeout: () => {} };

function setUp(json: Record<string, unknown>, geoGroups: string[] = [], stored: Record<string, unknown> = {}) {
  const values = new Map(Object.entries(stored));
  const storage = {
    get: (key: string) => values.get(key),
    set: (key: string, value: unknown) => void values.set(key, value),
    remove: (key: string) => void values.delete(key),
  };
  const fetch = vi.fn(
    async (_url: string | URL | Request, _init?: RequestInit) =>
      new Response(JSON.stringify({ consentRequired: true, consentStateValue: 'unknown' })),
  );
  const controller = createConsentController({
    storage,
    fetch,
    clock,
    report: vi.fn(),
    onChange: vi.fn(),
    expandUrl: async (url) => url,
    remote: async () => remote,
    parseStoredConsent,
    newId: () => 'user-1',
    now: () => 5,
  });
  const config = parseConsentConfig(
    { consentInstanceId: 'site', onUpdateHref: 'https://cmp.example/update', ...json },
    { geoGroups, baseUrl: 'https://news.example/a' },
  ).value;
  return { controller, values, fetch, config };
}

describe('createConsentController with GPC', () => {
  it('rejects without a prompt, stores nothing and posts nothing', async () => {
    const { controller, values, fetch, config } = setUp({ consentRequired: true, gpc: 'reject' });
    await controller.start(config, null, true);
    expect(controller.model()).toMatchObject({
      state: { kind: 'rejected' },
      consentMetadata: { gpc: true },
      isPromptShown: false,
    });
    expect([...values.keys()]).toEqual([]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('stores and posts an explicit choice made through the prompt action', async () => {
    const { controller, values, fetch, config } = setUp({ consentRequired: true, gpc: 'reject' });
    await controller.start(config, null, true);
    controller.dispatch({ type: 'prompt' });
    controller.dispatch({ type: 'decide', decision: 'accepted' });
    expect(values.get('consent:site')).toEqual({ version: 2, state: 'accepted', purposeConsents: {}, time: 5 });
    await controller.receipt();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]![0]).toBe('https://cmp.example/update');
  });

  it('prompts as before without the browser signal or without the config', async () => {
    for (const [json, hasGpc] of [
      [{ gpc: 'reject' }, false],
      [{}, true],
    ] as const) {
      const { controller, config } = setUp({ consentRequired: true, ...json });
      await controller.start(config, null, hasGpc);
      expect(controller.model()).toMatchObject({ state: { kind: 'unknown' }, isPromptShown: true });
    }
  });

  it("applies a geoOverride group's gpc only in that group", async () => {
    const json = { consentRequired: true, geoOverride: { ca: { gpc: 'reject' } } };
    const inGroup = setUp(json, ['ca']);
    await inGroup.controller.start(inGroup.config, 'ca', true);
    expect(inGroup.controller.model().state.kind).toBe('rejected');
    const outside = setUp(json, ['eea']);
    await outside.controller.start(outside.config, null, true);
    expect(outside.controller.model().state.kind).toBe('unknown');
  });

  it('sends gpc: true in the check body and stays rejected when the server has no decision', async () => {
    const { controller, values, fetch, config } = setUp({
      checkConsentHref: 'https://cmp.example/check',
      gpc: 'reject',
    });
    await controller.start(config, null, true);
    expect(JSON.parse(fetch.mock.calls[0]![1]!.body as string)).toMatchObject({
      consentStateValue: 'unknown',
      gpc: true,
    });
    expect(controller.model()).toMatchObject({ state: { kind: 'rejected' }, consentMetadata: { gpc: true } });
    expect(values.has('consent:site')).toBe(false);
  });
});
