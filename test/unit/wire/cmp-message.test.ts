import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCmpMessage } from '../../../src/wire/cmp-message.ts';

const codes = (data: unknown) => parseCmpMessage(data).diagnostics.map((d) => `${d.code}@${d.field ?? ''}`);

describe('parseCmpMessage', () => {
  it.each([
    [
      { type: 'consent-ui', action: 'ready' },
      { kind: 'ready', initialHeight: undefined, border: undefined },
    ],
    [
      { type: 'consent-ui', action: 'ready', initialHeight: '60vh', border: false },
      { kind: 'ready', initialHeight: 60, border: false },
    ],
    [
      { type: 'consent-ui', action: 'ready', initialHeight: '10vh' },
      { kind: 'ready', initialHeight: 10, border: undefined },
    ],
    [
      { type: 'consent-ui', action: 'ready', initialHeight: '80vh' },
      { kind: 'ready', initialHeight: 80, border: undefined },
    ],
    [{ type: 'consent-ui', action: 'enter-fullscreen' }, { kind: 'enter-fullscreen' }],
    [
      { type: 'consent-response', action: 'dismiss', info: 'ignored' },
      { kind: 'decision', action: 'dismiss', data: {} },
    ],
    [
      { type: 'consent-response', action: 'reject' },
      { kind: 'decision', action: 'reject', data: {} },
    ],
    [
      {
        type: 'consent-response',
        action: 'accept',
        info: 'CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA',
        purposeConsents: { ads: true, constructor: false },
        consentMetadata: {
          consentStringType: 2,
          gdprApplies: true,
          additionalConsent: '1~',
          gppSectionId: '2',
          purposeOne: true,
        },
        tcfPolicyVersion: 4,
      },
      {
        kind: 'decision',
        action: 'accept',
        data: {
          consentString: 'CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA',
          purposeConsents: { ads: true, constructor: false },
          consentMetadata: {
            consentStringType: 2,
            gdprApplies: true,
            additionalConsent: '1~',
            gppSectionId: '2',
            purposeOne: true,
          },
          tcfPolicyVersion: 4,
        },
      },
    ],
  ])('reads %j', (data, expected) => {
    expect(parseCmpMessage(data)).toEqual({ value: expected, diagnostics: [] });
  });

  it.each([null, 'consent-ui', 42, [], { type: 'other' }, { type: '__tcfapiCall' }, { action: 'accept' }])(
    'ignores %j silently',
    (data) => {
      expect(parseCmpMessage(data)).toEqual({ value: null, diagnostics: [] });
    },
  );

  it.each([
    [{ type: 'consent-ui', action: 'ready', initialHeight: '9vh' }, 'initialHeight'],
    [{ type: 'consent-ui', action: 'ready', initialHeight: '81vh' }, 'initialHeight'],
    [{ type: 'consent-ui', action: 'ready', initialHeight: '50%' }, 'initialHeight'],
    [{ type: 'consent-ui', action: 'ready', initialHeight: 50 }, 'initialHeight'],
    [{ type: 'consent-ui', action: 'ready', border: 'false' }, 'border'],
  ])('keeps ready but drops a wrong field: %j', (data, field) => {
    const { value, diagnostics } = parseCmpMessage(data);
    expect(value?.kind).toBe('ready');
    expect(diagnostics.map((d) => [d.code, d.field])).toEqual([['consent-cmp-message-invalid', field]]);
  });

  it('drops mistyped decision fields one by one and keeps the rest', () => {
    const { value, diagnostics } = parseCmpMessage({
      type: 'consent-response',
      action: 'accept',
      info: 42,
      purposeConsents: { ads: 'true', measure: true },
      consentMetadata: { gdprApplies: 'yes', consentStringType: 1 },
      tcfPolicyVersion: 2.5,
    });
    expect(value).toEqual({
      kind: 'decision',
      action: 'accept',
      data: { purposeConsents: { measure: true }, consentMetadata: { consentStringType: 1 } },
    });
    expect(diagnostics.map((d) => d.field)).toEqual([
      'info',
      'purposeConsents.ads',
      'consentMetadata.gdprApplies',
      'tcfPolicyVersion',
    ]);
  });

  it.each([
    [{ type: 'consent-response', action: 'allow' }, ['consent-cmp-message-invalid@action']],
    [{ type: 'consent-response' }, ['consent-cmp-message-invalid@action']],
    [{ type: 'consent-ui', action: 'resize' }, ['consent-cmp-message-invalid@action']],
  ])('refuses %j with a coded diagnostic', (data, expected) => {
    expect(parseCmpMessage(data).value).toBeNull();
    expect(codes(data)).toEqual(expected);
  });

  it('never throws, and every value it keeps has the documented type', () => {
    const field = fc.oneof(
      fc.anything(),
      fc.constantFrom('accept', 'reject', 'dismiss', 'ready', 'enter-fullscreen', '30vh', '90vh'),
    );
    const message = fc.record(
      {
        type: fc.oneof(fc.constantFrom('consent-ui', 'consent-response'), fc.anything()),
        action: field,
        initialHeight: field,
        border: fc.oneof(fc.boolean(), fc.anything()),
        info: fc.oneof(fc.string(), fc.anything()),
        purposeConsents: fc.oneof(fc.dictionary(fc.string(), fc.oneof(fc.boolean(), fc.anything())), fc.anything()),
        consentMetadata: fc.anything(),
        tcfPolicyVersion: fc.oneof(fc.integer(), fc.anything()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(message, fc.anything()), (data) => {
        const { value, diagnostics } = parseCmpMessage(data);
        for (const d of diagnostics) expect(d.code).toBe('consent-cmp-message-invalid');
        if (value?.kind === 'ready') {
          if (value.initialHeight !== undefined) expect(value.initialHeight).toBeGreaterThanOrEqual(10);
          if (value.initialHeight !== undefined) expect(value.initialHeight).toBeLessThanOrEqual(80);
          if (value.border !== undefined) expect(typeof value.border).toBe('boolean');
        }
        if (value?.kind === 'decision') {
          const { consentString, purposeConsents = {}, tcfPolicyVersion } = value.data;
          if (consentString !== undefined) expect(typeof consentString).toBe('string');
          for (const allowed of Object.values(purposeConsents)) expect(typeof allowed).toBe('boolean');
          if (tcfPolicyVersion !== undefined) expect(Number.isInteger(tcfPolicyVersion)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
