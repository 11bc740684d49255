import { describe, expect, it } from 'vitest';
import { readInstanceTcf } from '../../../src/wire/instance-config.ts';
import { parseTcfConfig } from '../../../src/wire/tcf-settings.ts';
import { collector } from '../../../src/wire/values.ts';

const BASE = { vendorListHref: '/tcf/vendor-list.json', vendors: [1, 8] };
const parse = (fields: object) => parseTcfConfig({ ...BASE, ...fields }, 'https://news.example/');
const codes = (diagnostics: readonly { code: string }[]) => diagnostics.map((d) => d.code);

describe('tcf.publisherRestrictions', () => {
  it('keeps well-formed restrictions in order', () => {
    const restrictions = [
      { purpose: 2, type: 'notAllowed', vendors: [8] },
      { purpose: 7, type: 'requireConsent', vendors: [1, 25] },
      { purpose: 2, type: 'requireLi', vendors: [52] },
      { purpose: 1, type: 'notAllowed', vendors: [1] },
    ];
    const { value, diagnostics } = parse({ publisherRestrictions: restrictions });
    expect(diagnostics).toEqual([]);
    expect(value?.publisherRestrictions).toEqual(restrictions);
  });

  it.each([
    [{ purpose: 1, type: 'requireLi', vendors: [1] }, '[0].purpose', 'a purpose requireLi can apply to', '1'],
    [{ purpose: 4, type: 'requireLi', vendors: [1] }, '[0].purpose', 'purposes 1 and 3 to 6 are consent only', '4'],
    [{ purpose: 3, type: 'requireConsent', vendors: [1] }, '[0].purpose', 'a purpose requireConsent can apply to', '3'],
    [{ purpose: 12, type: 'notAllowed', vendors: [1] }, '[0].purpose', 'a TCF purpose from 1 to 11', '12'],
    [
      { purpose: 2, type: 'forbidden', vendors: [1] },
      '[0].type',
      'one of notAllowed, requireConsent, requireLi',
      'forbidden',
    ],
    [{ purpose: 2, type: 'notAllowed', vendors: [1, 2.5] }, '[0].vendors[1]', 'a GVL vendor id', '2.5'],
    [{ purpose: 2, type: 'notAllowed', vendors: ['8'] }, '[0].vendors[0]', 'a GVL vendor id', '"8"'],
    [{ purpose: 2, type: 'notAllowed', vendors: [] }, '[0].vendors', 'an array of 1 to 5000 GVL vendor ids', '[]'],
    [{ purpose: 2, type: 'notAllowed', vendors: [8, 8] }, '[0].vendors[1]', 'one restriction per vendor', '8'],
    ['notAllowed', '[0]', 'an object {purpose, type, vendors}', 'notAllowed'],
  ])('drops %j with one diagnostic naming the field', (entry, field, expected, got) => {
    const good = { purpose: 10, type: 'notAllowed', vendors: [1] };
    const { value, diagnostics } = parse({ publisherRestrictions: [entry, good] });
    expect(codes(diagnostics)).toEqual(['consent-tcf-restriction-invalid']);
    expect(diagnostics[0]!.field).toBe(`tcf.publisherRestrictions${field}`);
    expect(diagnostics[0]!.expected).toContain(expected);
    expect(diagnostics[0]!.got).toContain(got);
    expect(value?.publisherRestrictions).toEqual([good]);
  });

  it('refuses a second restriction of the same vendor and purpose, whatever its type', () => {
    const { value, diagnostics } = parse({
      publisherRestrictions: [
        { purpose: 2, type: 'notAllowed', vendors: [8] },
        { purpose: 2, type: 'requireLi', vendors: [1, 8] },
        { purpose: 7, type: 'notAllowed', vendors: [8] },
      ],
    });
    expect(codes(diagnostics)).toEqual(['consent-tcf-restriction-invalid']);
    expect(diagnostics[0]!.field).toBe('tcf.publisherRestrictions[1].vendors[1]');
    expect(value?.publisherRestrictions?.map((r) => r.purpose)).toEqual([2, 7]);
  });

  it('reports a value that is not an array under the config code, and builds strings without restrictions', () => {
    const { value, diagnostics } = parse({ publisherRestrictions: { purpose: 2 } });
    expect(codes(diagnostics)).toEqual(['consent-tcf-config-invalid']);
    expect(value?.vendors).toEqual([1, 8]);
    expect(value?.publisherRestrictions).toBeUndefined();
  });
});

describe('tcf.publisherPurposes', () => {
  it('keeps the purposes on each basis and the custom purposes', () => {
    const publisherPurposes = {
      consent: [1, 3, 4],
      legitimateInterest: [2, 7],
      custom: [
        { id: 1, name: 'Newsletter', description: 'Our own newsletter', legalBasis: 'consent' },
        { id: 3, name: 'Reader surveys', legalBasis: 'legitimateInterest' },
      ],
    };
    const { value, diagnostics } = parse({ publisherPurposes });
    expect(diagnostics).toEqual([]);
    expect(value?.publisherPurposes).toEqual(publisherPurposes);
  });

  it.each([
    [{ legitimateInterest: [1, 2] }, 'tcf.publisherPurposes.legitimateInterest[0]', { legitimateInterest: [2] }],
    [{ legitimateInterest: [5] }, 'tcf.publisherPurposes.legitimateInterest[0]', { legitimateInterest: [] }],
    [
      { consent: [2], legitimateInterest: [2, 7] },
      'tcf.publisherPurposes.legitimateInterest[0]',
      { consent: [2], legitimateInterest: [7] },
    ],
    [{ consent: [0, 2] }, 'tcf.publisherPurposes.consent[0]', { consent: [2] }],
    [
      { custom: [{ id: 64, name: 'Too far', legalBasis: 'consent' }] },
      'tcf.publisherPurposes.custom[0].id',
      { custom: [] },
    ],
    [{ custom: [{ id: 2, legalBasis: 'consent' }] }, 'tcf.publisherPurposes.custom[0].name', { custom: [] }],
    [
      { custom: [{ id: 2, name: 'Surveys', legalBasis: 'contract' }] },
      'tcf.publisherPurposes.custom[0].legalBasis',
      { custom: [] },
    ],
    [
      {
        custom: [
          { id: 2, name: 'Surveys', legalBasis: 'consent' },
          { id: 2, name: 'Again', legalBasis: 'consent' },
        ],
      },
      'tcf.publisherPurposes.custom[1].id',
      { custom: [{ id: 2, name: 'Surveys', legalBasis: 'consent' }] },
    ],
  ])('%j: one diagnostic at the field, the rest kept', (publisherPurposes, field, kept) => {
    const { value, diagnostics } = parse({ publisherPurposes });
    expect(codes(diagnostics)).toEqual(['consent-tcf-config-invalid']);
    expect(diagnostics[0]!.field).toBe(field);
    expect(value?.publisherPurposes).toEqual(kept);
  });
});

describe("the server's instance tcf settings", () => {
  it('reads both fields with the same rules and refuses a bad entry', () => {
    const into = collector('admin-invalid');
    const tcf = readInstanceTcf(
      into,
      {
        cmpId: 300,
        cmpVersion: 1,
        vendors: [1, 8],
        publisherRestrictions: [
          { purpose: 2, type: 'notAllowed', vendors: [8] },
          { purpose: 1, type: 'requireLi', vendors: [1] },
        ],
        publisherPurposes: { consent: [1], custom: [{ id: 1, name: 'Newsletter', legalBasis: 'consent' }] },
      },
      'tcf',
    );
    expect(into.diagnostics.map((d) => [d.code, d.field])).toEqual([
      ['consent-tcf-restriction-invalid', 'tcf.publisherRestrictions[1].purpose'],
    ]);
    expect(tcf?.publisherRestrictions).toEqual([{ purpose: 2, type: 'notAllowed', vendors: [8] }]);
    expect(tcf?.publisherPurposes?.custom?.[0]?.name).toBe('Newsletter');
  });
});
