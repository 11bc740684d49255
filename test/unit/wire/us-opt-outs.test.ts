import { describe, expect, it } from 'vitest';
import {
  DEFAULT_OPT_OUTS,
  joinOptOuts,
  optOutsOf,
  parseOptOutArguments,
  usPrivacyFieldsOf,
  usPrivacyStringOf,
} from '../../../src/wire/us-opt-outs.ts';

describe('parseOptOutArguments', () => {
  it('reads no argument as sale, sharing and targeted advertising', () => {
    expect(parseOptOutArguments({})).toEqual({ value: ['sale', 'sharing', 'targetedAdvertising'], diagnostics: [] });
    expect(DEFAULT_OPT_OUTS).not.toContain('sensitiveData');
  });

  it('reads one known category', () => {
    expect(parseOptOutArguments({ category: 'sensitiveData' }).value).toEqual(['sensitiveData']);
    expect(parseOptOutArguments({ category: 'sale' }).value).toEqual(['sale']);
  });

  it.each([[{ category: 'all' }], [{ category: true }], [{ sale: true }], [{ category: 'sale', extra: 1 }]])(
    'refuses %j with one diagnostic',
    (args) => {
      const { value, diagnostics } = parseOptOutArguments(args);
      expect(value).toBeNull();
      expect(diagnostics.map((d) => d.code)).toEqual(['consent-opt-out-category']);
    },
  );
});

describe('optOutsOf', () => {
  it('gives the recorded categories, known ones only, in their order', () => {
    expect(optOutsOf({ state: 'rejected', consentMetadata: { usOptOuts: 'sensitiveData,sale,bogus' } })).toEqual([
      'sale',
      'sensitiveData',
    ]);
  });

  it('reads a reject or a GPC rejection without categories as every category, an accept as none', () => {
    expect(optOutsOf({ state: 'rejected' })).toHaveLength(4);
    expect(optOutsOf({ state: 'not-required', consentMetadata: { gpc: true } })).toHaveLength(4);
    expect(optOutsOf({ state: 'accepted' })).toEqual([]);
  });

  it('writes categories once, in their canonical order', () => {
    expect(joinOptOuts(['sensitiveData', 'sale', 'sale'])).toBe('sale,sensitiveData');
  });
});

describe('usPrivacyStringOf', () => {
  const usnat = { SaleOptOutNotice: 1, MspaCoveredTransaction: 2 };

  it('says Y for an opt-out of sale and N otherwise, with the notice and LSPA letters', () => {
    expect(usPrivacyStringOf({ state: 'rejected', consentMetadata: { usOptOuts: 'sale' } }, usnat)).toBe('1YYN');
    expect(usPrivacyStringOf({ state: 'rejected', consentMetadata: { usOptOuts: 'sensitiveData' } }, usnat)).toBe(
      '1YNN',
    );
    expect(usPrivacyStringOf({ state: 'accepted' }, usnat)).toBe('1YNN');
  });

  it('writes - for a notice field the config does not set', () => {
    expect(usPrivacyStringOf({ state: 'rejected' }, {})).toBe('1-Y-');
  });
});

describe('usPrivacyFieldsOf', () => {
  it('keeps the two fields the string reads when they are 0-2, nothing else', () => {
    const gpp = { usnat: { SaleOptOutNotice: 1, MspaCoveredTransaction: '2', SharingNotice: 1 } };
    expect(usPrivacyFieldsOf(gpp)).toEqual({ SaleOptOutNotice: 1 });
    expect(usPrivacyFieldsOf('gpp')).toEqual({});
    expect(usPrivacyFieldsOf({ usnat: { SaleOptOutNotice: 3 } })).toEqual({});
  });
});
