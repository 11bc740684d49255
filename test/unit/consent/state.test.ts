import { describe, expect, it } from 'vitest';
import {
  type ConsentEvent,
  type ConsentModel,
  changeStateOf,
  initialModel,
  purposesOf,
  reduceConsent,
  type StartEvent,
} from '../../../src/consent/state.ts';
import type { CheckResult, StoredConsent } from '../../../src/wire/consent.ts';

const run = (...events: ConsentEvent[]) => events.reduce(reduceConsent, initialModel);
const start = (
  consentRequired: boolean | 'remote',
  stored: StoredConsent | null = null,
  requiredPurposes: string[] = [],
): StartEvent => ({
  type: 'start',
  stored,
  consentRequired,
  requiredPurposes,
});
const stored = (state: 'accepted' | 'rejected', extra: Partial<StoredConsent> = {}): StoredConsent => ({
  version: 2,
  time: 0,
  state,
  ...extra,
});
const answer = (fields: Partial<CheckResult>): ConsentEvent => ({
  type: 'response',
  response: {
    consentRequired: true,
    consentStateValue: null,
    consentString: undefined,
    expireCache: false,
    sharedData: undefined,
    purposeConsents: undefined,
    consentMetadata: undefined,
    tcfPolicyVersion: undefined,
    ...fields,
  },
});
const accept: ConsentEvent = { type: 'decide', decision: 'accepted' };
const reject: ConsentEvent = { type: 'decide', decision: 'rejected' };
const dismiss: ConsentEvent = { type: 'decide', decision: 'dismissed' };
const kindOf = (model: ConsentModel) => model.state.kind;

describe('reduceConsent: evaluation', () => {
  it('starts pending with nothing saved', () => {
    expect(kindOf(initialModel)).toBe('pending');
    expect(initialModel.saved).toBeNull();
  });

  it('is not-required and shows nothing when consentRequired is false and the cache is empty', () => {
    const model = run(start(false));
    expect(kindOf(model)).toBe('not-required');
    expect(model.isPromptShown).toBe(false);
  });

  it('shows the prompt when consentRequired is true and the cache is empty', () => {
    const model = run(start(true));
    expect(model.state).toEqual({ kind: 'unknown', hasTimedOut: false });
    expect(model.isPromptShown).toBe(true);
  });

  it('waits for the server when consentRequired is remote and the cache is empty', () => {
    const model = run(start('remote'));
    expect(kindOf(model)).toBe('pending');
    expect(model.isPromptShown).toBe(false);
  });

  it.each([true, false, 'remote'] as const)(
    'always uses the cached value, whatever consentRequired is (%s)',
    (required) => {
      const cached = stored('rejected', { consentString: 'abc', purposeConsents: { ads: true } });
      const model = run(start(required, cached));
      expect(kindOf(model)).toBe('rejected');
      expect(model).toMatchObject({
        consentString: 'abc',
        purposeConsents: { ads: true },
        isPromptShown: false,
        saved: cached,
      });
    },
  );

  it('shows the prompt on every visit until every required purpose has a choice', () => {
    expect(
      run(start(true, stored('accepted', { purposeConsents: { ads: true } }), ['ads', 'analytics'])).isPromptShown,
    ).toBe(true);
    expect(
      run(start(true, stored('accepted', { purposeConsents: { ads: true, analytics: false } }), ['ads', 'analytics']))
        .isPromptShown,
    ).toBe(false);
  });

  it('marks an invalid config', () => {
    expect(kindOf(run({ type: 'invalid' }))).toBe('invalid');
  });
});

describe('reduceConsent: user actions', () => {
  it('remembers accept, hides the prompt and caches the decision', () => {
    const model = run(start(true), accept);
    expect(kindOf(model)).toBe('accepted');
    expect(model.isPromptShown).toBe(false);
    expect(model.hasUserActed).toBe(true);
    expect(model.saved).toMatchObject({ version: 2, state: 'accepted' });
  });

  it('remembers reject and caches it', () => {
    const model = run(start(true), reject);
    expect(kindOf(model)).toBe('rejected');
    expect(model.saved?.state).toBe('rejected');
  });

  it('dismisses without caching anything', () => {
    const model = run(start(true), dismiss);
    expect(kindOf(model)).toBe('dismissed');
    expect(model.isPromptShown).toBe(false);
    expect(model.saved).toBeNull();
  });

  it('keeps an earlier decision when a re-shown prompt is dismissed', () => {
    const cached = stored('accepted');
    const model = run(start(true, cached), { type: 'prompt' }, dismiss);
    expect(kindOf(model)).toBe('accepted');
    expect(model.saved).toBe(cached);
  });

  it('ignores accept, reject, dismiss and setPurpose while no prompt is shown', () => {
    const shown = run(start(false));
    for (const event of [
      accept,
      reject,
      dismiss,
      { type: 'set-purposes', purposes: { ads: true } },
    ] as ConsentEvent[]) {
      expect(reduceConsent(shown, event)).toBe(shown);
    }
  });

  it('re-shows the prompt on the prompt action, even when consent is not required', () => {
    const model = run(start(false), { type: 'prompt' });
    expect(model.isPromptShown).toBe(true);
    expect(kindOf(run(start(false), { type: 'prompt' }, accept))).toBe('accepted');
  });

  it.each(['loading', 'invalid', 'waiting for the server'])('ignores the prompt action while %s', (kind) => {
    const events: ConsentEvent[] =
      kind === 'invalid' ? [{ type: 'invalid' }] : kind === 'loading' ? [] : [start('remote')];
    expect(run(...events, { type: 'prompt' }).isPromptShown).toBe(false);
  });

  it('holds setPurpose choices until accept or reject, then caches them', () => {
    const chosen = run(
      start(true),
      { type: 'set-purposes', purposes: { ads: true } },
      { type: 'set-purposes', purposes: { analytics: false } },
    );
    expect(chosen.purposeConsents).toEqual({});
    expect(chosen.pendingPurposes).toEqual({ ads: true, analytics: false });
    const decided = reduceConsent(chosen, reject);
    expect(decided.purposeConsents).toEqual({ ads: true, analytics: false });
    expect(decided.saved?.purposeConsents).toEqual({ ads: true, analytics: false });
    expect(decided.pendingPurposes).toEqual({});
  });

  it('drops setPurpose choices on dismiss', () => {
    const model = run(start(true), { type: 'set-purposes', purposes: { ads: true } }, dismiss);
    expect(model.purposeConsents).toEqual({});
    expect(model.pendingPurposes).toEqual({});
  });

  it('merges purpose choices into the cached ones instead of erasing them', () => {
    const cached = stored('accepted', { purposeConsents: { ads: true, analytics: true } });
    const model = run(
      start(true, cached),
      { type: 'prompt' },
      { type: 'set-purposes', purposes: { analytics: false } },
      accept,
    );
    expect(model.saved?.purposeConsents).toEqual({ ads: true, analytics: false });
  });

  it('gives purposeConsentDefault to required purposes without a choice only', () => {
    const model = run(
      start(true, null, ['ads', 'analytics', 'social']),
      { type: 'set-purposes', purposes: { ads: false } },
      { type: 'decide', decision: 'accepted', purposeConsentDefault: true },
    );
    expect(model.purposeConsents).toEqual({ ads: false, analytics: true, social: true });
  });

  it('leaves purposes unset without purposeConsentDefault', () => {
    expect(run(start(true, null, ['ads']), accept).purposeConsents).toEqual({});
  });

  it('keeps earlier purpose choices over purposeConsentDefault', () => {
    const cached = stored('accepted', { purposeConsents: { ads: false } });
    const model = run(start(true, cached, ['ads', 'analytics']), {
      type: 'decide',
      decision: 'accepted',
      purposeConsentDefault: true,
    });
    expect(model.purposeConsents).toEqual({ ads: false, analytics: true });
  });

  it('caches a consent string, metadata and policy version given with a decision', () => {
    const event: ConsentEvent = {
      type: 'decide',
      decision: 'accepted',
      consentString: 'CP1',
      consentMetadata: { gdprApplies: true },
      tcfPolicyVersion: 4,
    };
    expect(run(start(true), event).saved).toEqual({
      version: 2,
      state: 'accepted',
      consentString: 'CP1',
      purposeConsents: {},
      consentMetadata: { gdprApplies: true },
      tcfPolicyVersion: 4,
    });
  });
});

describe('reduceConsent: carried-over purposes', () => {
  const prompted = (cached: StoredConsent, ...events: ConsentEvent[]) =>
    run(start(true, cached), { type: 'prompt' }, ...events);
  const expiredStart: ConsentEvent = { ...start(true), expiredPurposes: { ads: true, video: false } };
  const setPurposes = (purposes: Record<string, boolean>): ConsentEvent => ({ type: 'set-purposes', purposes });

  it('turns a cached purpose acceptance into a rejection on a plain reject', () => {
    const model = prompted(stored('accepted', { purposeConsents: { ads: true, video: false } }), reject);
    expect(model.purposeConsents).toEqual({ ads: false, video: false });
    expect(model.saved).toMatchObject({ state: 'rejected', purposeConsents: { ads: false, video: false } });
  });

  it('keeps a cached purpose rejection on a plain accept', () => {
    const model = prompted(stored('rejected', { purposeConsents: { ads: false, video: true } }), accept);
    expect(model.saved).toMatchObject({ state: 'accepted', purposeConsents: { ads: false, video: true } });
  });

  it('keeps a purpose accepted with setPurpose in the same prompt on a reject, and rejects the other carried acceptances', () => {
    const model = prompted(
      stored('accepted', { purposeConsents: { ads: true, video: true } }),
      setPurposes({ ads: true }),
      reject,
    );
    expect(model.saved?.purposeConsents).toEqual({ ads: true, video: false });
  });

  it('rejects a purpose accepted in an earlier prompt of the same page', () => {
    const model = run(start(true), setPurposes({ ads: true }), accept, { type: 'prompt' }, reject);
    expect(model.purposeConsents).toEqual({ ads: false });
  });

  it('keeps the purposes a CMP sends with a reject as they are', () => {
    const model = prompted(stored('accepted', { purposeConsents: { ads: true, video: true } }), {
      ...reject,
      purposeConsents: { ads: true },
    });
    expect(model.purposeConsents).toEqual({ ads: true, video: false });
  });

  it('treats the purposes of an expired decision as carried over', () => {
    expect(run(expiredStart, reject).saved?.purposeConsents).toEqual({ ads: false, video: false });
    expect(run(expiredStart, accept).saved?.purposeConsents).toEqual({ ads: true, video: false });
    expect(run(expiredStart, setPurposes({ video: true }), reject).saved?.purposeConsents).toEqual({
      ads: false,
      video: true,
    });
  });

  it('drops setPurpose choices on a dismiss after an expiry, keeping the expired purposes', () => {
    const model = run(expiredStart, setPurposes({ video: true }), dismiss);
    expect(purposesOf(model)).toEqual({ ads: true, video: false });
    expect(
      run(expiredStart, setPurposes({ video: true }), dismiss, { type: 'prompt' }, reject).purposeConsents,
    ).toEqual({ ads: false, video: false });
  });

  it('forgets the expired purposes once the reader decides', () => {
    const model = run(expiredStart, reject, { type: 'prompt' }, accept);
    expect(model.expiredPurposes).toBeUndefined();
    expect(purposesOf(model)).toEqual({ ads: false, video: false });
  });
});

describe('reduceConsent: server answer', () => {
  it('is not-required when the server says consent is not required (or says nothing)', () => {
    expect(kindOf(run(start('remote'), answer({ consentRequired: false })))).toBe('not-required');
  });

  it('shows the prompt when the server requires consent and knows no decision', () => {
    const model = run(start('remote'), answer({ consentStateValue: 'unknown' }));
    expect(kindOf(model)).toBe('unknown');
    expect(model.isPromptShown).toBe(true);
  });

  it.each(['accepted', 'rejected'] as const)('uses and caches a server %s', (value) => {
    const model = run(
      start('remote'),
      answer({ consentStateValue: value, consentString: 'S', purposeConsents: { ads: true } }),
    );
    expect(kindOf(model)).toBe(value);
    expect(model.isPromptShown).toBe(false);
    expect(model.saved).toMatchObject({ state: value, consentString: 'S', purposeConsents: { ads: true } });
  });

  it('hides a prompt shown from the config when the server provides a decision', () => {
    const model = run(start(true), answer({ consentStateValue: 'accepted' }));
    expect(kindOf(model)).toBe('accepted');
    expect(model.isPromptShown).toBe(false);
  });

  it('refreshes the cache from the server, server values first', () => {
    const model = run(
      start(true, stored('rejected', { consentString: 'old' })),
      answer({ consentStateValue: 'accepted', consentString: 'new' }),
    );
    expect(kindOf(model)).toBe('accepted');
    expect(model.saved).toMatchObject({ state: 'accepted', consentString: 'new' });
  });

  it('ignores the server state when the server says consent is not required', () => {
    const model = run(start(true), answer({ consentRequired: false, consentStateValue: 'accepted' }));
    expect(kindOf(model)).toBe('unknown');
    expect(model.saved).toBeNull();
  });

  it('keeps the cached decision when the server knows no state', () => {
    const cached = stored('accepted');
    const model = run(start(true, cached), answer({ consentStateValue: null }));
    expect(kindOf(model)).toBe('accepted');
    expect(model.saved).toBe(cached);
  });

  it('clears the cache when the server state is unknown, keeping this page view decided', () => {
    const model = run(start(true, stored('accepted')), answer({ consentStateValue: 'unknown' }));
    expect(kindOf(model)).toBe('accepted');
    expect(model.saved).toBeNull();
  });

  it('clears the cache on expireCache and keeps the page decided', () => {
    const model = run(start(true, stored('accepted')), answer({ expireCache: true }));
    expect(kindOf(model)).toBe('accepted');
    expect(model.saved).toBeNull();
  });

  it('enforces the server state on expireCache without caching it', () => {
    const model = run(start(true, stored('accepted')), answer({ expireCache: true, consentStateValue: 'rejected' }));
    expect(kindOf(model)).toBe('rejected');
    expect(model.saved).toBeNull();
  });

  it('clears the cache on expireCache even when consent is not required', () => {
    expect(
      run(start(false, stored('accepted')), answer({ consentRequired: false, expireCache: true })).saved,
    ).toBeNull();
  });

  it('keeps sharedData without caching it', () => {
    const model = run(start(true), answer({ sharedData: { tier: 'gold' } }));
    expect(model.sharedData).toEqual({ tier: 'gold' });
    expect(model.saved).toBeNull();
  });

  it('keeps the user decision made before the answer arrives, taking only sharedData', () => {
    const model = run(
      start(true),
      accept,
      answer({ consentStateValue: 'rejected', expireCache: true, sharedData: { a: 1 } }),
    );
    expect(kindOf(model)).toBe('accepted');
    expect(model.saved?.state).toBe('accepted');
    expect(model.sharedData).toEqual({ a: 1 });
  });

  it('fails closed: a failed check while waiting makes consent required and shows the prompt', () => {
    const model = run(start('remote'), { type: 'failure' });
    expect(model.state).toEqual({ kind: 'unknown', hasTimedOut: false });
    expect(model.isPromptShown).toBe(true);
  });

  it('keeps a cached decision when the check fails', () => {
    expect(kindOf(run(start('remote', stored('accepted')), { type: 'failure' }))).toBe('accepted');
  });
});

describe('reduceConsent: policy timeout', () => {
  it('marks an undecided state as timed out, without caching', () => {
    const model = run(start(true), { type: 'timeout' });
    expect(model.state).toEqual({ kind: 'unknown', hasTimedOut: true });
    expect(model.saved).toBeNull();
    expect(model.isPromptShown).toBe(true);
  });

  it('ignores a timeout once decided', () => {
    const decided = run(start(true), accept);
    expect(reduceConsent(decided, { type: 'timeout' })).toBe(decided);
  });

  it('lets the user decide after the timeout', () => {
    expect(kindOf(run(start(true), { type: 'timeout' }, accept))).toBe('accepted');
  });
});

describe('changeStateOf', () => {
  it.each([
    [{ kind: 'pending' }, 'unknown'],
    [{ kind: 'invalid' }, 'unknown'],
    [{ kind: 'unknown', hasTimedOut: true }, 'unknown'],
    [{ kind: 'accepted' }, 'accepted'],
    [{ kind: 'rejected' }, 'rejected'],
    [{ kind: 'dismissed' }, 'dismissed'],
    [{ kind: 'not-required' }, 'not-required'],
  ] as const)('names %j as %s', (state, name) => {
    expect(changeStateOf(state)).toBe(name);
  });
});
