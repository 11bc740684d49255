// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { detailOf, installConsentProvider, type ConsentView } from '../../../src/consent/provider.ts';
import { initialModel, reduceConsent, type ConsentEvent } from '../../../src/consent/state.ts';
import type { ConsentProvider, PageElementInstance, PageRuntime } from '../../../src/runtime/types.ts';

/** A provider over a model the test drives. */
function setUp(hasPrompt = true, checked: Promise<void> = Promise.resolve()) {
  let provider: ConsentProvider | undefined;
  const owner = { element: document.createElement('page-consent') } as unknown as PageElementInstance;
  const page = {
    setConsentProvider: (from: PageElementInstance, next: ConsentProvider) => {
      expect(from).toBe(owner);
      provider = next;
    },
  } as unknown as PageRuntime;
  let view: ConsentView = { ...initialModel, fallbackAction: 'dismiss', hasPrompt };
  const [installed, notify] = installConsentProvider(page, owner, () => view, checked);
  expect(installed).toBe(provider);
  const dispatch = (...events: ConsentEvent[]) => {
    view = { ...events.reduce(reduceConsent, view), fallbackAction: view.fallbackAction, hasPrompt };
    notify();
  };
  return { provider: provider!, dispatch };
}
const start = (consentRequired: boolean | 'remote'): ConsentEvent => ({
  type: 'start',
  stored: null,
  consentRequired,
  requiredPurposes: [],
});

describe('installConsentProvider', () => {
  it('tells when the remote check is over', async () => {
    let settle = () => {};
    const checked = new Promise<void>((resolve) => (settle = resolve));
    const { provider } = setUp(true, checked);
    let isChecked = false;
    provider.whenChecked().then(() => (isChecked = true));
    await Promise.resolve();
    expect(isChecked).toBe(false);
    settle();
    await checked;
    await Promise.resolve();
    expect(isChecked).toBe(true);
  });

  it('decides block requests from the current model', () => {
    const { provider, dispatch } = setUp();
    expect(provider.decide({ policy: 'default', purposes: [] })).toBe('pending');
    dispatch(start(true), { type: 'decide', decision: 'accepted' });
    expect(provider.decide({ policy: 'default', purposes: [] })).toBe('allow');
  });

  it('resolves getPolicyState once a decision exists', async () => {
    const { provider, dispatch } = setUp();
    const state = provider.getPolicyState('default');
    let value: unknown;
    state.then((v) => (value = v));
    dispatch(start(true));
    await Promise.resolve();
    expect(value).toBeUndefined();
    dispatch({ type: 'decide', decision: 'rejected' });
    expect(await state).toBe('insufficient');
  });

  it('reads unknown policy ids as default', async () => {
    const { provider, dispatch } = setUp();
    dispatch(start(false));
    expect(await provider.getPolicyState('something')).toBe('unknown_not_required');
  });

  it('resolves unknown at once when no prompt UI can answer, and lets _till_responded build', async () => {
    const { provider, dispatch } = setUp(false);
    dispatch(start(true));
    expect(await provider.getPolicyState('default')).toBe('unknown');
    expect(provider.decide({ policy: '_till_responded', purposes: [] })).toBe('allow');
  });

  it('resolves unknown for an invalid config', async () => {
    const { provider, dispatch } = setUp();
    dispatch({ type: 'invalid' });
    expect(await provider.getPolicyState('_till_responded')).toBe('unknown');
    expect(provider.decide({ policy: '_till_responded', purposes: [] })).toBe('deny');
  });

  it('tells subscribers about changes until they unsubscribe', () => {
    const { provider, dispatch } = setUp();
    const listener = vi.fn();
    const stop = provider.subscribe(listener);
    dispatch(start(true));
    stop();
    dispatch({ type: 'decide', decision: 'accepted' });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it.each([
    [[], { state: 'unknown', isConsentRequired: undefined }],
    [[start(false)], { state: 'not-required', isConsentRequired: false }],
    [[start(true)], { state: 'unknown', isConsentRequired: true }],
    [[start(true), { type: 'decide', decision: 'dismissed' }], { state: 'dismissed', isConsentRequired: true }],
  ] as [ConsentEvent[], object][])('snapshots %j', (events, expected) => {
    const { provider, dispatch } = setUp();
    dispatch(...events);
    expect(provider.snapshot()).toMatchObject({ ...expected, purposeConsents: {} });
  });
});

describe('detailOf', () => {
  it('has exactly the consent-change fields', () => {
    const model = [start(true), { type: 'decide', decision: 'accepted' } as ConsentEvent].reduce(
      reduceConsent,
      initialModel,
    );
    expect(Object.keys(detailOf(model)).sort()).toEqual([
      'consentMetadata',
      'consentString',
      'purposeConsents',
      'sharedData',
      'state',
    ]);
    expect(detailOf(model).state).toBe('accepted');
  });

  it('says gpcHonored while a GPC rejection is in force, and not once the reader decided otherwise', () => {
    const gpc = reduceConsent(initialModel, { ...start(true), isGpcReject: true } as ConsentEvent);
    expect(detailOf(gpc)).toMatchObject({ state: 'rejected', consentMetadata: { gpc: true }, gpcHonored: true });
    const accepted = [{ type: 'prompt' }, { type: 'decide', decision: 'accepted' }].reduce(
      (model, event) => reduceConsent(model, event as ConsentEvent),
      gpc,
    );
    expect(detailOf(accepted).state).toBe('accepted');
    expect(detailOf(accepted)).not.toHaveProperty('gpcHonored');
  });
});
