import { describe, expect, it } from 'vitest';
import { readAttributes } from '../../../src/wire/auto-ads-attributes.ts';
import { collector } from '../../../src/wire/values.ts';

const parse = (value: unknown) => {
  const into = collector('auto-ads-field-invalid');
  const parsed = readAttributes(into, value, 'attributes');
  return { value: parsed, codes: into.diagnostics.map((d) => d.code), diagnostics: into.diagnostics };
};

describe('auto-ads-attributes', () => {
  it('keeps type, layout, height, width, sticky and data-* names', () => {
    const value = {
      type: 'fake',
      layout: 'fixed-height',
      height: '280',
      width: '300',
      sticky: 'top',
      'data-slot': '/1/a',
      'data-a_b.c': 'x',
    };
    expect(parse(value)).toMatchObject({ value, codes: [] });
  });

  it('drops other names with auto-ads-attribute-dropped', () => {
    const result = parse({
      style: 'color:red',
      'data-ok': 'x',
      '-key': 'y',
      class: 'z',
      'data-': 'w',
      'data-Upper': 'v',
      'data-a b': 'u',
      src: 'https://x',
    });
    expect(result.value).toEqual({ 'data-ok': 'x' });
    expect(result.codes).toEqual(Array(7).fill('auto-ads-attribute-dropped'));
    expect(result.diagnostics[0]).toMatchObject({ got: '"style"', field: 'attributes.style' });
  });

  it('stringifies numbers and booleans (docs/auto-ads.md, "Config format")', () => {
    expect(parse({ height: 250, 'data-a': true, 'data-b': false }).value).toEqual({
      height: '250',
      'data-a': 'true',
      'data-b': 'false',
    });
  });

  it('drops object, array, null and over-long values', () => {
    const result = parse({
      'data-a': {},
      'data-b': [],
      'data-c': null,
      'data-e': 'x'.repeat(2001),
      'data-f': 'a\0b',
      'data-d': 'kept',
    });
    expect(result.value).toEqual({ 'data-d': 'kept' });
    expect(result.codes).toEqual(Array(5).fill('auto-ads-attribute-dropped'));
  });

  it.each(['data-block-on-consent', 'data-block-on-consent-purposes', 'data-block-on-consent-anything'])(
    'drops the consent marker %s with auto-ads-consent-attribute-dropped',
    (name) => {
      expect(parse({ [name]: '_till_responded', type: 'fake' })).toMatchObject({
        value: { type: 'fake' },
        codes: ['auto-ads-consent-attribute-dropped'],
      });
    },
  );

  it.each([
    ['data-src', 'javascript:alert(1)'],
    ['data-src', ' JaVa\tScRiPt:alert(1)'],
    ['data-src', 'data:text/html,<script>alert(1)</script>'],
    ['data-src', 'blob:https://x/1'],
    ['data-src', 'vbscript:msgbox'],
    ['data-src', 'file:///etc/passwd'],
    ['data-creative-url', 'javascript:1'],
    ['data-click-href', 'data:,x'],
  ])('refuses %s=%j with auto-ads-url-refused', (name, url) => {
    expect(parse({ [name]: url })).toMatchObject({ value: {}, codes: ['auto-ads-url-refused'] });
  });

  const macro = '$' + '{GDPR}';
  it.each([
    `https://ads.example/c?gdpr=${macro}`,
    'http://ads.example/c',
    '/creative',
    '//cdn.example/c',
    'creative.html',
  ])('keeps the loadable data-src %j', (url) => {
    expect(parse({ 'data-src': url })).toMatchObject({ value: { 'data-src': url }, codes: [] });
  });

  it('reads a non-object field as nothing with auto-ads-field-invalid', () => {
    expect(parse(['type'])).toMatchObject({ value: undefined, codes: ['auto-ads-field-invalid'] });
    expect(parse('type=x')).toMatchObject({ value: undefined, codes: ['auto-ads-field-invalid'] });
  });

  it('refuses more than 100 attributes as a whole', () => {
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`data-a${i}`, 'x']));
    expect(parse(many)).toMatchObject({ value: undefined, codes: ['auto-ads-field-invalid'] });
  });
});
