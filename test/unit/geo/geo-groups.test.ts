import { describe, expect, it } from 'vitest';
import { matchGroups, parseGeoConfig, parseSubdivisionFallback, PRESETS } from '../../../src/wire/geo-groups.ts';
import { US_SUBDIVISIONS } from '../../../src/wire/geo-subdivisions.ts';

const EU27 = 'at be bg hr cy cz dk ee fi fr de gr hu ie it lv lt lu mt nl pl pt ro sk si es se'.split(' ');

describe('parseGeoConfig', () => {
  it('reads groups with lowercased codes', () => {
    const { value, diagnostics } = parseGeoConfig({ ISOCountryGroups: { us: ['US'], other: ['mx', 'ca', 'unknown'] } });
    expect(diagnostics).toEqual([]);
    expect(value).toEqual({ us: ['us'], other: ['mx', 'ca', 'unknown'] });
  });

  it('keeps presets as written and matches the countries they hold', () => {
    const { value } = parseGeoConfig({ ISOCountryGroups: { eea: ['Preset-EEA', 'tr'], ca: ['preset-us-ca'] } });
    expect(value).toEqual({ eea: ['preset-eea', 'tr'], ca: ['preset-us-ca'] });
    for (const country of PRESETS['preset-eea']!) expect(matchGroups(value, country)).toEqual(['eea']);
    expect(matchGroups(value, 'tr')).toEqual(['eea']);
    expect(matchGroups(value, 'us', 'us-ca')).toEqual(['ca']);
  });

  it('reads subdivision codes, lowercased, beside country codes', () => {
    const { value, diagnostics } = parseGeoConfig({
      ISOCountryGroups: { west: ['US-CA', 'us-or', 'ca-qc', 'gb-eng'] },
    });
    expect(diagnostics).toEqual([]);
    expect(value).toEqual({ west: ['us-ca', 'us-or', 'ca-qc', 'gb-eng'] });
  });

  it.each(['us-zz', 'US-XX', 'us-1'])('drops the unknown US subdivision %j with geo-subdivision-invalid', (code) => {
    const { value, diagnostics } = parseGeoConfig({ ISOCountryGroups: { g: [code, 'us-ca'] } });
    expect(value).toEqual({ g: ['us-ca'] });
    expect(diagnostics).toEqual([
      {
        code: 'geo-subdivision-invalid',
        expected: "a US state or area (us-ca) or another country's subdivision in g",
        got: `"${code}"`,
        field: 'ISOCountryGroups.g[0]',
      },
    ]);
  });

  it('names the field of each dropped group or entry', () => {
    const { diagnostics } = parseGeoConfig({ ISOCountryGroups: { 'eu-west': ['de'], g: ['de', 'usa'] } });
    expect(diagnostics.map((d) => d.field)).toEqual(['ISOCountryGroups.eu-west', 'ISOCountryGroups.g[1]']);
  });

  it.each([null, 'x', {}, { ISOCountryGroups: [] }])('reports an invalid config %j and has no groups', (json) => {
    const { value, diagnostics } = parseGeoConfig(json);
    expect(value).toEqual({});
    expect(diagnostics.map((d) => d.code)).toEqual(['geo-config-invalid']);
  });

  it.each([
    ['a group name with a dash', { 'eu-west': ['de'] }],
    ['a group name starting with a digit', { '1st': ['de'] }],
    ['a group that is not a list', { eea: 'de' }],
  ])('skips %s', (_, groups) => {
    const { value, diagnostics } = parseGeoConfig({ ISOCountryGroups: { ...groups, ok: ['fr'] } });
    expect(value).toEqual({ ok: ['fr'] });
    expect(diagnostics.map((d) => d.code)).toEqual(['geo-group-invalid']);
  });

  it.each(['deu', 'd', 'preset-mars', 3, 'us-cali', 'us_ca', 'u-ca'])('drops the invalid code %j', (code) => {
    const { value, diagnostics } = parseGeoConfig({ ISOCountryGroups: { g: [code, 'de'] } });
    expect(value).toEqual({ g: ['de'] });
    expect(diagnostics.map((d) => d.code)).toEqual(['geo-country-invalid']);
  });
});

describe('PRESETS', () => {
  it('puts the EU 27, Iceland, Liechtenstein and Norway in preset-eea', () => {
    for (const code of [...EU27, 'is', 'li', 'no']) expect(PRESETS['preset-eea']).toContain(code);
  });

  it('puts the United Kingdom and Switzerland in preset-eea', () => {
    expect(PRESETS['preset-eea']).toEqual(expect.arrayContaining(['gb', 'ch']));
  });

  it('keeps non-European countries out of preset-eea', () => {
    for (const code of ['us', 'tr', 'ru', 'ua', 'unknown']) expect(PRESETS['preset-eea']).not.toContain(code);
  });

  it('puts the EU regions that have their own ISO code in preset-eea', () => {
    expect(PRESETS['preset-eea']).toEqual(expect.arrayContaining(['ax', 'gf', 'gp', 'mq', 're', 'yt', 'mf']));
  });

  it('has 39 distinct two-letter codes in preset-eea (27 + 3 + 2 + 7 regions)', () => {
    expect(new Set(PRESETS['preset-eea']).size).toBe(39);
    expect(PRESETS['preset-eea']!.every((code) => /^[a-z]{2}$/.test(code))).toBe(true);
  });

  it('holds California only in preset-us-ca', () => {
    expect(PRESETS['preset-us-ca']).toEqual(['us-ca']);
  });

  it('holds the 19 states with a comprehensive privacy law in force in preset-us-privacy-states, all known US states', () => {
    const states = PRESETS['preset-us-privacy-states']!;
    expect(new Set(states).size).toBe(19);
    for (const state of states) expect(US_SUBDIVISIONS).toContain(state);
    expect(states).toEqual(
      expect.arrayContaining(['us-ca', 'us-va', 'us-co', 'us-ct', 'us-tx', 'us-ky', 'us-ri', 'us-in']),
    );
    for (const state of ['us-fl', 'us-wa', 'us-ny', 'us-dc', 'us-pr']) expect(states).not.toContain(state);
  });
});

describe('matchGroups', () => {
  const { value: groups } = parseGeoConfig({
    ISOCountryGroups: { eea: ['preset-eea'], california: ['preset-us-ca'], us: ['us'], geoGroupUnknown: ['unknown'] },
  });

  it.each([
    ['de', ['eea']],
    ['gb', ['eea']],
    ['jp', []],
    ['unknown', ['geoGroupUnknown']],
  ])('matches %s to %j', (country, expected) => {
    expect(matchGroups(groups, country)).toEqual(expected);
  });

  const states = parseGeoConfig({
    ISOCountryGroups: {
      california: ['preset-us-ca'],
      privacy: ['preset-us-privacy-states'],
      texas: ['us-tx'],
      us: ['us'],
      quebec: ['ca-qc'],
    },
  }).value;

  it.each([
    ['us', 'us-ca', ['california', 'privacy', 'us']],
    ['us', 'us-tx', ['privacy', 'texas', 'us']],
    ['us', 'us-va', ['privacy', 'us']],
    ['us', 'us-fl', ['us']],
    ['ca', 'ca-qc', ['quebec']],
    ['ca', 'ca-on', []],
  ])('matches %s in %s to %j', (country, subdivision, expected) => {
    expect(matchGroups(states, country, subdivision, 'strictest')).toEqual(expected);
    expect(matchGroups(states, country, subdivision, 'national')).toEqual(expected);
  });

  it('puts a US reader of unknown state in every group naming a US state under strictest, the default', () => {
    expect(matchGroups(states, 'us', 'unknown', 'strictest')).toEqual(['california', 'privacy', 'texas', 'us']);
    expect(matchGroups(states, 'us')).toEqual(['california', 'privacy', 'texas', 'us']);
  });

  it('puts a US reader of unknown state in the country groups only under national', () => {
    expect(matchGroups(states, 'us', 'unknown', 'national')).toEqual(['us']);
  });

  it('never puts a reader of another or unknown country in a US state group, whatever the fallback', () => {
    for (const fallback of ['strictest', 'national'] as const) {
      expect(matchGroups(states, 'ca', 'unknown', fallback)).toEqual(fallback === 'strictest' ? ['quebec'] : []);
      expect(matchGroups(states, 'unknown', 'unknown', fallback)).toEqual([]);
      expect(matchGroups(states, 'mx', 'unknown', fallback)).toEqual([]);
    }
  });
});

describe('parseSubdivisionFallback', () => {
  it.each([
    [{ ISOCountryGroups: {} }, 'strictest'],
    [{ subdivisionUnknown: 'strictest' }, 'strictest'],
    [{ subdivisionUnknown: 'national' }, 'national'],
    [null, 'strictest'],
  ])('reads %j as %s', (json, expected) => {
    expect(parseSubdivisionFallback(json)).toEqual({ value: expected, diagnostics: [] });
  });

  it.each(['National', 'none', true, null, ['national']])(
    'reports %j with geo-fallback-invalid and keeps strictest',
    (value) => {
      const { value: fallback, diagnostics } = parseSubdivisionFallback({ subdivisionUnknown: value });
      expect(fallback).toBe('strictest');
      expect(diagnostics.map((d) => [d.code, d.expected, d.field])).toEqual([
        ['geo-fallback-invalid', '"strictest" or "national"', 'subdivisionUnknown'],
      ]);
    },
  );
});
