import { describe, expect, it } from 'vitest';
import { DEFAULT_CONSTRAINTS } from '../../../src/wire/auto-ads-constraints.ts';
import { parseAutoAdsConfig } from '../../../src/wire/auto-ads-config.ts';

const placement = (patch: Record<string, unknown> = {}) => ({
  anchor: { selector: 'article p' },
  pos: 4,
  type: 1,
  ...patch,
});
const parse = (wire: unknown) => parseAutoAdsConfig(wire, DEFAULT_CONSTRAINTS);
const codes = (wire: unknown) => parse(wire).diagnostics.map((d) => d.code);

/** An anchor with `depth` nested `sub` levels below it. */
function nested(depth: number): Record<string, unknown> {
  let anchor: Record<string, unknown> = { selector: 'p' };
  for (let level = 0; level < depth; level++) anchor = { selector: 'div', sub: anchor };
  return anchor;
}

describe('auto-ads-config', () => {
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

  it('defaults margins to 0 and reads absent or null optional fields without a diagnostic', () => {
    const result = parse({
      placements: [placement({ style: { top_m: 5 }, attributes: null })],
      attributes: null,
      optInStatus: null,
    });
    expect(result.value?.placements[0]).toMatchObject({ marginTop: 5, marginBottom: 0, attributes: {} });
    expect(result.diagnostics).toEqual([]);
  });

  it('accepts a fractional min_c (docs/auto-ads.md says number)', () => {
    expect(parse({ placements: [placement({ anchor: { selector: 'p', min_c: 2.5 } })] })).toMatchObject({
      value: { placements: [{ anchor: { minimumTextLength: 2.5 } }] },
      diagnostics: [],
    });
  });

  it.each([
    ['pos 5', placement({ pos: 5 }), 'placements[0].pos'],
    ['pos 0', placement({ pos: 0 }), 'placements[0].pos'],
    ['pos 1.5', placement({ pos: 1.5 }), 'placements[0].pos'],
    ['pos as a string', placement({ pos: '4' }), 'placements[0].pos'],
    ['type 2', placement({ type: 2 }), 'placements[0].type'],
    ['a missing type', { anchor: { selector: 'p' }, pos: 4 }, 'placements[0].type'],
    ['a missing anchor', { pos: 4, type: 1 }, 'placements[0].anchor'],
    ['an anchor without selector', placement({ anchor: { index: 0 } }), 'placements[0].anchor.selector'],
    ['an empty selector', placement({ anchor: { selector: ' ' } }), 'placements[0].anchor.selector'],
    ['a negative index', placement({ anchor: { selector: 'p', index: -1 } }), 'placements[0].anchor.index'],
    ['a fractional index', placement({ anchor: { selector: 'p', index: 1.5 } }), 'placements[0].anchor.index'],
    ['all as a string', placement({ anchor: { selector: 'p', all: 'yes' } }), 'placements[0].anchor.all'],
    ['a negative min_c', placement({ anchor: { selector: 'p', min_c: -3 } }), 'placements[0].anchor.min_c'],
    ['min_c as a string', placement({ anchor: { selector: 'p', min_c: '3' } }), 'placements[0].anchor.min_c'],
    [
      'an invalid sub anchor',
      placement({ anchor: { selector: 'p', sub: { all: true } } }),
      'placements[0].anchor.sub.selector',
    ],
    ['a placement that is not an object', 'p', 'placements[0]'],
  ])('drops a placement with %s (auto-ads-placement-invalid naming the field)', (_name, wire, field) => {
    const result = parse({ placements: [wire, placement()] });
    expect(result.value?.placements).toHaveLength(1);
    expect(result.diagnostics.map((d) => [d.code, d.field])).toEqual([['auto-ads-placement-invalid', field]]);
  });

  it('names the path of the invalid field in the message', () => {
    const [d] = parse({
      placements: [placement(), placement({ anchor: { selector: 'p', sub: { selector: 'a', index: 'x' } } })],
    }).diagnostics;
    expect(d).toEqual({
      code: 'auto-ads-placement-invalid',
      expected: 'placements[1].anchor.sub.index: an integer from 0 to 9999',
      got: '"x"',
      field: 'placements[1].anchor.sub.index',
    });
  });

  it('accepts 10 nested sub anchors and drops a placement with 11', () => {
    expect(parse({ placements: [placement({ anchor: nested(10) })] })).toMatchObject({
      value: { placements: [{}] },
      diagnostics: [],
    });
    const deep = parse({ placements: [placement({ anchor: nested(11) })] });
    expect(deep.value?.placements).toEqual([]);
    expect(deep.diagnostics).toEqual([expect.objectContaining({ code: 'auto-ads-placement-invalid', got: '"more"' })]);
  });

  it('never overflows the stack on a deeply nested anchor', () => {
    expect(codes({ placements: [placement({ anchor: nested(100_000) })] })).toEqual(['auto-ads-placement-invalid']);
  });

  it('ignores a negative, too large or non-numeric margin with auto-ads-field-invalid', () => {
    const result = parse({
      placements: [placement({ style: { top_m: -4, bot_m: '8' } }), placement({ style: { top_m: 1e6 } })],
    });
    expect(result.value?.placements.map((p) => [p.marginTop, p.marginBottom])).toEqual([
      [0, 0],
      [0, 0],
    ]);
    expect(result.diagnostics.map((d) => d.code)).toEqual(Array(3).fill('auto-ads-field-invalid'));
  });

  it('reports missing placements (required by docs/auto-ads.md) and keeps the anchor ad', () => {
    expect(parse({ optInStatus: [2] })).toMatchObject({
      value: { placements: [], isAnchorAdEnabled: true },
      diagnostics: [{ code: 'auto-ads-field-invalid', field: 'placements', got: 'nothing' }],
    });
  });

  it('reports placements that are not an array, or more than 500', () => {
    expect(codes({ placements: { anchor: {} } })).toEqual(['auto-ads-field-invalid']);
    expect(codes({ placements: Array(501).fill(placement()) })).toEqual(['auto-ads-field-invalid']);
  });

  it('refuses a body that is not an object with auto-ads-config-invalid', () => {
    for (const wire of [null, [], 'x', 3]) {
      expect(parse(wire)).toMatchObject({ value: undefined, diagnostics: [{ code: 'auto-ads-config-invalid' }] });
    }
  });

  it('surfaces noConfigReason as auto-ads-no-config-reason and keeps going', () => {
    const result = parse({ noConfigReason: 'No ad placements found for publisher ID', placements: [placement()] });
    expect(result.diagnostics).toEqual([
      {
        code: 'auto-ads-no-config-reason',
        expected: 'a config with ads',
        got: '"No ad placements found for publisher ID"',
        field: 'noConfigReason',
      },
    ]);
    expect(result.value?.placements).toHaveLength(1);
  });

  it('enables the anchor ad only when optInStatus contains 2', () => {
    expect(parse({ placements: [], optInStatus: [1, 2] }).value?.isAnchorAdEnabled).toBe(true);
    expect(parse({ placements: [], optInStatus: [1, 3] }).value?.isAnchorAdEnabled).toBe(false);
    expect(parse({ placements: [] }).value?.isAnchorAdEnabled).toBe(false);
  });

  it('reports an optInStatus that is not an array of integers, never coercing "2"', () => {
    expect(parse({ placements: [], optInStatus: 2 })).toMatchObject({
      value: { isAnchorAdEnabled: false },
      diagnostics: [{ code: 'auto-ads-field-invalid' }],
    });
    expect(parse({ placements: [], optInStatus: ['2'] })).toMatchObject({
      value: { isAnchorAdEnabled: false },
      diagnostics: [{ field: 'optInStatus[0]' }],
    });
  });

  it('parses attributes and stickyAdAttributes through the allow-list', () => {
    const result = parse({
      placements: [],
      attributes: { type: 'fake', onclick: 'x' },
      stickyAdAttributes: { 'data-no-fill': true, sticky: 'top' },
    });
    expect(result.value).toMatchObject({
      attributes: { type: 'fake' },
      stickyAttributes: { 'data-no-fill': 'true', sticky: 'top' },
    });
    expect(result.diagnostics.map((d) => [d.code, d.field])).toEqual([
      ['auto-ads-attribute-dropped', 'attributes.onclick'],
    ]);
  });

  it('drops consent markers and script URLs from every attribute map, keeping the rest', () => {
    const result = parse({
      placements: [placement({ attributes: { 'data-block-on-consent-purposes': 'ads', 'data-slot': 'mid' } })],
      attributes: { type: 'custom', 'data-block-on-consent': '_till_responded', 'data-src': 'javascript:alert(1)' },
      stickyAdAttributes: { 'data-src': 'data:text/html,<script>alert(1)</script>' },
    });
    expect(result.value).toMatchObject({
      attributes: { type: 'custom' },
      stickyAttributes: {},
      placements: [{ attributes: { 'data-slot': 'mid' } }],
    });
    expect(result.diagnostics.map((d) => [d.code, d.field])).toEqual([
      ['auto-ads-consent-attribute-dropped', 'placements[0].attributes.data-block-on-consent-purposes'],
      ['auto-ads-consent-attribute-dropped', 'attributes.data-block-on-consent'],
      ['auto-ads-url-refused', 'attributes.data-src'],
      ['auto-ads-url-refused', 'stickyAdAttributes.data-src'],
    ]);
  });

  it('treats constructor and __proto__ as ordinary (dropped) names', () => {
    const wire = JSON.parse('{"placements": [], "attributes": {"__proto__": "x", "constructor": "y", "type": "fake"}}');
    const result = parse(wire);
    expect(result.value?.attributes).toEqual({ type: 'fake' });
    expect(Object.getPrototypeOf(result.value?.attributes)).toBe(Object.prototype);
    expect(result.diagnostics.map((d) => d.field)).toEqual(['attributes.__proto__', 'attributes.constructor']);
  });

  it('reads placements only from own properties', () => {
    const inherited = Object.create({ placements: [placement()] });
    expect(parse(inherited)).toMatchObject({ value: { placements: [] }, diagnostics: [{ field: 'placements' }] });
  });
});
