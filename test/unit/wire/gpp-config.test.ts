import { describe, expect, it } from 'vitest';
import { parseGppConfig } from '../../../src/wire/gpp-config.ts';

const codes = (json: unknown) => parseGppConfig(json).diagnostics.map((d) => `${d.code}@${d.field ?? ''}`);

describe('parseGppConfig', () => {
  it('reads the approach, the usnat fields and the state sections', () => {
    const { value, diagnostics } = parseGppConfig({
      approach: 'state',
      usnat: { SaleOptOutNotice: 1, MspaCoveredTransaction: 2 },
      usca: { SharingOptOutNotice: 1 },
      usmd: { MspaMode: 2 },
    });
    expect(diagnostics).toEqual([]);
    expect(value).toEqual({
      approach: 'state',
      usnat: { SaleOptOutNotice: 1, MspaCoveredTransaction: 2 },
      sections: { usca: { SharingOptOutNotice: 1 }, usmd: { MspaMode: 2 } },
    });
  });

  it('has no approach unless one is given: national', () => {
    expect(parseGppConfig({ usnat: { SaleOptOutNotice: 1 } }).value).toEqual({ usnat: { SaleOptOutNotice: 1 } });
  });

  it.each([
    [{ approach: 'states' }, 'consent-gpp-config-invalid@gpp.approach', {}],
    [
      { usca: { SaleOptOutNotice: '1' } },
      'consent-gpp-config-invalid@gpp.usca.SaleOptOutNotice',
      { sections: { usca: {} } },
    ],
    [
      { usca: { SaleOptOutNotice: 3 } },
      'consent-gpp-config-invalid@gpp.usca.SaleOptOutNotice',
      { sections: { usca: {} } },
    ],
    [{ usca: { SaleOptOut: 2 } }, 'consent-gpp-config-invalid@gpp.usca.SaleOptOut', { sections: { usca: {} } }],
    [{ usca: 'yes' }, 'consent-gpp-config-invalid@gpp.usca', {}],
    [{ uswa: { SaleOptOutNotice: 1 } }, 'consent-gpp-config-invalid@gpp.uswa', {}],
    [{ usnat: { SaleOptOut: 2 } }, 'consent-gpp-config-invalid@gpp.usnat.SaleOptOut', { usnat: {} }],
  ])('drops %j with one diagnostic', (json, code, value) => {
    expect(codes(json)).toEqual([code]);
    expect(parseGppConfig(json).value).toEqual(value);
  });

  it('reads no object as no config', () => {
    expect(parseGppConfig('state')).toMatchObject({
      value: null,
      diagnostics: [{ code: 'consent-gpp-config-invalid' }],
    });
  });
});
