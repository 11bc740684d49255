import { describe, expect, it } from 'vitest';
import { readCountryHeader, readRegionHeader } from '../../../src/wire/geo-headers.ts';

describe('readCountryHeader', () => {
  it.each([
    ['US', 'us'],
    [' de ', 'de'],
    ['gb', 'gb'],
  ])('reads %j as %s', (value, expected) => {
    expect(readCountryHeader(value)).toBe(expected);
  });

  it.each([
    ['XX', 'unknown to the CDN'],
    ['T1', 'Tor'],
    ['ZZ', 'a placeholder'],
    ['USA', 'three letters'],
    ['U', 'one letter'],
    ['US, DE', 'a repeated header joined by Node'],
    ['', 'empty'],
    ['u1', 'a digit'],
  ])('refuses %j (%s)', (value) => {
    expect(readCountryHeader(value)).toBeNull();
  });

  it('refuses a repeated header given as a list, and an absent one', () => {
    expect(readCountryHeader(['US', 'US'])).toBeNull();
    expect(readCountryHeader(undefined)).toBeNull();
  });
});

describe('readRegionHeader', () => {
  it.each([
    ['us', 'CA', 'us-ca', 'Cloudflare, CloudFront, Vercel: the code after the hyphen'],
    ['us', 'ca', 'us-ca', 'App Engine: lowercase'],
    ['us', 'US-TX', 'us-tx', 'the whole ISO 3166-2 code'],
    ['ca', 'QC', 'ca-qc', 'another country'],
  ])('reads %s with %j as %s (%s)', (country, value, expected) => {
    expect(readRegionHeader(country, value)).toBe(expected);
  });

  it.each([
    ['us', 'ZZ', 'an unknown US state'],
    ['us', 'DE-BY', "another country's subdivision"],
    ['us', 'California', 'a name'],
    ['us', 'CA, TX', 'a repeated header joined by Node'],
    ['us', '', 'empty'],
  ])('refuses %s with %j (%s)', (country, value) => {
    expect(readRegionHeader(country, value)).toBeNull();
  });

  it('refuses a repeated header given as a list, and an absent one', () => {
    expect(readRegionHeader('us', ['CA', 'TX'])).toBeNull();
    expect(readRegionHeader('us', undefined)).toBeNull();
  });
});
