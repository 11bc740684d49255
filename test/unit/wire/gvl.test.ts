import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGvl } from '../../../src/wire/gvl.ts';

const fixture = JSON.parse(readFileSync('fixtures/tcf/vendor-list.json', 'utf8'));

describe('gvl', () => {
  it('reads the fixture without a diagnostic', () => {
    const { value, diagnostics } = parseGvl(fixture);
    expect(diagnostics).toEqual([]);
    expect(value?.vendorListVersion).toBe(142);
    expect(value?.vendors['8']?.specialFeatures).toEqual([1, 2]);
    expect(value?.vendors['1']?.urls?.[0]?.privacy).toBe('https://vendor1.example/privacy');
  });

  it('refuses a list without the versions the TC string carries', () => {
    const { value, diagnostics } = parseGvl({ ...fixture, tcfPolicyVersion: '5' });
    expect(value).toBeNull();
    expect(diagnostics.map((item) => item.field)).toEqual(['tcfPolicyVersion']);
  });

  it('drops a vendor without its declared purposes and keeps the others', () => {
    const { purposes: _, ...vendor } = fixture.vendors['2'];
    const { value, diagnostics } = parseGvl({ ...fixture, vendors: { ...fixture.vendors, 2: vendor } });
    expect(Object.keys(value?.vendors ?? {})).toEqual(['1', '8', '25', '52', '91']);
    expect(diagnostics[0]).toMatchObject({ code: 'consent-tcf-vendor-list-invalid', field: 'vendors.2.purposes' });
  });

  it('reports a malformed declared field once and drops its vendor', () => {
    const { value, diagnostics } = parseGvl({
      ...fixture,
      vendors: { ...fixture.vendors, 8: { ...fixture.vendors['8'], purposes: 'all of them' } },
    });
    expect(Object.keys(value?.vendors ?? {})).toEqual(['1', '2', '25', '52', '91']);
    expect(diagnostics.map(({ field }) => field)).toEqual(['vendors.8.purposes']);
  });

  it('refuses what is not an object', () => {
    expect(parseGvl([]).diagnostics[0]?.expected).toBe('vendor list: a JSON object');
  });
});
