import { describe, expect, it } from 'vitest';
import { decide, type PolicyInput, resolvePolicy } from '../../../src/consent/policy.ts';
import type { ConsentState } from '../../../src/consent/state.ts';
import type { BlockPolicy } from '../../../src/runtime/types.ts';

const input = (state: ConsentState, extra: Partial<PolicyInput> = {}): PolicyInput => ({
  state,
  purposeConsents: {},
  fallbackAction: 'dismiss',
  hasPrompt: true,
  ...extra,
});

const STATES: Record<string, ConsentState> = {
  pending: { kind: 'pending' },
  unknown: { kind: 'unknown', hasTimedOut: false },
  accepted: { kind: 'accepted' },
  rejected: { kind: 'rejected' },
  dismissed: { kind: 'dismissed' },
  'not-required': { kind: 'not-required' },
  invalid: { kind: 'invalid' },
};

const POLICIES: BlockPolicy[] = ['default', '_till_accepted', '_till_responded', '_auto_reject'];

/** Expected gate decision per state, in the order of POLICIES (docs/consent.md, "Blocking other elements"). */
const TABLE: Record<string, [string, string, string, string]> = {
  pending: ['pending', 'pending', 'pending', 'pending'],
  unknown: ['pending', 'pending', 'pending', 'allow'],
  accepted: ['allow', 'allow', 'allow', 'allow'],
  rejected: ['deny', 'deny', 'allow', 'allow'],
  dismissed: ['deny', 'deny', 'allow', 'allow'],
  'not-required': ['allow', 'allow', 'allow', 'allow'],
  invalid: ['deny', 'deny', 'deny', 'deny'],
};

describe('decide', () => {
  for (const [name, row] of Object.entries(TABLE)) {
    POLICIES.forEach((policy, index) => {
      it(`${row[index]}s ${policy} when ${name}`, () => {
        expect(decide({ policy, purposes: [] }, input(STATES[name]!))).toBe(row[index]);
      });
    });
  }

  it('denies default after a timeout with fallbackAction reject', () => {
    expect(
      decide(
        { policy: 'default', purposes: [] },
        input({ kind: 'unknown', hasTimedOut: true }, { fallbackAction: 'reject' }),
      ),
    ).toBe('deny');
  });

  it('denies default after a timeout with fallbackAction dismiss', () => {
    expect(decide({ policy: 'default', purposes: [] }, input({ kind: 'unknown', hasTimedOut: true }))).toBe('deny');
  });

  it('applies the timeout only to default', () => {
    const timedOut = input({ kind: 'unknown', hasTimedOut: true }, { fallbackAction: 'reject' });
    expect(decide({ policy: '_till_accepted', purposes: [] }, timedOut)).toBe('pending');
    expect(decide({ policy: '_till_responded', purposes: [] }, timedOut)).toBe('pending');
  });

  it('treats an undecided consent without a prompt UI as skipped: _till_responded builds, default does not', () => {
    const skipped = input(STATES.unknown!, { hasPrompt: false });
    expect(POLICIES.map((policy) => decide({ policy, purposes: [] }, skipped))).toEqual([
      'deny',
      'deny',
      'allow',
      'allow',
    ]);
  });

  it('allows purposes once every listed purpose is accepted', () => {
    const request = { policy: null, purposes: ['ads', 'analytics'] };
    expect(decide(request, input(STATES.accepted!, { purposeConsents: { ads: true, analytics: true } }))).toBe('allow');
    expect(decide(request, input(STATES.rejected!, { purposeConsents: { ads: true, analytics: true } }))).toBe('allow');
  });

  it('denies purposes when one is rejected, even before a decision', () => {
    const request = { policy: null, purposes: ['ads', 'analytics'] };
    expect(decide(request, input(STATES.unknown!, { purposeConsents: { ads: true, analytics: false } }))).toBe('deny');
  });

  it.each([
    ['pending', 'pending'],
    ['unknown', 'pending'],
    ['accepted', 'deny'],
    ['rejected', 'deny'],
    ['dismissed', 'deny'],
    ['not-required', 'deny'],
    ['invalid', 'deny'],
  ])('treats purposes without a choice when %s as %s', (name, expected) => {
    expect(decide({ policy: null, purposes: ['ads'] }, input(STATES[name]!, { purposeConsents: { ads: true } }))).toBe(
      name === 'invalid' ? 'deny' : 'allow',
    );
    expect(
      decide({ policy: null, purposes: ['ads', 'video'] }, input(STATES[name]!, { purposeConsents: { ads: true } })),
    ).toBe(expected);
  });

  it('needs both the policy and the purposes when an element has both markers', () => {
    const purposes = { purposeConsents: { ads: true } };
    expect(decide({ policy: 'default', purposes: ['ads'] }, input(STATES.rejected!, purposes))).toBe('deny');
    expect(decide({ policy: 'default', purposes: ['ads'] }, input(STATES.accepted!, purposes))).toBe('allow');
    expect(decide({ policy: 'default', purposes: ['ads'] }, input(STATES.accepted!))).toBe('deny');
    expect(decide({ policy: 'default', purposes: ['ads'] }, input(STATES.unknown!, purposes))).toBe('pending');
  });
});

describe('resolvePolicy', () => {
  it.each([
    ['accepted', 'sufficient'],
    ['rejected', 'insufficient'],
    ['not-required', 'unknown_not_required'],
    ['dismissed', 'unknown'],
    ['invalid', 'unknown'],
    ['unknown', null],
    ['pending', null],
  ])('resolves default to %s -> %s', (name, expected) => {
    expect(resolvePolicy('default', input(STATES[name]!))).toBe(expected);
  });

  it('rejects automatically for _auto_reject once consent is known to be required', () => {
    expect(resolvePolicy('_auto_reject', input(STATES.unknown!))).toBe('insufficient');
    expect(resolvePolicy('_auto_reject', input(STATES.pending!))).toBeNull();
  });

  it('resolves an undecided consent without a prompt UI to unknown, except _auto_reject', () => {
    const skipped = input(STATES.unknown!, { hasPrompt: false });
    expect(POLICIES.map((policy) => resolvePolicy(policy, skipped))).toEqual([
      'unknown',
      'unknown',
      'unknown',
      'insufficient',
    ]);
  });

  it.each([
    ['reject', 'insufficient'],
    ['dismiss', 'unknown'],
  ] as const)('resolves default after a timeout with fallbackAction %s to %s', (fallbackAction, expected) => {
    expect(resolvePolicy('default', input({ kind: 'unknown', hasTimedOut: true }, { fallbackAction }))).toBe(expected);
  });
});
