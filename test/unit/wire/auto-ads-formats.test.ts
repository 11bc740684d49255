import { describe, expect, it } from 'vitest';
import { DEFAULT_CONSTRAINTS } from '../../../src/wire/auto-ads-constraints.ts';
import { parseFullAutoAdsConfig } from '../../../src/wire/auto-ads-formats.ts';
import { parseAutoAdsConfig } from '../../../src/wire/auto-ads-config.ts';

const banner = { anchor: { selector: 'article p' }, pos: 4, type: 1 };
const parse = (...placements: unknown[]) => parseFullAutoAdsConfig({ placements }, DEFAULT_CONSTRAINTS);

describe('auto-ads config: vignette and side rail placements', () => {
  it('leaves the formats unread in the component parser, which only sets them apart', () => {
    const { value, diagnostics } = parseAutoAdsConfig(
      { placements: [banner, { type: 'vignette', timeoutMs: 'x' }] },
      DEFAULT_CONSTRAINTS,
    );
    expect(diagnostics).toEqual([]);
    expect(value?.placements).toHaveLength(1);
    expect(value?.formats).toEqual([
      { type: 'vignette', placement: { type: 'vignette', timeoutMs: 'x' }, field: 'placements[1]' },
    ]);
  });

  it('reads a vignette with its defaults, apart from the banners', () => {
    const { value, diagnostics } = parse(banner, { type: 'vignette' });
    expect(diagnostics).toEqual([]);
    expect(value?.placements).toHaveLength(1);
    expect(value?.vignette).toEqual({
      intervalSeconds: 3600,
      tabReturnSeconds: undefined,
      isArticleEndTrigger: false,
      timeoutMs: 3000,
      attributes: {},
    });
    expect(value).not.toHaveProperty('sideRail');
  });

  it('reads every vignette field', () => {
    const { value, diagnostics } = parse({
      type: 'vignette',
      intervalSeconds: 0,
      tabReturnSeconds: 30,
      articleEnd: true,
      timeoutMs: 500,
      attributes: { 'data-slot': 'v' },
    });
    expect(diagnostics).toEqual([]);
    expect(value?.vignette).toEqual({
      intervalSeconds: 0,
      tabReturnSeconds: 30,
      isArticleEndTrigger: true,
      timeoutMs: 500,
      attributes: { 'data-slot': 'v' },
    });
  });

  it('reads a side rail: both sides and both widths by default, or the ones named', () => {
    expect(parse({ type: 'sideRail' }).value?.sideRail).toEqual({
      sides: ['left', 'right'],
      widths: [300, 160],
      attributes: {},
    });
    expect(parse({ type: 'sideRail', sides: 'right', width: 160 }).value?.sideRail).toEqual({
      sides: ['right'],
      widths: [160],
      attributes: {},
    });
  });

  it('drops a vignette with one diagnostic per bad field and applies the rest of the config', () => {
    const { value, diagnostics } = parse(
      { type: 'vignette', intervalSeconds: -1, tabReturnSeconds: '30', articleEnd: 'yes', timeoutMs: 20_000 },
      banner,
      { type: 'sideRail' },
    );
    expect(value).not.toHaveProperty('vignette');
    expect(value?.placements).toHaveLength(1);
    expect(value?.sideRail).toBeDefined();
    expect(diagnostics.map((d) => [d.code, d.field])).toEqual([
      ['auto-ads-placement-invalid', 'placements[0].intervalSeconds'],
      ['auto-ads-placement-invalid', 'placements[0].tabReturnSeconds'],
      ['auto-ads-placement-invalid', 'placements[0].articleEnd'],
      ['auto-ads-placement-invalid', 'placements[0].timeoutMs'],
    ]);
  });

  it('drops a side rail with a bad width or side', () => {
    const { value, diagnostics } = parse({ type: 'sideRail', sides: 'top', width: 250 });
    expect(value).not.toHaveProperty('sideRail');
    expect(diagnostics.map((d) => d.expected)).toEqual([
      expect.stringContaining('placements[0].sides: one of left, right, both'),
      expect.stringContaining('placements[0].width: 160 or 300'),
    ]);
  });

  it('keeps the placement when only an attribute is dropped, as for banners', () => {
    const { value, diagnostics } = parse({ type: 'vignette', attributes: { onclick: 'x', 'data-a': 'b' } });
    expect(value?.vignette?.attributes).toEqual({ 'data-a': 'b' });
    expect(diagnostics.map((d) => d.code)).toEqual(['auto-ads-attribute-dropped']);
  });

  it('keeps the first vignette and drops a second one', () => {
    const { value, diagnostics } = parse({ type: 'vignette', timeoutMs: 1000 }, { type: 'vignette' });
    expect(value?.vignette?.timeoutMs).toBe(1000);
    expect(diagnostics.map((d) => d.expected)).toEqual([expect.stringContaining('at most one vignette placement')]);
  });

  it('names the new types in the message for an unknown type', () => {
    const [first] = parse({ ...banner, type: 'interstitial' }).diagnostics;
    expect(first?.expected).toContain('1 (BANNER), "vignette" or "sideRail"');
  });
});
