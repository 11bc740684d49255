import { describe, expect, it } from 'vitest';
import {
  consentOf,
  defaultConsentOf,
  parseConsentModeMapping,
  parseConsentModeOptions,
} from '../../../src/consent/consent-mode.ts';
import type { Diagnostic } from '../../../src/runtime/index.ts';

const MAPPING = { ad_storage: 'consent', analytics_storage: 'purpose:analytics', security_storage: 'granted' } as const;

describe('consent-mode', () => {
  it('denies every mapped type by default except the granted ones', () => {
    expect(defaultConsentOf(MAPPING)).toEqual({
      ad_storage: 'denied',
      analytics_storage: 'denied',
      security_storage: 'granted',
    });
  });

  it.each([
    ['accepted', {}, { ad_storage: 'granted', analytics_storage: 'denied', security_storage: 'granted' }],
    [
      'accepted',
      { analytics: true },
      { ad_storage: 'granted', analytics_storage: 'granted', security_storage: 'granted' },
    ],
    [
      'rejected',
      { analytics: true },
      { ad_storage: 'denied', analytics_storage: 'granted', security_storage: 'granted' },
    ],
    ['dismissed', {}, { ad_storage: 'denied', analytics_storage: 'denied', security_storage: 'granted' }],
    ['not-required', {}, { ad_storage: 'granted', analytics_storage: 'granted', security_storage: 'granted' }],
    [
      'not-required',
      { analytics: false },
      { ad_storage: 'granted', analytics_storage: 'denied', security_storage: 'granted' },
    ],
  ] as const)('maps state %s with purposes %j', (state, purposeConsents, expected) => {
    expect(consentOf(MAPPING, { state, purposeConsents })).toEqual(expected);
  });

  it('reads purposes by own name only', () => {
    expect(consentOf({ ad_storage: 'purpose:constructor' }, { state: 'accepted', purposeConsents: {} })).toEqual({
      ad_storage: 'denied',
    });
  });

  it('drops unknown consent types and unknown sources with consent-mode-mapping-invalid', () => {
    const diagnostics: Diagnostic[] = [];
    const mapping = parseConsentModeMapping(
      { ad_storage: 'consent', cookies: 'consent', ad_user_data: true, ad_personalization: 'purpose:' },
      diagnostics,
    );
    expect(mapping).toEqual({ ad_storage: 'consent' });
    expect(diagnostics.map((d) => [d.code, d.field])).toEqual([
      ['consent-mode-mapping-invalid', 'cookies'],
      ['consent-mode-mapping-invalid', 'ad_user_data'],
      ['consent-mode-mapping-invalid', 'ad_personalization'],
    ]);
  });

  it('drops mistyped options with consent-mode-options-invalid, never coerced', () => {
    const diagnostics: Diagnostic[] = [];
    const options = parseConsentModeOptions(
      { waitForUpdate: '500', adsDataRedaction: true, urlPassthrough: 'true', other: 1 },
      diagnostics,
    );
    expect(options).toEqual({ adsDataRedaction: true });
    expect(diagnostics.map((d) => d.field)).toEqual(['waitForUpdate', 'urlPassthrough', 'other']);
    expect(diagnostics.every((d) => d.code === 'consent-mode-options-invalid')).toBe(true);
  });
});
