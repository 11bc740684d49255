import { describe, expect, it } from 'vitest';
import { isPurposeId, readPurposeId, readPurposeMap } from '../../../src/wire/purpose-id.ts';
import { collector, readBoolean } from '../../../src/wire/values.ts';

describe('purpose-id', () => {
  it.each(['ads', 'Measurement_2', 'vendor.analytics', 'iab:tcf-1', 'café', 'реклама', 'a'.repeat(100)])(
    'accepts %j',
    (id) => {
      expect(isPurposeId(id)).toBe(true);
    },
  );

  it.each(['', 'social media', 'ads,social', "O'Brien", '😀', 'ads\n', 'a'.repeat(101), '__proto__ x'])(
    'refuses %j',
    (id) => {
      expect(isPurposeId(id)).toBe(false);
    },
  );

  it('reads an id, and drops one outside the rule with the collector code', () => {
    const into = collector('instance-config-invalid');
    expect(readPurposeId(into, 'ads', 'id')).toBe('ads');
    expect(readPurposeId(into, 'social media', 'id')).toBeUndefined();
    expect(into.diagnostics.map((d) => d.expected)).toEqual(['id: a purpose id of letters, digits or . _ : -']);
  });

  it('reads a map keyed by purpose ids, dropping the keys outside the rule', () => {
    const into = collector('consent-stored-invalid');
    expect(readPurposeMap(readBoolean)(into, { ads: true, 'a b': false, __proto__x: true }, 'purposeConsents')).toEqual(
      { ads: true, __proto__x: true },
    );
    expect(into.diagnostics).toEqual([
      {
        code: 'consent-stored-invalid',
        expected: 'purposeConsents: a purpose id of letters, digits or . _ : -',
        got: '"a b"',
        field: 'purposeConsents',
      },
    ]);
  });
});
