// @vitest-environment node
// Pure parsers: no DOM needed (docs/decisions/fuzzing.md).
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { parseCheckRequest, parseUpdateRequest } from '../../../src/wire/consent-bodies.ts';
import { own } from '../../../src/wire/values.ts';
import {
  deep,
  edgeNumber,
  expectCodedDiagnostics,
  expectPlainValue,
  expectPurposesFrom,
  expectTrueOnlyFromLiteralTrue,
  fuzz,
  jsonishValue,
  longString,
  oddString,
  PROTOTYPE_KEYS,
  record,
  shaped,
} from './harness.ts';

const NAMES = [
  'consentInstanceId',
  'consentStateValue',
  'pageUserId',
  'matchedGeoGroup',
  'isDirty',
  'gpc',
  'consentString',
  'purposeConsents',
  'consentMetadata',
  'tcfPolicyVersion',
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
const text = fc.oneof(
  fc.constantFrom('site', 'a.b:c-d_e', '', 'a b', "x'; DROP TABLE audit;--"),
  oddString,
  longString,
);
const body = record(
  {
    consentInstanceId: text,
    consentStateValue: fc.constantFrom('accepted', 'rejected', 'unknown', 'maybe', '__proto__'),
    pageUserId: text,
    matchedGeoGroup: text,
    isDirty: fc.constantFrom(true, false, 'true', 1),
    gpc: fc.constantFrom(true, 'true', 1),
    consentString: fc.oneof(oddString, longString),
    purposeConsents: purposes,
    consentMetadata: record(
      {
        consentStringType: edgeNumber,
        additionalConsent: oddString,
        gdprApplies: fc.constantFrom(true, 'true', 1),
        purposeOne: fc.constantFrom(true, 'false'),
        gppSectionId: oddString,
      },
      NAMES,
    ),
    tcfPolicyVersion: edgeNumber,
  },
  NAMES,
);
const input = fc.oneof({ weight: 6, arbitrary: body }, jsonishValue, shaped(NAMES), deep(body, NAMES));

/** Strict bodies: a value exactly when there is no diagnostic, and only plain, literal values. */
function expectBody(
  json: unknown,
  {
    value,
    diagnostics,
  }: { value: Record<string, unknown> | null; diagnostics: Parameters<typeof expectCodedDiagnostics>[0] },
) {
  expectCodedDiagnostics(diagnostics);
  expect(value === null).toBe(diagnostics.length > 0);
  if (value === null) return;
  expectPlainValue(value);
  // Plain text of 1-100 characters: no NUL, no lone surrogate.
  expect(typeof value.consentInstanceId).toBe('string');
  expect((value.consentInstanceId as string).length).toBeGreaterThanOrEqual(1);
  expect((value.consentInstanceId as string).length).toBeLessThanOrEqual(100);
  expect((value.consentInstanceId as string).includes('\0')).toBe(false);
  expect(value.consentInstanceId).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  expect(['accepted', 'rejected', 'unknown']).toContain(value.consentStateValue);
  for (const key of Object.keys(value)) expect(NAMES).toContain(key);
  expectPurposesFrom(value.purposeConsents, own(json as Record<string, unknown>, 'purposeConsents'));
  expectTrueOnlyFromLiteralTrue(value, json);
}

describe('fuzz: server request bodies', () => {
  fuzz('check request (parseCheckRequest)', input, (json) => expectBody(json, parseCheckRequest(json) as never));
  fuzz('update request (parseUpdateRequest)', input, (json) => expectBody(json, parseUpdateRequest(json) as never));
});
