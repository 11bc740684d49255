import { describe, expect, it } from 'vitest';
import { DEFAULT_LIFETIME_DAYS, parseConsentLifetime } from '../../../src/wire/consent-lifetime.ts';
import { parseConsentConfig } from '../../../src/wire/consent-config.ts';
import type { Diagnostic } from '../../../src/wire/diagnostic.ts';

const parse = (json: unknown) => {
  const diagnostics: Diagnostic[] = [];
  return { value: parseConsentLifetime(json, diagnostics), diagnostics };
};

describe('parseConsentLifetime', () => {
  it('defaults to 390 days for both states', () => {
    expect(parse(undefined)).toEqual({ value: { accepted: DEFAULT_LIFETIME_DAYS, rejected: 390 }, diagnostics: [] });
  });

  it('reads one number for both states', () => {
    expect(parse(180).value).toEqual({ accepted: 180, rejected: 180 });
  });

  it('reads any positive number of days, fractions and long lifetimes too', () => {
    expect(parse(0.00001)).toEqual({ value: { accepted: 0.00001, rejected: 0.00001 }, diagnostics: [] });
    expect(parse({ accepted: 4000, rejected: 0.5 }).value).toEqual({ accepted: 4000, rejected: 0.5 });
  });

  it('reads a lifetime per state, the missing one defaulting', () => {
    expect(parse({ accepted: 390, rejected: 182 }).value).toEqual({ accepted: 390, rejected: 182 });
    expect(parse({ rejected: 30 }).value).toEqual({ accepted: 390, rejected: 30 });
  });

  it.each([
    0,
    -5,
    Number.POSITIVE_INFINITY,
    Number.NaN,
    '30',
    true,
    [30],
    { accepted: '30' },
    { accepted: 30, dismissed: 3 },
  ])('refuses %j with a diagnostic and keeps the default', (json) => {
    const { value, diagnostics } = parse(json);
    expect(value).toEqual({ accepted: 390, rejected: 390 });
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: 'consent-lifetime-invalid', field: 'consentLifetimeDays' }),
    ]);
  });

  it('is part of the parsed config, geoOverride included', () => {
    const json = {
      consentInstanceId: 'x',
      consentRequired: true,
      consentLifetimeDays: 100,
      geoOverride: { eea: { consentLifetimeDays: { rejected: 182 } } },
    };
    const config = parseConsentConfig(json, { geoGroups: ['eea'], baseUrl: 'https://a.example/' }).value;
    expect(config?.consentLifetime).toEqual({ accepted: 390, rejected: 182 });
    expect(parseConsentConfig(json, { geoGroups: [], baseUrl: 'https://a.example/' }).value?.consentLifetime).toEqual({
      accepted: 100,
      rejected: 100,
    });
  });
});
