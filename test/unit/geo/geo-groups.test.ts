import { describe, expect, it } from 'vitest';
import { matchGroups, parseGeoConfig, PRESETS } from '../../../src/wire/geo-groups.ts';

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
    expect(matchGroups(value, 'us')).toEqual(['ca']);
  });

  it('names the field of each dropped group or entry', () => {
    const { diagnostics } = parseGeoConfig({ ISOCountryGroups: { 'eu-west': ['de'], g: ['de', 'us-ca'] } });
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

  it.each(['deu', 'd', 'preset-mars', 3, 'us-ca'])('drops the invalid code %j', (code) => {
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

  it('matches the whole US for preset-us-ca', () => {
    expect(PRESETS['preset-us-ca']).toEqual(['us']);
  });
});

describe('matchGroups', () => {
  const { value: groups } = parseGeoConfig({
    ISOCountryGroups: { eea: ['preset-eea'], california: ['preset-us-ca'], us: ['us'], geoGroupUnknown: ['unknown'] },
  });

  it.each([
    ['de', ['eea']],
    ['gb', ['eea']],
    ['us', ['california', 'us']],
    ['jp', []],
    ['unknown', ['geoGroupUnknown']],
  ])('matches %s to %j', (country, expected) => {
    expect(matchGroups(groups, country)).toEqual(expected);
  });
});
