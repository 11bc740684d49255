import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  consentOf,
  defaultConsentOf,
  parseConsentModeMapping,
  parseConsentModeOptions,
  startConsentMode,
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

  it('reads regions as ISO 3166-1/2 codes in upper case, and the TCF flag; anything else is dropped', () => {
    const diagnostics: Diagnostic[] = [];
    const options = parseConsentModeOptions(
      { regions: ['AT', 'US-CA', 'ES-CT'], enableAdvertiserConsentMode: true },
      diagnostics,
    );
    expect(options).toEqual({ regions: ['AT', 'US-CA', 'ES-CT'], enableAdvertiserConsentMode: true });
    expect(diagnostics).toEqual([]);
    for (const regions of [[], ['at'], ['AUT'], ['US-'], 'AT', [1], [['AT']]]) {
      const dropped: Diagnostic[] = [];
      expect(parseConsentModeOptions({ regions }, dropped)).toEqual({});
      expect(dropped.map((d) => [d.code, d.field])).toEqual([['consent-mode-options-invalid', 'regions']]);
    }
    const flag: Diagnostic[] = [];
    expect(parseConsentModeOptions({ enableAdvertiserConsentMode: 'yes' }, flag)).toEqual({});
    expect(flag.map((d) => d.field)).toEqual(['enableAdvertiserConsentMode']);
  });
});

describe('startConsentMode', () => {
  afterEach(() => vi.unstubAllGlobals());
  /** The gtag calls pushed to a fresh `dataLayer`, as arrays. */
  const calls = () =>
    ((globalThis as unknown as { dataLayer: IArguments[] }).dataLayer ?? []).map((args) => Array.from(args));
  const stubPage = () => {
    vi.stubGlobal('self', globalThis);
    vi.stubGlobal('dataLayer', undefined);
    vi.stubGlobal('gtag', undefined);
  };

  it('sends one default for every region without regions', () => {
    stubPage();
    startConsentMode(MAPPING, { waitForUpdate: 500 });
    expect(calls()).toEqual([
      [
        'consent',
        'default',
        { ad_storage: 'denied', analytics_storage: 'denied', security_storage: 'granted', wait_for_update: 500 },
      ],
    ]);
  });

  it('with regions, grants every type elsewhere first, then denies in the regions', () => {
    stubPage();
    const update = startConsentMode(MAPPING, { waitForUpdate: 500, regions: ['AT', 'US-CA'] });
    expect(calls()).toEqual([
      ['consent', 'default', { ad_storage: 'granted', analytics_storage: 'granted', security_storage: 'granted' }],
      [
        'consent',
        'default',
        {
          ad_storage: 'denied',
          analytics_storage: 'denied',
          security_storage: 'granted',
          wait_for_update: 500,
          region: ['AT', 'US-CA'],
        },
      ],
    ]);
    // Updates carry no region: they apply to the reader, wherever they are.
    update({ state: 'rejected', purposeConsents: {} }, true);
    expect(calls()[2]).toEqual([
      'consent',
      'update',
      { ad_storage: 'denied', analytics_storage: 'denied', security_storage: 'granted' },
    ]);
  });
});
