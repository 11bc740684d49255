import { describe, expect, it } from 'vitest';
import { hasGeoSignalFields, isAllowedUrl, mergeConfig, parseConsentConfig } from '../../../src/wire/consent-config.ts';

const base = 'https://news.example/article';
const parse = (json: unknown, geoGroups: string[] = [], type: string | null = null) =>
  parseConsentConfig(json, { geoGroups, type, baseUrl: base });
const codes = (json: unknown, geoGroups: string[] = []) => parse(json, geoGroups).diagnostics.map((d) => d.code);
const valid = { consentInstanceId: 'site', consentRequired: true };

describe('parseConsentConfig', () => {
  it('reads a minimal client-only config with defaults', () => {
    expect(parse(valid)).toEqual({
      value: {
        consentInstanceId: 'site',
        consentRequired: true,
        purposeConsentRequired: [],
        overlay: false,
        consentPromptCaption: 'User Consent Prompt',
        buttonActionCaption: 'Focus Prompt',
        timeoutSeconds: null,
        fallbackAction: 'dismiss',
        matchedGeoGroup: null,
        consentLifetime: { accepted: 390, rejected: 390 },
      },
      diagnostics: [],
    });
  });

  it('reads every optional field', () => {
    const { value, diagnostics } = parse({
      ...valid,
      checkConsentHref: 'https://cmp.example/check',
      onUpdateHref: '/consent/update',
      promptUI: 'prompt',
      postPromptUI: 'manage',
      purposeConsentRequired: ['ads', 'analytics'],
      xssiPrefix: ")]}'",
      uiConfig: { overlay: true },
      captions: { consentPromptCaption: 'Privacy', buttonActionCaption: 'Go' },
      policy: { default: { waitFor: { site: [] }, timeout: { seconds: 3, fallbackAction: 'reject' } } },
    });
    expect(diagnostics).toEqual([]);
    expect(value).toMatchObject({
      checkConsentHref: 'https://cmp.example/check',
      onUpdateHref: '/consent/update',
      promptUI: 'prompt',
      postPromptUI: 'manage',
      purposeConsentRequired: ['ads', 'analytics'],
      xssiPrefix: ")]}'",
      overlay: true,
      consentPromptCaption: 'Privacy',
      buttonActionCaption: 'Go',
      timeoutSeconds: 3,
      fallbackAction: 'reject',
    });
  });

  it.each([
    ['a non-object', [], 'consent-config-invalid'],
    ['null', null, 'consent-config-invalid'],
    ['no consentInstanceId', { consentRequired: true }, 'consent-instance-id'],
    ['an empty consentInstanceId', { consentInstanceId: '', consentRequired: true }, 'consent-instance-id'],
    ['no consentRequired and no checkConsentHref', { consentInstanceId: 'site' }, 'consent-required-missing'],
    ['a bad consentRequired', { consentInstanceId: 'site', consentRequired: 'yes' }, 'consent-required-invalid'],
    [
      'remote without checkConsentHref',
      { consentInstanceId: 'site', consentRequired: 'remote' },
      'consent-required-invalid',
    ],
    [
      'a checkConsentHref that is not http(s)',
      { ...valid, checkConsentHref: 'ftp://cmp.example/check' },
      'consent-url-invalid',
    ],
    ['an http onUpdateHref', { ...valid, onUpdateHref: 'http://cmp.example/update' }, 'consent-url-invalid'],
    ['a javascript: URL', { ...valid, onUpdateHref: 'javascript:alert(1)' }, 'consent-url-invalid'],
  ])('fails closed on %s', (_, json, code) => {
    const { value, diagnostics } = parse(json);
    expect(value).toBeNull();
    expect(diagnostics.at(-1)?.code).toBe(code);
  });

  it('accepts an http checkConsentHref (docs/consent.md asks https of onUpdateHref only)', () => {
    expect(parse({ ...valid, checkConsentHref: 'http://cmp.example/check' }).value).toMatchObject({
      checkConsentHref: 'http://cmp.example/check',
    });
  });

  it('tells the publisher to set consentRequired for a client-only setup', () => {
    expect(parse({ consentInstanceId: 'site' }).diagnostics[0]?.expected).toContain('consentRequired: true');
  });

  it('defaults consentRequired to remote when checkConsentHref is given', () => {
    expect(parse({ consentInstanceId: 'site', checkConsentHref: '/check' }).value?.consentRequired).toBe('remote');
  });

  it('computes the consentRequired default after the geo merge', () => {
    const json = {
      consentInstanceId: 'site',
      geoOverride: { eea: { checkConsentHref: '/check' }, us: { consentRequired: false } },
    };
    expect(parse(json, ['eea']).value?.consentRequired).toBe('remote');
    expect(parse(json, ['us']).value?.consentRequired).toBe(false);
    expect(parse(json, []).diagnostics.map((d) => d.code)).toEqual(['consent-required-missing']);
  });

  it('merges only the first matching geo group, in key order', () => {
    const json = { ...valid, geoOverride: { a: { promptUI: 'a' }, b: { promptUI: 'b', postPromptUI: 'b' } } };
    const { value } = parse(json, ['b', 'a']);
    expect(value).toMatchObject({ promptUI: 'a', matchedGeoGroup: 'a' });
    expect(value?.postPromptUI).toBeUndefined();
  });

  it('merges nested geo objects one level deep', () => {
    const json = {
      ...valid,
      captions: { consentPromptCaption: 'Base', buttonActionCaption: 'Keep' },
      geoOverride: { eea: { captions: { consentPromptCaption: 'EEA' } } },
    };
    expect(parse(json, ['eea']).value).toMatchObject({ consentPromptCaption: 'EEA', buttonActionCaption: 'Keep' });
  });

  it('refuses consentInstanceId inside a geo group and keeps the rest of the group', () => {
    const json = { ...valid, geoOverride: { eea: { consentInstanceId: 'other', promptUI: 'eea' } } };
    const { value, diagnostics } = parse(json, ['eea']);
    expect(value).toMatchObject({ consentInstanceId: 'site', promptUI: 'eea', matchedGeoGroup: 'eea' });
    expect(diagnostics.map((d) => d.code)).toEqual(['consent-geo-instance-id']);
  });

  it('merges the signal fields of a geo group like any other field, and says when a group has them', () => {
    const json = {
      ...valid,
      exposesTcfApi: true,
      cmpId: 10,
      geoOverride: { eea: { exposesTcfApi: false, cmpId: 99, gpc: 'reject' } },
    };
    const { value, diagnostics } = parse(json, ['eea']);
    expect(value).toMatchObject({ exposesTcfApi: false, cmpId: 99, gpc: 'reject', matchedGeoGroup: 'eea' });
    expect(diagnostics).toEqual([]);
    expect(hasGeoSignalFields(json)).toBe(true);
    expect(
      hasGeoSignalFields({
        ...valid,
        exposesTcfApi: true,
        geoOverride: { eea: { gpc: 'reject' }, us: { consentRequired: false } },
      }),
    ).toBe(false);
    expect(hasGeoSignalFields({ ...valid, geoOverride: { eea: { consentModeOptions: {} } } })).toBe(true);
    expect(hasGeoSignalFields({ ...valid, geoOverride: { eea: Object.create({ cmpId: 1 }) } })).toBe(false);
    expect(hasGeoSignalFields(null)).toBe(false);
  });

  it('keeps the base config when no geo group matches', () => {
    const json = { ...valid, geoOverride: { eea: { consentRequired: false } } };
    expect(parse(json, ['us']).value).toMatchObject({ consentRequired: true, matchedGeoGroup: null });
  });

  it('reports an invalid geoOverride and ignores an invalid group', () => {
    expect(codes({ ...valid, geoOverride: [] })).toEqual(['consent-field-invalid']);
    expect(parse({ ...valid, geoOverride: { eea: true } }, ['eea']).value?.consentRequired).toBe(true);
  });

  it('maps the legacy promptIfUnknown to consentRequired', () => {
    expect(parse({ consentInstanceId: 'site', promptIfUnknown: true }).value?.consentRequired).toBe(true);
    expect(
      parse({ consentInstanceId: 'site', promptIfUnknown: false, checkConsentHref: '/c' }).value?.consentRequired,
    ).toBe(false);
  });

  it('prefers consentRequired over promptIfUnknown', () => {
    expect(parse({ ...valid, consentRequired: false, promptIfUnknown: true }).value?.consentRequired).toBe(false);
  });

  it.each([
    ['promptUI', 3],
    ['onUpdateHref', 42],
    ['checkConsentHref', true],
    ['geoOverride', 'eea'],
    ['postPromptUI', {}],
    ['purposeConsentRequired', 'ads'],
    ['purposeConsentRequired', ['ads', 1]],
    ['xssiPrefix', false],
    ['uiConfig', true],
    ['captions', 'x'],
    ['policy', []],
  ])('ignores an invalid %s with a diagnostic', (key, bad) => {
    const { value, diagnostics } = parse({ ...valid, [key]: bad });
    expect(value).not.toBeNull();
    expect(diagnostics.map((d) => d.code)).toEqual(['consent-field-invalid']);
    expect(diagnostics[0]?.expected).toContain(key);
  });

  it('ignores invalid nested uiConfig and captions values', () => {
    const { value, diagnostics } = parse({
      ...valid,
      uiConfig: { overlay: 'yes' },
      captions: { consentPromptCaption: 1 },
    });
    expect(value).toMatchObject({ overlay: false, consentPromptCaption: 'User Consent Prompt' });
    expect(diagnostics.map((d) => d.expected)).toEqual(['overlay: boolean', 'consentPromptCaption: string']);
  });

  it('accepts a timeout in seconds as a number', () => {
    expect(parse({ ...valid, policy: { default: { timeout: 0 } } }).value).toMatchObject({
      timeoutSeconds: 0,
      fallbackAction: 'dismiss',
    });
  });

  it.each([
    [{ other: {} }, 'only policy.default'],
    [{ _till_accepted: { timeout: 2 } }, 'only policy.default'],
    [{ default: { timeout: -1 } }, 'timeout'],
    [{ default: { timeout: 1e7 } }, 'timeout'],
    [{ default: { timeout: '5' } }, 'timeout'],
    [{ default: { timeout: { fallbackAction: 'reject' } } }, 'timeout'],
    [{ default: { timeout: { fallbackAction: 'reject', seconds: 'x' } } }, 'timeout'],
    [{ default: { timeout: { seconds: 1, fallbackAction: 'accept' } } }, 'fallbackAction'],
  ])('reports policy %j and ignores what is invalid', (policy, expected) => {
    const { value, diagnostics } = parse({ ...valid, policy });
    expect(value).toMatchObject({
      timeoutSeconds:
        (policy as { default?: { timeout?: { seconds?: number } } }).default?.timeout?.seconds === 1 ? 1 : null,
    });
    expect(diagnostics.map((d) => d.code)).toEqual(['consent-policy-invalid']);
    expect(diagnostics[0]?.expected).toContain(expected);
  });

  it('ignores waitFor, whose value docs/consent.md says is ignored', () => {
    expect(parse({ ...valid, policy: { default: { waitFor: { site: [] }, timeout: 2 } } })).toMatchObject({
      value: { timeoutSeconds: 2 },
      diagnostics: [],
    });
  });

  it('never lets a refused fallbackAction reject', () => {
    expect(
      parse({ ...valid, policy: { default: { timeout: { seconds: 1, fallbackAction: 'accept' } } } }).value
        ?.fallbackAction,
    ).toBe('dismiss');
  });

  it('reports an unknown CMP type and keeps the inline config', () => {
    const { value, diagnostics } = parse(valid, [], 'nonexistent-cmp');
    expect(value?.consentInstanceId).toBe('site');
    expect(diagnostics.map((d) => d.code)).toEqual(['consent-type-unknown']);
  });
});

describe('mergeConfig', () => {
  it('lets the override win and merges nested objects one level', () => {
    const merged = mergeConfig(
      { a: 1, nested: { x: 1, y: 1 }, list: [1], deep: { inner: { p: 1 } } },
      { a: 2, nested: { y: 2 }, list: [2], deep: { inner: { q: 2 } } },
    );
    expect(merged).toEqual({ a: 2, nested: { x: 1, y: 2 }, list: [2], deep: { inner: { q: 2 } } });
  });

  it('does not change its inputs', () => {
    const preset = { nested: { x: 1 } };
    mergeConfig(preset, { nested: { y: 2 } });
    expect(preset).toEqual({ nested: { x: 1 } });
  });
});

describe('isAllowedUrl', () => {
  it.each([
    ['https://cmp.example/check', base, true],
    ['//cmp.example/check', base, true],
    ['/check', base, true],
    ['http://cmp.example/check', base, false],
    ['http://localhost:8080/check', base, true],
    ['http://127.0.0.1/check', base, true],
    ['http://127.10.0.3/check', base, true],
    ['http://[::1]:9000/check', base, true],
    ['http://localhost.evil.example/check', base, false],
    ['http://127.0.0.1.evil.example/check', base, false],
    ['/check', 'http://127.0.0.1:3000/page', true],
    ['/check', 'http://news.example/page', false],
    ['ftp://cmp.example/check', base, false],
    ['https://[bad', base, false],
  ])('%s on %s: %s', (href, from, expected) => {
    expect(isAllowedUrl(href, from, false)).toBe(expected);
  });

  it('allows http anywhere only when asked to, never other schemes', () => {
    expect(isAllowedUrl('http://cmp.example/check', base, true)).toBe(true);
    expect(isAllowedUrl('/check', 'http://news.example/page', true)).toBe(true);
    expect(isAllowedUrl('ftp://cmp.example/check', base, true)).toBe(false);
  });
});

describe('consent-config signal fields', () => {
  const base = { consentInstanceId: 'site', consentRequired: true };
  const parse = (json: object) => parseConsentConfig(json, { geoGroups: [], baseUrl: 'https://example.com/' });

  it('keeps the signal fields of the right type', () => {
    const fields = {
      exposesTcfApi: true,
      exposesGppApi: true,
      cmpId: 10,
      cmpVersion: 2,
      gpc: 'reject',
      consentModeMapping: { ad_storage: 'consent' },
      consentModeOptions: { waitForUpdate: 500 },
    };
    expect(parse({ ...base, ...fields }).value).toMatchObject(fields);
  });

  it('drops mistyped signal fields with consent-field-invalid', () => {
    const { value, diagnostics } = parse({
      ...base,
      exposesTcfApi: 'true',
      cmpId: '10',
      consentModeMapping: ['ad_storage'],
    });
    expect(value).not.toHaveProperty('exposesTcfApi');
    expect(value).not.toHaveProperty('cmpId');
    expect(value).not.toHaveProperty('consentModeMapping');
    expect(diagnostics.map((d) => d.code)).toEqual([
      'consent-field-invalid',
      'consent-field-invalid',
      'consent-field-invalid',
    ]);
  });
});
