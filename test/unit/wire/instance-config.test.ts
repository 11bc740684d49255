import { describe, expect, it } from 'vitest';
import { parseGppConfig } from '../../../src/wire/gpp-config.ts';
import { gppJsonOf, readInstanceConfig } from '../../../src/wire/instance-config.ts';
import { collector } from '../../../src/wire/values.ts';

const read = (value: unknown) => {
  const into = collector('invalid-field');
  return { config: readInstanceConfig(into, value, ''), diagnostics: into.diagnostics };
};

describe('instance-config', () => {
  it('reads gpp as the page does and keeps it in the page shape', () => {
    const gpp = { approach: 'state', usnat: { SaleOptOutNotice: 1 }, usca: { SaleOptOutNotice: 2 } };
    const { config, diagnostics } = read({ gpp });
    expect(diagnostics).toEqual([]);
    expect(config?.gpp).toEqual(gpp);
    // The page's parser reads the stored shape back to the same settings.
    expect(parseGppConfig(config?.gpp).value).toEqual(parseGppConfig(gpp).value);
  });

  it('has no gpp settings unless given', () => {
    expect(read({}).config?.gpp).toBeNull();
    expect(read({ gpp: null }).config?.gpp).toBeNull();
  });

  it("reports the page parser's diagnostics for gpp, field by field", () => {
    const gpp = { approach: 'both', usnat: { SaleOptOutNotice: '1' }, usca: { SaleOptOutNotice: 1 } };
    const { config, diagnostics } = read({ gpp });
    expect(diagnostics.map((d) => d.field)).toEqual(['gpp.approach', 'gpp.usnat.SaleOptOutNotice']);
    expect(diagnostics.map((d) => d.field)).toEqual(parseGppConfig(gpp).diagnostics.map((d) => d.field));
    // Leniently, what is valid is kept.
    expect(config?.gpp).toEqual({ usnat: {}, usca: { SaleOptOutNotice: 1 } });
  });

  it('writes parsed settings back with each state section beside approach and usnat', () => {
    expect(gppJsonOf({ approach: 'national', sections: { usva: { SharingNotice: 1 } } })).toEqual({
      approach: 'national',
      usva: { SharingNotice: 1 },
    });
    expect(gppJsonOf({})).toEqual({});
  });
});
