import { describe, expect, it } from 'vitest';
import { decisionKindOf, namedGroups } from '../../server/decision-kinds.ts';

const decision = (overrides: Partial<Parameters<typeof decisionKindOf>[0]> = {}) => ({
  state: 'accepted' as const,
  purposeConsents: null,
  consentMetadata: null,
  ...overrides,
});

describe('decision-kinds', () => {
  it.each([
    [decision(), 'accepted'],
    [decision({ purposeConsents: { ads: true, analytics: true } }), 'accepted'],
    [decision({ purposeConsents: { ads: true, analytics: false } }), 'custom'],
    [decision({ state: 'rejected', purposeConsents: { ads: true, analytics: false } }), 'custom'],
    [decision({ state: 'rejected', purposeConsents: { ads: false } }), 'rejected'],
    [decision({ state: 'rejected', consentMetadata: { usOptOuts: 'sale' } }), 'optOut'],
    [decision({ state: 'rejected', consentMetadata: { usOptOuts: '' } }), 'rejected'],
    [decision({ state: 'rejected', consentMetadata: { gpc: true } }), 'rejected'],
    [decision({ state: 'unknown', purposeConsents: { ads: true, analytics: false } }), 'unknown'],
  ] as const)('classifies %j as %s', (entry, kind) => {
    expect(decisionKindOf(entry)).toBe(kind);
  });

  it('names the null group "unknown", adding it to a group of that name, in code-unit order', () => {
    const none = { accepted: 0, custom: 0, rejected: 0, optOut: 0, unknown: 0 };
    expect(
      namedGroups([
        { ...none, group: null, accepted: 2 },
        { ...none, group: 'california', optOut: 1 },
        { ...none, group: 'unknown', accepted: 1, rejected: 3 },
        { ...none, group: 'Zone', custom: 1 },
      ]),
    ).toEqual([
      { ...none, group: 'Zone', custom: 1 },
      { ...none, group: 'california', optOut: 1 },
      { ...none, group: 'unknown', accepted: 3, rejected: 3 },
    ]);
  });
});
