import { describe, expect, it } from 'vitest';
import { isConsentRequired } from '../../server/consent-policy.ts';
import { parseInstanceConfig } from '../../server/instance-config.ts';
import { readInstanceTcf } from '../../src/wire/instance-config.ts';
import { collector } from '../../src/wire/values.ts';

describe('instance-config', () => {
  it('keeps group names such as __proto__ and constructor as own keys', () => {
    const config = parseInstanceConfig(JSON.parse('{"consentRequired": {"__proto__": false, "constructor": false}}'));
    expect(Object.hasOwn(config.consentRequired, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(config.consentRequired)).toBe(Object.prototype);
    expect(isConsentRequired(config, '__proto__')).toBe(false);
    expect(isConsentRequired(config, 'constructor')).toBe(false);
    expect(isConsentRequired(config, 'toString')).toBe(true);
    expect(JSON.parse(JSON.stringify(config.consentRequired))).toEqual(
      JSON.parse('{"default": true, "__proto__": false, "constructor": false}'),
    );
  });

  it('leaves out an object whose required field its reader refused, with that one diagnostic', () => {
    const into = collector('invalid-field');
    const tcf = readInstanceTcf(
      into,
      { cmpId: 300, cmpVersion: 1, vendors: [8], siteGroup: { name: 'Group', url: 'ftp://group.example' } },
      'tcf',
    );
    expect(tcf).toEqual({ cmpId: 300, cmpVersion: 1, vendors: [8] });
    expect(into.diagnostics.map((d) => d.field)).toEqual(['tcf.siteGroup.url']);
  });

  it('refuses an unknown field, naming it, rather than storing the defaults for a typo', () => {
    expect(() => parseInstanceConfig({ consentRequird: false })).toThrow(
      /^consentRequird: expected one of the fields consentRequired, geoGroups/,
    );
    expect(parseInstanceConfig({ consentRequired: false }).consentRequired).toEqual({ default: false });
  });

  it.each([
    [
      'sharedData',
      { sharedData: { tier: 'a\u0000b' } },
      /^sharedData\.tier: expected a string, number or boolean, got "a.b"/s,
    ],
    [
      'a sharedData key',
      { sharedData: { ['t\u0000']: 'x' } },
      /^sharedData: expected a key of 1-100 characters, got "t."/s,
    ],
    [
      'xssiPrefix',
      { xssiPrefix: ')]}\uDC00' },
      /^xssiPrefix: expected a string of 1-32 characters, got "\)\]\}\uDC00"/,
    ],
    ['a prompt title', { prompt: { title: 'a\uD800', message: 'm' } }, /^prompt\.title: /],
  ])('refuses NUL or a lone surrogate in %s, naming the field', (_name, body, message) => {
    expect(() => parseInstanceConfig(body)).toThrow(message);
  });
});
