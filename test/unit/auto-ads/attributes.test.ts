import { describe, expect, it } from 'vitest';
import { mergeAttributes, parseAttributes } from '../../../src/auto-ads/attributes.ts';
import type { Diagnostic } from '../../../src/runtime/diagnostics.ts';

const parse = (value: unknown) => {
  const problems: Diagnostic[] = [];
  return { value: parseAttributes(value, 'attributes', problems), codes: problems.map((d) => d.code), problems };
};

describe('attributes', () => {
  it('keeps type, layout, height, width, sticky and data-* names', () => {
    const value = { type: 'fake', layout: 'fixed-height', height: '280', width: '300', sticky: 'top', 'data-slot': '/1/a' };
    expect(parse(value)).toMatchObject({ value, codes: [] });
  });

  it('drops other names with auto-ads-attribute-dropped', () => {
    const result = parse({ style: 'color:red', 'data-ok': 'x', '-key': 'y', class: 'z', 'data-': 'w' });
    expect(result.value).toEqual({ 'data-ok': 'x' });
    expect(result.codes).toEqual(Array(4).fill('auto-ads-attribute-dropped'));
    expect(result.problems[0]?.got).toBe('"style"');
  });

  it('stringifies numbers and booleans', () => {
    expect(parse({ height: 250, 'data-a': true, 'data-b': false }).value).toEqual({ height: '250', 'data-a': 'true', 'data-b': 'false' });
  });

  it('drops object, array and null values', () => {
    const result = parse({ 'data-a': {}, 'data-b': [], 'data-c': null, 'data-d': 'kept' });
    expect(result.value).toEqual({ 'data-d': 'kept' });
    expect(result.codes).toEqual(Array(3).fill('auto-ads-attribute-dropped'));
  });

  it('reads a non-object field as empty with auto-ads-field-invalid', () => {
    expect(parse(['type'])).toMatchObject({ value: {}, codes: ['auto-ads-field-invalid'] });
    expect(parse('type=x')).toMatchObject({ value: {}, codes: ['auto-ads-field-invalid'] });
  });

  it('reads an absent field as empty without a diagnostic', () => {
    expect(parse(undefined)).toMatchObject({ value: {}, codes: [] });
  });

  it('merges layers so that later layers win and earlier-only names survive', () => {
    const merged = mergeAttributes(
      { layout: 'fixed-height', height: '0' },
      { type: 'adsense', 'data-ad-client': 'ca-pub-1' },
      { type: 'fake', 'data-a': 'config' },
      { 'data-a': 'placement', height: '300' },
    );
    expect(merged).toEqual({ layout: 'fixed-height', height: '300', type: 'fake', 'data-ad-client': 'ca-pub-1', 'data-a': 'placement' });
  });
});
