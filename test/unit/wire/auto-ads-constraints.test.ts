import { describe, expect, it } from 'vitest';
import { DEFAULT_CONSTRAINTS } from '../../../src/wire/auto-ads-constraints.ts';
import { parseSpacing, readConstraints } from '../../../src/wire/auto-ads-constraints.ts';
import { collector } from '../../../src/wire/values.ts';

const px = (value: number) => ({ value, unit: 'px' }) as const;
const constraints = (wire: unknown) => {
  const into = collector('auto-ads-field-invalid');
  return { value: readConstraints(into, wire, DEFAULT_CONSTRAINTS), problems: into.diagnostics };
};

describe('auto-ads-constraints', () => {
  it.each([
    ['500px', px(500)],
    ['0px', px(0)],
    ['1.5vp', { value: 1.5, unit: 'vp' }],
    ['.5vp', { value: 0.5, unit: 'vp' }],
  ])('parses the spacing %s', (text, expected) => {
    expect(parseSpacing(text)).toEqual(expected);
  });

  it.each(['-1px', '+1px', '100', '10em', '', 'px', ' 10px', '1e3px', '1.px', '1,5vp'])(
    'refuses the spacing %j',
    (text) => {
      expect(parseSpacing(text)).toBeUndefined();
    },
  );

  it('refuses a bare number as a spacing', () => {
    expect(parseSpacing(500)).toBeUndefined();
  });

  it('uses the network defaults when absent or null', () => {
    expect(constraints(undefined)).toEqual({ value: DEFAULT_CONSTRAINTS, problems: [] });
    expect(constraints(null)).toEqual({ value: DEFAULT_CONSTRAINTS, problems: [] });
  });

  it('parses px and vp values and sorts rules by adCount', () => {
    const result = constraints({
      initialMinSpacing: '150px',
      subsequentMinSpacing: [
        { adCount: 6, spacing: '0.5vp' },
        { adCount: 3, spacing: '160px' },
      ],
      maxAdCount: 5,
    });
    expect(result).toEqual({
      value: {
        initialMinimumSpacing: px(150),
        subsequentMinimumSpacing: [
          { adCount: 3, spacing: px(160) },
          { adCount: 6, spacing: { value: 0.5, unit: 'vp' } },
        ],
        maximumAdCount: 5,
      },
      problems: [],
    });
  });

  it('reads a missing subsequentMinSpacing as no rules', () => {
    expect(constraints({ initialMinSpacing: '1vp', maxAdCount: 2 }).value.subsequentMinimumSpacing).toEqual([]);
  });

  it.each([
    ['a negative initial spacing', { initialMinSpacing: '-1px', maxAdCount: 3 }],
    ['a unit-less initial spacing', { initialMinSpacing: '100', maxAdCount: 3 }],
    ['an em initial spacing', { initialMinSpacing: '10em', maxAdCount: 3 }],
    ['a missing initial spacing', { maxAdCount: 3 }],
    ['a missing maxAdCount', { initialMinSpacing: '1vp' }],
    ['a negative maxAdCount', { initialMinSpacing: '1vp', maxAdCount: -1 }],
    ['a maxAdCount as a string', { initialMinSpacing: '1vp', maxAdCount: '3' }],
    ['a rule without adCount', { initialMinSpacing: '1vp', maxAdCount: 3, subsequentMinSpacing: [{ spacing: '2vp' }] }],
    [
      'a rule with a bad spacing',
      { initialMinSpacing: '1vp', maxAdCount: 3, subsequentMinSpacing: [{ adCount: 2, spacing: '-2vp' }] },
    ],
    ['rules that are not an array', { initialMinSpacing: '1vp', maxAdCount: 3, subsequentMinSpacing: {} }],
    ['constraints that are not an object', '1vp'],
  ])('falls back to the network defaults for %s (one auto-ads-constraints-invalid)', (_name, wire) => {
    const result = constraints(wire);
    expect(result.value).toBe(DEFAULT_CONSTRAINTS);
    expect(result.problems.map((d) => d.code)).toEqual(['auto-ads-constraints-invalid']);
  });

  it('says which value is wrong', () => {
    expect(
      constraints({ initialMinSpacing: '1vp', maxAdCount: 3, subsequentMinSpacing: [{ adCount: 2, spacing: '2' }] })
        .problems,
    ).toEqual([
      {
        code: 'auto-ads-constraints-invalid',
        expected: 'adConstraints.subsequentMinSpacing[0].spacing: a length such as 300px or 1.5vp (no sign)',
        got: '"2"',
        field: 'adConstraints.subsequentMinSpacing[0].spacing',
      },
    ]);
  });
});
