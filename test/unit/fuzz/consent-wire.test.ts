// @vitest-environment node
// Pure parsers: no DOM needed (docs/decisions/fuzzing.md).
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { parseCheckAnswer, parseStoredConsent } from '../../../src/wire/consent.ts';
import { isRecord, own } from '../../../src/wire/values.ts';
import {
  deep,
  edgeNumber,
  expectCodedDiagnostics,
  expectPlainValue,
  expectPurposesFrom,
  expectTrueOnlyFromLiteralTrue,
  fuzz,
  jsonishValue,
  jsonText,
  longString,
  oddString,
  PROTOTYPE_KEYS,
  record,
  shaped,
} from './harness.ts';

const NAMES = [
  'version',
  'state',
  'time',
  'consentString',
  'purposeConsents',
  'purposeConsent',
  'consentMetadata',
  'tcfPolicyVersion',
  'consentRequired',
  'promptIfUnknown',
  'consentStateValue',
  'expireCache',
  'sharedData',
  'consentStringType',
  'additionalConsent',
  'gdprApplies',
  'purposeOne',
  'gppSectionId',
];
const purposes = fc.dictionary(
  fc.oneof(fc.constantFrom('analytics', 'ads', ...PROTOTYPE_KEYS), oddString),
  fc.oneof(fc.constantFrom(true, false, 'true', 1, {}, [true]), jsonishValue),
  { maxKeys: 8 },
);
const metadata = record(
  {
    consentStringType: edgeNumber,
    additionalConsent: oddString,
    gdprApplies: fc.constantFrom(true, 'true', 1),
    purposeOne: fc.constantFrom(true, 'false'),
    gppSectionId: oddString,
  },
  NAMES,
);
const decision = {
  consentString: fc.oneof(oddString, longString),
  purposeConsents: purposes,
  consentMetadata: metadata,
  tcfPolicyVersion: edgeNumber,
};
const stored = record(
  {
    ...decision,
    version: fc.constantFrom(1, 2, 3, '2', 2.5),
    state: fc.constantFrom('accepted', 'rejected', 'unknown', 'ACCEPTED'),
    time: edgeNumber,
  },
  NAMES,
);
const answer = record(
  {
    ...decision,
    purposeConsent: purposes,
    consentRequired: fc.constantFrom(true, false, 'true', 1, 0),
    promptIfUnknown: fc.constantFrom(true, false, 'yes'),
    consentStateValue: fc.constantFrom('accepted', 'rejected', 'unknown', 'dismissed', 'constructor'),
    expireCache: fc.constantFrom(true, 'true', 1),
    sharedData: fc.dictionary(
      fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), oddString),
      fc.oneof(jsonishValue, edgeNumber),
    ),
  },
  NAMES,
);
const PREFIXES = ['', ")]}'\n", ")]}'", 'while(1);'];
const answerText = fc.tuple(
  fc.constantFrom(...PREFIXES),
  fc.constantFrom(...PREFIXES),
  jsonText(fc.oneof({ weight: 5, arbitrary: answer }, jsonishValue, shaped(NAMES), deep(answer, NAMES))),
);

/** The answer as the page reads it: JSON after the expected xssi prefix, if it is there. */
function answerOf(text: string, prefix: string): unknown {
  try {
    return JSON.parse(text.startsWith(prefix) ? text.slice(prefix.length) : text);
  } catch {
    return undefined;
  }
}

describe('fuzz: stored decision and check answer', () => {
  fuzz(
    'stored decision (parseStoredConsent)',
    fc.oneof({ weight: 6, arbitrary: stored }, jsonishValue, shaped(NAMES), deep(stored, NAMES)),
    (json) => {
      const { value, diagnostics } = parseStoredConsent(json, 1_700_000_000_000);
      expectCodedDiagnostics(diagnostics);
      if (value === null) {
        if (json != null) expect(diagnostics.length).toBeGreaterThan(0);
        return;
      }
      expectPlainValue(value);
      expect(value.version).toBe(2);
      expect(['accepted', 'rejected']).toContain(value.state);
      expect(Number.isFinite(value.time) && value.time >= 0).toBe(true);
      expectPurposesFrom(value.purposeConsents, own(json as Record<string, unknown>, 'purposeConsents'));
      expectTrueOnlyFromLiteralTrue(value, json);
    },
  );

  fuzz('check answer (parseCheckAnswer)', answerText, ([prefix, sent, body]) => {
    const text = sent + body;
    const { value, diagnostics } = parseCheckAnswer(text, prefix);
    expectCodedDiagnostics(diagnostics);
    if (value === null) {
      expect(diagnostics.length).toBeGreaterThan(0);
      return;
    }
    const json = answerOf(text, prefix);
    expect(isRecord(json)).toBe(true);
    const given = json as Record<string, unknown>;
    expectPlainValue(value);
    expect(typeof value.consentRequired).toBe('boolean');
    expect([null, 'accepted', 'rejected', 'unknown']).toContain(value.consentStateValue);
    // consentRequired: the literal true, or the legacy promptIfUnknown when it is absent.
    expectTrueOnlyFromLiteralTrue(value, json, { consentRequired: ['consentRequired', 'promptIfUnknown'] });
    // A present consentRequired that is not a boolean fails the answer (fail closed).
    expect(own(given, 'consentRequired') == null || typeof own(given, 'consentRequired') === 'boolean').toBe(true);
    if (value.consentRequired)
      expect(
        own(given, 'consentRequired') === true ||
          (own(given, 'consentRequired') == null && own(given, 'promptIfUnknown') === true),
      ).toBe(true);
    for (const [name, granted] of Object.entries(value.purposeConsents ?? {})) {
      expect(typeof granted).toBe('boolean');
      if (granted) {
        const sources = [own(given, 'purposeConsents'), own(given, 'purposeConsent')].filter(isRecord);
        expect(sources.some((source) => own(source, name) === true)).toBe(true);
      }
    }
    for (const name of PROTOTYPE_KEYS)
      if (value.purposeConsents && !Object.hasOwn(value.purposeConsents, name))
        expect(value.purposeConsents[name] === true).toBe(false);
    for (const item of Object.values(value.sharedData ?? {}))
      expect(['string', 'number', 'boolean']).toContain(typeof item);
  });
});
