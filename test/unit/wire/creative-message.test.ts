import { describe, expect, it } from 'vitest';
import { parseCreativeConsentCall } from '../../../src/wire/creative-message.ts';

const codes = (data: unknown) => parseCreativeConsentCall(data).diagnostics.map((d) => d.code);

describe('creative consent call', () => {
  it('reads a call with or without its callId', () => {
    expect(parseCreativeConsentCall({ pageAdConsentCall: { callId: 7 } }).value).toEqual({ callId: 7 });
    expect(parseCreativeConsentCall({ pageAdConsentCall: { callId: 'a', other: 1 } }).value).toEqual({ callId: 'a' });
    expect(parseCreativeConsentCall({ pageAdConsentCall: {} }).value).toEqual({});
  });

  it('leaves other messages alone without a diagnostic', () => {
    for (const data of [
      null,
      'hello',
      '{"pageAdConsentCall":{}}',
      42,
      { type: 'resize' },
      Object.create({ pageAdConsentCall: {} }),
    ]) {
      expect(parseCreativeConsentCall(data)).toEqual({ value: null, diagnostics: [] });
    }
  });

  it('refuses a malformed call with one coded diagnostic', () => {
    expect(parseCreativeConsentCall({ pageAdConsentCall: 'now' }).value).toBeNull();
    expect(codes({ pageAdConsentCall: 'now' })).toEqual(['ad-consent-call-invalid']);
    expect(codes({ pageAdConsentCall: { callId: { id: 1 } } })).toEqual(['ad-consent-call-invalid']);
    expect(codes({ pageAdConsentCall: { callId: 'x'.repeat(101) } })).toEqual(['ad-consent-call-invalid']);
    expect(parseCreativeConsentCall({ pageAdConsentCall: { callId: Number.NaN } }).value).toBeNull();
  });
});
