// @vitest-environment node
// Inputs the fuzz properties found, kept as plain unit tests (docs/decisions/fuzzing.md).
import { describe, expect, it } from 'vitest';
import { matchGroups, parseGeoConfig } from '../../../src/wire/geo-groups.ts';
import { parseActions } from '../../../src/wire/actions.ts';
import { parseConsentConfig } from '../../../src/wire/consent-config.ts';
import { CMP_PRESETS } from '../../../src/wire/consent-presets.ts';
import { parseCheckAnswer } from '../../../src/wire/consent.ts';
import { parseCreativeConsentCall } from '../../../src/wire/creative-message.ts';
import { describe as describeValue } from '../../../src/wire/diagnostic.ts';

describe('fuzz regressions', () => {
  it('keeps an action argument named __proto__ as an own key, not as the prototype of the arguments', () => {
    const [call] = parseActions('tap:a.b(__proto__=event.x, constructor=1)').value.get('tap') ?? [];
    expect(Object.getPrototypeOf(call?.args)).toBe(Object.prototype);
    expect(Object.hasOwn(call!.args, '__proto__')).toBe(true);
    expect(call?.args.constructor).toBe(1);
  });

  it('reads a geo country that is an object without a usable toString as invalid, without throwing', () => {
    const { value, diagnostics } = parseGeoConfig(JSON.parse('{"ISOCountryGroups": {"eu": [{"toString": 1}, "de"]}}'));
    expect(value).toEqual({ eu: ['de'] });
    expect(diagnostics.map((d) => d.code)).toEqual(['geo-country-invalid']);
  });

  it('never takes an inherited name (constructor, __proto__) or a non-string for a geo preset', () => {
    const { value, diagnostics } = parseGeoConfig({
      ISOCountryGroups: { eu: ['constructor', '__proto__', ['de'], 'preset-us-ca'] },
    });
    expect(value).toEqual({ eu: ['preset-us-ca'] });
    expect(diagnostics.map((d) => d.code)).toEqual([
      'geo-country-invalid',
      'geo-country-invalid',
      'geo-country-invalid',
    ]);
    expect(matchGroups({ g: ['constructor', '__proto__', 'toString'] }, 'de')).toEqual([]);
  });

  it('builds the page-hosted preset for a consentInstanceId with a lone surrogate without throwing', () => {
    const json = JSON.parse('{"consentInstanceId": "site\\ud800", "consentRequired": true}');
    const { value } = parseConsentConfig(json, {
      geoGroups: [],
      type: 'page-hosted',
      baseUrl: 'https://news.example/',
      presets: CMP_PRESETS,
    });
    expect(value?.promptUiSrc).toBe('https://news.example/cmp/prompt.html');
  });

  it('describes a value that neither JSON nor String() can print, and shortens a long BigInt', () => {
    const hostile = { toString: 1, valueOf: 1, big: 1n };
    expect(describeValue(hostile)).toBe('[object Object]');
    expect(describeValue(10n ** 80n).length).toBe(60);
    const { value, diagnostics } = parseCreativeConsentCall({ pageAdConsentCall: { callId: hostile } });
    expect(value).toBeNull();
    expect(diagnostics.map((d) => d.code)).toEqual(['ad-consent-call-invalid']);
  });

  it('fails a check answer whose consentRequired is mistyped even when the legacy promptIfUnknown is there', () => {
    for (const promptIfUnknown of [true, false]) {
      const { value, diagnostics } = parseCheckAnswer(JSON.stringify({ consentRequired: 'yes', promptIfUnknown }));
      expect(value).toBeNull();
      expect(diagnostics.map((d) => d.code)).toEqual(['consent-check-failed']);
    }
  });
});
