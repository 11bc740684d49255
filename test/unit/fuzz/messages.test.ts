// @vitest-environment node
// Pure parsers: no DOM needed (docs/decisions/fuzzing.md).
import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { parseCmpMessage } from '../../../src/wire/cmp-message.ts';
import { parseCreativeConsentCall } from '../../../src/wire/creative-message.ts';
import { isRecord, own } from '../../../src/wire/values.ts';
import {
  anyValue,
  deep,
  edgeNumber,
  expectCodedDiagnostics,
  expectPlainValue,
  expectPurposesFrom,
  expectTrueOnlyFromLiteralTrue,
  fuzz,
  longString,
  oddString,
  PROTOTYPE_KEYS,
  record,
  shaped,
} from './harness.ts';

const NAMES = [
  'type',
  'action',
  'initialHeight',
  'border',
  'info',
  'purposeConsents',
  'consentMetadata',
  'tcfPolicyVersion',
  'consentStringType',
  'additionalConsent',
  'gdprApplies',
  'purposeOne',
  'gppSectionId',
  'pageAdConsentCall',
  'callId',
];
/** Purpose maps with granted, mistyped and inherited-looking names. */
const purposes = fc.dictionary(
  fc.oneof(fc.constantFrom('analytics', 'ads', ...PROTOTYPE_KEYS), oddString),
  fc.oneof(fc.constantFrom(true, false, 'true', 1, 'yes', {}, [true]), anyValue),
  { maxKeys: 8 },
);
const metadata = record(
  {
    consentStringType: edgeNumber,
    additionalConsent: oddString,
    gdprApplies: fc.constantFrom(true, 'true', 1),
    purposeOne: fc.constantFrom(true, 'false'),
    gppSectionId: fc.constantFrom('2', '7_8', ''),
  },
  NAMES,
);
const cmp = record(
  {
    type: fc.constantFrom('consent-ui', 'consent-response', 'other', 'CONSENT-UI'),
    action: fc.constantFrom('ready', 'enter-fullscreen', 'accept', 'reject', 'dismiss', 'constructor', 'toString'),
    initialHeight: fc.constantFrom('10vh', '80vh', '9vh', '81vh', '50vh', '50', 50, '050vh'),
    border: fc.constantFrom(true, false, 'false', 1),
    info: fc.oneof(oddString, longString),
    purposeConsents: purposes,
    consentMetadata: metadata,
    tcfPolicyVersion: edgeNumber,
  },
  NAMES,
);
const creative = record(
  {
    pageAdConsentCall: fc.oneof(
      record({ callId: fc.oneof(edgeNumber, oddString, longString, anyValue) }, NAMES),
      anyValue,
    ),
  },
  NAMES,
);

describe('fuzz: postMessage payloads', () => {
  fuzz(
    'CMP message (parseCmpMessage)',
    fc.oneof({ weight: 6, arbitrary: cmp }, anyValue, shaped(NAMES, anyValue), deep(cmp, NAMES)),
    (data) => {
      const { value, diagnostics } = parseCmpMessage(data);
      expectCodedDiagnostics(diagnostics);
      const type = isRecord(data) ? own(data, 'type') : undefined;
      if (value === null) {
        if (type === 'consent-ui' || type === 'consent-response') expect(diagnostics.length).toBeGreaterThan(0);
        return;
      }
      expectPlainValue(value);
      expectTrueOnlyFromLiteralTrue(value, data);
      if (value.kind === 'ready' && value.initialHeight !== undefined)
        expect(Number.isInteger(value.initialHeight) && value.initialHeight >= 10 && value.initialHeight <= 80).toBe(
          true,
        );
      if (value.kind === 'decision') {
        expect(['accept', 'reject', 'dismiss']).toContain(value.action);
        expectPurposesFrom(
          value.data.purposeConsents,
          own(data as object as Record<string, unknown>, 'purposeConsents'),
        );
      }
    },
  );

  fuzz(
    'creative consent call (parseCreativeConsentCall)',
    fc.oneof({ weight: 6, arbitrary: creative }, anyValue, shaped(NAMES, anyValue), deep(creative, NAMES)),
    (data) => {
      const { value, diagnostics } = parseCreativeConsentCall(data);
      expectCodedDiagnostics(diagnostics);
      if (value === null) {
        if (isRecord(data) && own(data, 'pageAdConsentCall') !== undefined)
          expect(diagnostics.length).toBeGreaterThan(0);
        return;
      }
      expectPlainValue(value);
      expect(Object.keys(value).every((key) => key === 'callId')).toBe(true);
      if (value.callId !== undefined)
        expect(typeof value.callId === 'number' ? Number.isFinite(value.callId) : value.callId.length <= 100).toBe(
          true,
        );
    },
  );
});
