import { describe, expect, it } from 'vitest';
import type { ConsentSignal } from '../../../src/consent/signal-source.ts';
import { completeTcData, tcfInputOf } from '../../../src/consent-tcf/tcf-data.ts';

const signal = (extra: Partial<ConsentSignal> = {}): ConsentSignal => ({
  state: 'accepted',
  purposeConsents: {},
  consentString: 'TC',
  consentMetadata: { consentStringType: 2, gdprApplies: true, additionalConsent: '1~1.35' },
  sharedData: undefined,
  isConsentRequired: true,
  isKnown: true,
  isPromptShown: false,
  tcfPolicyVersion: 5,
  isStringPending: false,
  hasTimedOut: false,
  decisionKey: '["accepted",{}]',
  ...extra,
});

const LIBRARY = {
  tcString: '',
  gdprApplies: true,
  tcfPolicyVersion: 4,
  cmpId: 10,
  purpose: { consents: {} },
  vendor: { consents: {} },
  specialFeatureOptins: {},
  publisher: {},
};

describe('tcf-data', () => {
  it.each([
    ['a TCF v2 string', {}, 'TC'],
    ['another string type', { consentMetadata: { consentStringType: 3, gdprApplies: true } }, ''],
    ['gdprApplies false', { consentMetadata: { consentStringType: 2, gdprApplies: false } }, null],
    ['no gdprApplies, consent required', { consentMetadata: { consentStringType: 2 } }, 'TC'],
    [
      'no gdprApplies, consent not required',
      { consentMetadata: { consentStringType: 2 }, isConsentRequired: false },
      null,
    ],
    [
      'no consentStringType (read as TCF, like the GDPR_CONSENT macro)',
      { consentMetadata: { gdprApplies: true } },
      'TC',
    ],
    ['no metadata at all', { consentMetadata: undefined }, 'TC'],
  ] as const)('passes the library the string of %s', (_, extra, expected) => {
    expect(tcfInputOf(signal(extra as Partial<ConsentSignal>))).toBe(expected);
  });

  it('completes TCData with the CMP string, addtlConsent and the stored policy version', () => {
    expect(completeTcData(LIBRARY, signal(), true)).toEqual({
      ...LIBRARY,
      tcString: 'TC',
      gdprApplies: true,
      tcfPolicyVersion: 5,
      addtlConsent: '1~1.35',
    });
  });

  it('keeps the library policy version when none is stored', () => {
    expect(completeTcData(LIBRARY, signal({ tcfPolicyVersion: undefined }), true)).toMatchObject({
      tcfPolicyVersion: 4,
    });
  });

  it('leaves out the decoded sections when the string did not decode', () => {
    const data = completeTcData(LIBRARY, signal(), false) as Record<string, unknown>;
    expect(data.tcString).toBe('TC');
    for (const section of ['purpose', 'vendor', 'specialFeatureOptins', 'publisher'])
      expect(data).not.toHaveProperty(section);
  });

  it('answers gdprApplies false without a string when GDPR does not apply', () => {
    const data = completeTcData(
      { ...LIBRARY, tcString: undefined },
      signal({ consentMetadata: { gdprApplies: false } }),
      true,
    ) as Record<string, unknown>;
    expect(data).toMatchObject({ gdprApplies: false, tcString: undefined });
    expect(data).not.toHaveProperty('addtlConsent');
  });

  it("leaves out the null listenerId the library gives getTCData, and keeps a listener's", () => {
    expect(completeTcData({ ...LIBRARY, listenerId: null }, signal(), true)).not.toHaveProperty('listenerId');
    expect(completeTcData({ ...LIBRARY, listenerId: 0 }, signal(), true)).toMatchObject({ listenerId: 0 });
  });

  it('passes a removeEventListener answer through', () => {
    expect(completeTcData(true, signal(), true)).toBe(true);
  });
});
