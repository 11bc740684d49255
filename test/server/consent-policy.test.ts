import { describe, expect, it } from 'vitest';
import { buildCheckAnswer, isConsentRequired, resolveGeoGroup } from '../../server/consent-policy.ts';
import type { DecisionRecord, InstanceRecord } from '../../server/store/store.ts';
import { defaultInstanceConfig } from '../../server/store/store.ts';

const instance: InstanceRecord = {
  id: 'site',
  config: {
    ...defaultInstanceConfig,
    consentRequired: { default: false, eea: true },
    geoGroups: { eea: ['preset-eea'], us: ['us'] },
  },
  policyVersion: 2,
  createdAt: 0,
  updatedAt: 0,
};
const decision: DecisionRecord = {
  instanceId: 'site',
  userId: 'u',
  pageUserId: 'p',
  state: 'rejected',
  consentString: 'cs',
  purposeConsents: null,
  consentMetadata: null,
  tcfPolicyVersion: null,
  policyVersion: 2,
  time: 0,
};

/** The group the server answers for a country without a matchedGeoGroup. */
const groupForCountry = (country: string, geoGroups: Readonly<Record<string, readonly string[]>>) =>
  resolveGeoGroup({ ...defaultInstanceConfig, geoGroups }, null, { country, subdivision: 'unknown' });

describe('consent-policy', () => {
  it.each([
    ['eea', 'us', 'eea'],
    ['custom', 'de', 'custom'],
    [null, 'de', 'eea'],
    [null, 'us', 'us'],
    [null, 'jp', 'default'],
    [null, 'unknown', 'default'],
  ])('resolves matchedGeoGroup %s with country %s to %s', (matched, country, group) => {
    expect(resolveGeoGroup(instance.config, matched, { country, subdivision: 'unknown' })).toBe(group);
  });

  it.each([
    ['ca', 'strictest', 'california'],
    ['va', 'strictest', 'privacy'],
    ['ny', 'strictest', 'us'],
    ['unknown', 'strictest', 'california'],
    ['unknown', 'national', 'us'],
    ['ca', 'national', 'california'],
  ] as const)('groups a US reader in subdivision %s under subdivisionUnknown %s as %s', (state, fallback, group) => {
    const config = {
      ...defaultInstanceConfig,
      geoGroups: { california: ['preset-us-ca'], privacy: ['preset-us-privacy-states'], us: ['us'] },
      subdivisionUnknown: fallback,
    };
    const subdivision = state === 'unknown' ? state : `us-${state}`;
    expect(resolveGeoGroup(config, null, { country: 'us', subdivision })).toBe(group);
  });

  it.each([
    ['us', 'us-ca', 'california'],
    ['us', 'us-tx', 'us'],
    ['us', 'unknown', 'california'],
    ['de', 'unknown', 'default'],
  ])('resolves country %s in subdivision %s to %s', (country, subdivision, group) => {
    const geoGroups = { california: ['preset-us-ca'], us: ['us'] };
    expect(resolveGeoGroup({ ...defaultInstanceConfig, geoGroups }, null, { country, subdivision })).toBe(group);
  });

  it('requires consent per group, then default, then true', () => {
    expect(isConsentRequired(instance.config, 'eea')).toBe(true);
    expect(isConsentRequired(instance.config, 'us')).toBe(false);
    expect(isConsentRequired({ ...instance.config, consentRequired: {} }, 'us')).toBe(true);
  });

  it('answers a current decision without expireCache and omits empty fields', () => {
    expect(buildCheckAnswer(instance, 'eea', decision)).toEqual({
      consentRequired: true,
      consentStateValue: 'rejected',
      consentString: 'cs',
      expireCache: false,
    });
  });

  it('answers the purposes under both names, purposeConsents and the legacy purposeConsent', () => {
    const answer = buildCheckAnswer(instance, 'eea', { ...decision, purposeConsents: { ads: true } });
    expect(answer).toMatchObject({ purposeConsents: { ads: true }, purposeConsent: { ads: true } });
  });

  it('expires a decision from an older policy version', () => {
    expect(buildCheckAnswer(instance, 'eea', { ...decision, policyVersion: 1 })).toMatchObject({
      consentStateValue: 'unknown',
      consentString: null,
      expireCache: true,
    });
  });

  it('groups countries by direct code or preset, first group first', () => {
    expect(groupForCountry('ch', { a: ['preset-eea'], b: ['ch'] })).toBe('a');
    expect(groupForCountry('ch', { b: ['ch'], a: ['preset-eea'] })).toBe('b');
    expect(groupForCountry('us', { ca: ['preset-us-ca'] })).toBe('ca');
    expect(groupForCountry('unknown', { none: ['unknown'], eea: ['preset-eea'] })).toBe('none');
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    'treats the group name %s as an ordinary name without an entry',
    (group) => {
      expect(isConsentRequired(instance.config, group)).toBe(false);
      expect(isConsentRequired({ ...instance.config, consentRequired: {} }, group)).toBe(true);
      expect(buildCheckAnswer(instance, group, null).consentRequired).toBe(false);
    },
  );

  it('answers an own entry named like an Object.prototype property', () => {
    const consentRequired = JSON.parse('{"default": false, "__proto__": true, "constructor": true}') as Record<
      string,
      boolean
    >;
    const config = { ...instance.config, consentRequired };
    expect(isConsentRequired(config, '__proto__')).toBe(true);
    expect(isConsentRequired(config, 'constructor')).toBe(true);
    expect(isConsentRequired(config, 'toString')).toBe(false);
  });

  it('matches presets by own name only', () => {
    expect(groupForCountry('de', { g: ['constructor', 'toString', '__proto__', 'valueOf'] })).toBe('default');
    expect(groupForCountry('de', { g: ['constructor'], eea: ['preset-eea'] })).toBe('eea');
  });
});
