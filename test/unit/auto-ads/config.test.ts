import { describe, expect, it } from 'vitest';
import { parseAutoAdsConfig, parseConstraints } from '../../../src/auto-ads/config.ts';
import { DEFAULT_CONSTRAINTS } from '../../../src/auto-ads/networks.ts';
import type { Diagnostic } from '../../../src/runtime/diagnostics.ts';

const placement = (patch: Record<string, unknown> = {}) => ({ anchor: { selector: 'article p' }, pos: 4, type: 1, ...patch });
const parse = (wire: unknown) => parseAutoAdsConfig(wire, DEFAULT_CONSTRAINTS);
const codes = (wire: unknown) => parse(wire).diagnostics.map((d) => d.code);
const constraints = (wire: unknown) => {
  const problems: Diagnostic[] = [];
  return { value: parseConstraints(wire, DEFAULT_CONSTRAINTS, problems), problems };
};

describe('config', () => {
  it('parses placements into readable data', () => {
    const { value, diagnostics } = parse({
      placements: [
        placement({
          anchor: { selector: 'main', index: 1, min_c: 20, sub: { selector: 'p', all: true } },
          pos: 2,
          style: { top_m: 12, bot_m: 8 },
          attributes: { 'data-a': 1 },
        }),
      ],
    });
    expect(diagnostics).toEqual([]);
    expect(value?.placements).toEqual([
      {
        anchor: {
          selector: 'main',
          index: 1,
          isAll: false,
          minimumTextLength: 20,
          sub: { selector: 'p', index: undefined, isAll: true, minimumTextLength: 0, sub: undefined },
        },
        position: 'first-child',
        marginTop: 12,
        marginBottom: 8,
        attributes: { 'data-a': '1' },
      },
    ]);
  });

  it.each([
    [1, 'before'],
    [2, 'first-child'],
    [3, 'last-child'],
    [4, 'after'],
  ])('maps pos %i to %s', (pos, position) => {
    expect(parse({ placements: [placement({ pos })] }).value?.placements[0]?.position).toBe(position);
  });

  it('defaults margins to 0', () => {
    expect(parse({ placements: [placement({ style: { top_m: 5 } })] }).value?.placements[0]).toMatchObject({ marginTop: 5, marginBottom: 0 });
  });

  it.each([
    ['pos 5', placement({ pos: 5 })],
    ['pos 0', placement({ pos: 0 })],
    ['pos as a string', placement({ pos: '4' })],
    ['type 2', placement({ type: 2 })],
    ['a missing type', { anchor: { selector: 'p' }, pos: 4 }],
    ['a missing anchor', { pos: 4, type: 1 }],
    ['an anchor without selector', placement({ anchor: { index: 0 } })],
    ['an empty selector', placement({ anchor: { selector: ' ' } })],
    ['a negative index', placement({ anchor: { selector: 'p', index: -1 } })],
    ['a fractional index', placement({ anchor: { selector: 'p', index: 1.5 } })],
    ['all as a string', placement({ anchor: { selector: 'p', all: 'yes' } })],
    ['a negative min_c', placement({ anchor: { selector: 'p', min_c: -3 } })],
    ['an invalid sub anchor', placement({ anchor: { selector: 'p', sub: { all: true } } })],
    ['a placement that is not an object', 'p'],
  ])('drops a placement with %s (auto-ads-placement-invalid)', (_name, wire) => {
    const result = parse({ placements: [wire, placement()] });
    expect(result.value?.placements).toHaveLength(1);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['auto-ads-placement-invalid']);
  });

  it('names the path of the invalid field', () => {
    const [d] = parse({ placements: [placement(), placement({ anchor: { selector: 'p', sub: { selector: 'a', index: 'x' } } })] }).diagnostics;
    expect(d).toEqual({ code: 'auto-ads-placement-invalid', expected: 'placements[1].anchor.sub.index as a whole number >= 0', got: '"x"' });
  });

  it('ignores a negative or non-numeric margin with auto-ads-field-invalid', () => {
    const result = parse({ placements: [placement({ style: { top_m: -4, bot_m: '8' } })] });
    expect(result.value?.placements[0]).toMatchObject({ marginTop: 0, marginBottom: 0 });
    expect(result.diagnostics.map((d) => d.code)).toEqual(['auto-ads-field-invalid', 'auto-ads-field-invalid']);
  });

  it('reports missing placements (required by the seed) and keeps the anchor ad', () => {
    expect(parse({ optInStatus: [2] })).toMatchObject({
      value: { placements: [], isAnchorAdEnabled: true },
      diagnostics: [{ code: 'auto-ads-field-invalid', expected: 'placements as an array', got: 'nothing' }],
    });
  });

  it('reports placements that are not an array', () => {
    expect(codes({ placements: { anchor: {} } })).toEqual(['auto-ads-field-invalid']);
  });

  it('refuses a body that is not an object with auto-ads-config-invalid', () => {
    for (const wire of [null, [], 'x', 3]) {
      expect(parse(wire)).toMatchObject({ value: undefined, diagnostics: [{ code: 'auto-ads-config-invalid' }] });
    }
  });

  it('surfaces noConfigReason as auto-ads-no-config-reason and keeps going', () => {
    const result = parse({ noConfigReason: 'No ad placements found for publisher ID', placements: [placement()] });
    expect(result.diagnostics).toEqual([
      { code: 'auto-ads-no-config-reason', expected: 'a config with ads', got: '"No ad placements found for publisher ID"' },
    ]);
    expect(result.value?.placements).toHaveLength(1);
  });

  it('enables the anchor ad only when optInStatus contains 2', () => {
    expect(parse({ optInStatus: [1, 2] }).value?.isAnchorAdEnabled).toBe(true);
    expect(parse({ optInStatus: [1, 3] }).value?.isAnchorAdEnabled).toBe(false);
    expect(parse({}).value?.isAnchorAdEnabled).toBe(false);
  });

  it('reports an optInStatus that is not an array', () => {
    expect(parse({ placements: [], optInStatus: 2 })).toMatchObject({ value: { isAnchorAdEnabled: false }, diagnostics: [{ code: 'auto-ads-field-invalid' }] });
  });

  it('parses attributes and stickyAdAttributes through the allow-list', () => {
    const result = parse({ placements: [], attributes: { type: 'fake', onclick: 'x' }, stickyAdAttributes: { 'data-no-fill': true, sticky: 'top' } });
    expect(result.value).toMatchObject({ attributes: { type: 'fake' }, stickyAttributes: { 'data-no-fill': 'true', sticky: 'top' } });
    expect(result.diagnostics.map((d) => d.code)).toEqual(['auto-ads-attribute-dropped']);
  });

  describe('adConstraints', () => {
    it('uses the network defaults when absent', () => {
      expect(constraints(undefined)).toEqual({ value: DEFAULT_CONSTRAINTS, problems: [] });
    });

    it('parses px and vp values and sorts rules by adCount', () => {
      const result = constraints({
        initialMinSpacing: '150px',
        subsequentMinSpacing: [{ adCount: 6, spacing: '0.5vp' }, { adCount: 3, spacing: '160px' }],
        maxAdCount: 5,
      });
      expect(result).toEqual({
        value: {
          initialMinimumSpacing: { value: 150, unit: 'px' },
          subsequentMinimumSpacing: [
            { adCount: 3, spacing: { value: 160, unit: 'px' } },
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
      ['a rule without adCount', { initialMinSpacing: '1vp', maxAdCount: 3, subsequentMinSpacing: [{ spacing: '2vp' }] }],
      ['a rule with a bad spacing', { initialMinSpacing: '1vp', maxAdCount: 3, subsequentMinSpacing: [{ adCount: 2, spacing: '-2vp' }] }],
      ['rules that are not an array', { initialMinSpacing: '1vp', maxAdCount: 3, subsequentMinSpacing: {} }],
      ['constraints that are not an object', '1vp'],
    ])('falls back to the network defaults for %s (auto-ads-constraints-invalid)', (_name, wire) => {
      const result = constraints(wire);
      expect(result.value).toBe(DEFAULT_CONSTRAINTS);
      expect(result.problems.map((d) => d.code)).toEqual(['auto-ads-constraints-invalid']);
    });

    it('says which value is wrong', () => {
      expect(constraints({ initialMinSpacing: '1vp', maxAdCount: 3, subsequentMinSpacing: [{ adCount: 2, spacing: '2' }] }).problems[0]).toEqual({
        code: 'auto-ads-constraints-invalid',
        expected: 'subsequentMinSpacing[].spacing as a length in px or vp (network defaults used)',
        got: '"2"',
      });
    });
  });
});
