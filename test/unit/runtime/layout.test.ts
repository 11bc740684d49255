// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { applyLayout } from '../../../src/runtime/layout.ts';
import { parseLayout } from '../../../src/wire/layout.ts';

const parse = (layout: string | null, width: string | null, height: string | null) =>
  parseLayout({ layout, width, height });

describe('layout', () => {
  it.each([
    [null, '300', '250', 'fixed'],
    [null, null, '250', 'fixed-height'],
    [null, 'auto', '250', 'fixed-height'],
    [null, null, null, 'container'],
    ['responsive', '16', '9', 'responsive'],
    ['fill', null, null, 'fill'],
    ['nodisplay', null, null, 'nodisplay'],
    ['flex-item', null, null, 'flex-item'],
    ['intrinsic', '400px', '300px', 'intrinsic'],
  ])('resolves layout=%s width=%s height=%s to %s', (layout, width, height, expected) => {
    expect(parse(layout, width, height).value?.layout).toBe(expected);
  });

  it('reads lengths with and without px', () => {
    expect(parse('fixed', '320px', '50')).toEqual({
      value: { layout: 'fixed', width: 320, height: 50 },
      diagnostics: [],
    });
  });

  it('refuses an unknown layout', () => {
    const { value, diagnostics } = parse('wobbly', '1', '1');
    expect(value).toBeNull();
    expect(diagnostics[0]?.code).toBe('invalid-layout');
  });

  it('refuses a size that is not a length', () => {
    const { value, diagnostics } = parse('fixed', '50%', '10');
    expect(value).toBeNull();
    expect(diagnostics[0]).toMatchObject({ code: 'invalid-size', got: '"50%"' });
  });

  it('refuses a sized layout without its sizes', () => {
    expect(parse('responsive', '16', null).diagnostics[0]?.code).toBe('missing-size');
    expect(parse('fixed-height', null, null).diagnostics[0]?.code).toBe('missing-size');
  });

  it('reserves the box of each sized layout', () => {
    const box = (spec: Parameters<typeof applyLayout>[1]) => {
      const element = document.createElement('div');
      applyLayout(element, spec);
      return { className: element.className, style: element.getAttribute('style') ?? '' };
    };
    expect(box({ layout: 'fixed', width: 300, height: 250 })).toEqual({
      className: 'page-layout-fixed',
      style: 'width: 300px; height: 250px;',
    });
    expect(box({ layout: 'fixed-height', height: 90 }).style).toBe('height: 90px;');
    expect(box({ layout: 'responsive', width: 16, height: 9 }).style).toMatch(/aspect-ratio: 16 \/ 9/);
    expect(box({ layout: 'intrinsic', width: 400, height: 300 }).style).toMatch(/max-width: 400px/);
    expect(box({ layout: 'nodisplay' })).toEqual({ className: 'page-layout-nodisplay', style: 'display: none;' });
  });
});
