// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { ConsentSignal } from '../../../src/consent/signal-source.ts';
import { usPrivacyOf } from '../../../src/consent/us-privacy.ts';

const signal = (fields: object) => fields as unknown as ConsentSignal;

describe('usPrivacyOf', () => {
  it("gives the CMP's US privacy string first", () => {
    const own = signal({ state: 'accepted', consentString: '1NYN', consentMetadata: { consentStringType: 3 } });
    expect(usPrivacyOf(own, {})).toBe('1NYN');
  });

  it('builds one from a decision of our own on a page with a gpp config', () => {
    const usnat = { SaleOptOutNotice: 1, MspaCoveredTransaction: 2 };
    expect(usPrivacyOf(signal({ state: 'rejected', consentMetadata: { usOptOuts: 'sale' } }), usnat)).toBe('1YYN');
    expect(usPrivacyOf(signal({ state: 'accepted' }), usnat)).toBe('1YNN');
  });

  it('gives none without a gpp config or before a decision', () => {
    expect(usPrivacyOf(signal({ state: 'rejected' }), null)).toBe('');
    expect(usPrivacyOf(signal({ state: 'unknown' }), {})).toBe('');
    expect(usPrivacyOf(signal({ state: 'not-required' }), {})).toBe('');
  });
});
