// @vitest-environment node
// Pure parsers: no DOM needed (docs/decisions/fuzzing.md).
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { parseConsentConfig } from '../../../src/wire/consent-config.ts';
import { CMP_PRESETS } from '../../../src/wire/consent-presets.ts';
import {
  deep,
  edgeNumber,
  expectCodedDiagnostics,
  expectPlainValue,
  expectTrueOnlyFromLiteralTrue,
  fuzz,
  jsonishValue,
  oddString,
  record,
  shaped,
} from './harness.ts';

const GROUPS = ['eea', 'us', 'constructor', '__proto__', 'toString'];
const URLS = fc.constantFrom(
  'https://consent.example/check',
  '/consent/check',
  'http://localhost:8080/c',
  'http://evil.example/c',
  'javascript:alert(1)',
  '//x',
  ':',
  'http://[::1]/x',
);
const NAMES = [
  'consentInstanceId',
  'consentRequired',
  'checkConsentHref',
  'onUpdateHref',
  'promptUI',
  'postPromptUI',
  'xssiPrefix',
  'promptUiSrc',
  'sandbox',
  'clientConfig',
  'purposeConsentRequired',
  'uiConfig',
  'overlay',
  'captions',
  'consentPromptCaption',
  'buttonActionCaption',
  'policy',
  'default',
  'timeout',
  'seconds',
  'fallbackAction',
  'geoOverride',
  'promptIfUnknown',
  'exposesTcfApi',
  'exposesGppApi',
  'cmpId',
  'cmpVersion',
  'gpc',
  'consentModeMapping',
  'consentModeOptions',
  'consentLifetimeDays',
  'accepted',
  'rejected',
  ...GROUPS,
];
const timeout = fc.oneof(
  edgeNumber,
  record({ seconds: edgeNumber, fallbackAction: fc.constantFrom('reject', 'dismiss', 'accept') }, NAMES),
);
const fields = {
  consentInstanceId: fc.oneof(fc.constantFrom('site', '', 'a b', 'site\uD800', '\uDC00x', 'a\u0000'), oddString),
  consentRequired: fc.constantFrom(true, false, 'remote', 'true', 1, 0),
  checkConsentHref: URLS,
  onUpdateHref: URLS,
  promptUI: oddString,
  promptUiSrc: URLS,
  sandbox: fc.constantFrom('allow-popups-to-escape-sandbox', 'allow-same-origin allow-scripts'),
  clientConfig: shaped(NAMES),
  purposeConsentRequired: fc.array(fc.oneof(oddString, fc.constantFrom('__proto__', 'constructor', 'analytics'))),
  uiConfig: record({ overlay: fc.constantFrom(true, 'true', 1, {}) }, NAMES),
  captions: record({ consentPromptCaption: oddString, buttonActionCaption: oddString }, NAMES),
  policy: record({ default: record({ timeout }, NAMES) }, NAMES),
  promptIfUnknown: fc.constantFrom(true, false, 'yes'),
  exposesTcfApi: fc.constantFrom(true, 'false', 1),
  cmpId: edgeNumber,
  consentLifetimeDays: fc.oneof(edgeNumber, record({ accepted: edgeNumber, rejected: edgeNumber }, NAMES)),
};
const config = record(
  { ...fields, geoOverride: fc.dictionary(fc.constantFrom(...GROUPS), record(fields, NAMES), { maxKeys: 4 }) },
  NAMES,
);
const options = fc.record({
  geoGroups: fc.subarray(GROUPS),
  type: fc.oneof(
    { weight: 3, arbitrary: fc.constant('page-hosted') },
    fc.constantFrom(null, null, 'constructor', '__proto__', 'unknown'),
  ),
  presets: fc.oneof({ weight: 3, arbitrary: fc.constant(CMP_PRESETS) }, fc.constant({})),
});
const input = fc.tuple(
  fc.oneof({ weight: 6, arbitrary: config }, jsonishValue, shaped(NAMES), deep(config, NAMES)),
  options,
);

describe('fuzz: consent config (parseConsentConfig)', () => {
  fuzz('consent config', input, ([json, { geoGroups, type, presets }]) => {
    const { value, diagnostics } = parseConsentConfig(json, {
      geoGroups,
      type,
      presets,
      baseUrl: 'https://news.example/a/page.html',
    });
    expectCodedDiagnostics(diagnostics);
    if (value === null) {
      expect(diagnostics.length).toBeGreaterThan(0);
      return;
    }
    expectPlainValue(value);
    expect([true, false, 'remote']).toContain(value.consentRequired);
    expect(typeof value.consentInstanceId).toBe('string');
    expect(value.purposeConsentRequired.every((purpose) => typeof purpose === 'string')).toBe(true);
    expect(typeof value.overlay).toBe('boolean');
    expect(['reject', 'dismiss']).toContain(value.fallbackAction);
    if (value.timeoutSeconds !== null) expect(value.timeoutSeconds).toBeGreaterThanOrEqual(0);
    if (value.matchedGeoGroup !== null) expect(geoGroups).toContain(value.matchedGeoGroup);
    for (const days of [value.consentLifetime.accepted, value.consentLifetime.rejected])
      expect(Number.isFinite(days) && days > 0).toBe(true);
    expectTrueOnlyFromLiteralTrue(value, json, { consentRequired: ['consentRequired', 'promptIfUnknown'] });
  });
});
