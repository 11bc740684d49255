import { describe, expect, it } from 'vitest';
import { isSubdivision, readSubdivision, subdivisionOf, US_SUBDIVISIONS } from '../../../src/wire/geo-subdivisions.ts';

describe('US_SUBDIVISIONS', () => {
  it('holds the 50 states, DC and the 6 outlying areas, once each', () => {
    expect(new Set(US_SUBDIVISIONS).size).toBe(57);
    expect(US_SUBDIVISIONS).toEqual(expect.arrayContaining(['us-ca', 'us-tx', 'us-dc', 'us-pr', 'us-wy', 'us-um']));
  });
});

describe('isSubdivision', () => {
  it.each(['us-ca', 'us-dc', 'ca-qc', 'gb-eng', 'fr-75', 'fr-2a'])('accepts %s', (code) => {
    expect(isSubdivision(code)).toBe(true);
  });

  it.each(['us-zz', 'us-cal', 'us', 'us-', 'usa-ca', 'US-CA', 'gb-engl', 'u-ca', 'unknown'])('refuses %s', (code) => {
    expect(isSubdivision(code)).toBe(false);
  });
});

describe('subdivisionOf (a CDN region header)', () => {
  it.each([
    ['us', 'CA', 'us-ca'],
    ['us', 'ca', 'us-ca'],
    ['us', ' TX ', 'us-tx'],
    ['us', 'US-CA', 'us-ca'],
    ['gb', 'ENG', 'gb-eng'],
    ['ca', 'QC', 'ca-qc'],
  ])('reads %s with %j as %s', (country, region, expected) => {
    expect(subdivisionOf(country, region)).toBe(expected);
  });

  it.each([
    ['us', 'ZZ', 'an unknown US state'],
    ['us', 'DE-BY', 'a subdivision of another country'],
    ['us', 'California', 'a name, not a code'],
    ['us', '', 'an empty value'],
    ['us', 'C A', 'a space inside'],
    ['gb', 'ENGL', 'four characters'],
    ['us', 'us-ca-x', 'two hyphens'],
  ])('refuses %s with %j (%s)', (country, region) => {
    expect(subdivisionOf(country, region)).toBeNull();
  });
});

describe('readSubdivision (what <page-geo> found)', () => {
  it.each(['us-ca', 'unknown', 'de-by'])('keeps %s', (code) => {
    expect(readSubdivision(code)).toEqual({ value: code, diagnostics: [] });
  });

  it('reports an unknown US state once and reads it as unknown', () => {
    expect(readSubdivision('us-zz')).toEqual({
      value: 'unknown',
      diagnostics: [{ code: 'geo-subdivision-invalid', expected: 'a state or area of us (us-ca)', got: '"us-zz"' }],
    });
  });
});
