import { describe, expect, it } from 'vitest';
import { DEFAULT_CONSTRAINTS } from '../../../src/wire/auto-ads-constraints.ts';
import { parseAutoAdsConfig } from '../../../src/wire/auto-ads-config.ts';
import {
  applyArm,
  type Experiment,
  parseExperiment,
  parseExperimentReport,
  pickArm,
  readStoredArm,
} from '../../../src/wire/auto-ads-experiment.ts';
import { parseFullAutoAdsConfig } from '../../../src/wire/auto-ads-formats.ts';

const arms = [
  { id: 'a', weight: 50, settings: { maxAdCount: 3, anchor: false } },
  { id: 'b', weight: 50, settings: { maxAdCount: 5 } },
];
const config = (experiment: unknown, extra: object = {}) => ({ placements: [], experiment, ...extra });
const parse = (experiment: unknown, extra?: object) => parseExperiment(config(experiment, extra));
const fields = (experiment: unknown, extra?: object) =>
  parse(experiment, extra).diagnostics.map((d) => [d.code, d.field]);

describe('auto-ads experiment parser', () => {
  it('reads the arms, their weights and settings, and onExperimentHref', () => {
    const { value, diagnostics } = parse({ id: 'max-ads', arms }, { onExperimentHref: '/ads/experiment?client=x' });
    expect(diagnostics).toEqual([]);
    expect(value).toEqual({
      id: 'max-ads',
      reportHref: '/ads/experiment?client=x',
      arms: [
        { id: 'a', weight: 50, settings: { maximumAdCount: 3, isAnchorAdEnabled: false } },
        { id: 'b', weight: 50, settings: { maximumAdCount: 5 } },
      ],
    });
  });

  it('reads a config without an experiment as none, silently', () => {
    expect(parseExperiment({ placements: [] })).toEqual({ value: undefined, diagnostics: [] });
    expect(parseExperiment(undefined)).toEqual({ value: undefined, diagnostics: [] });
  });

  it('drops the experiment with one diagnostic per bad field', () => {
    const bad = {
      id: 'has space',
      arms: [
        { id: 'a', weight: 0, settings: { maxAdCount: -1, anchr: true } },
        { id: 'a', weight: 10 },
      ],
    };
    const result = parse(bad, { onExperimentHref: 'javascript:alert(1)' });
    expect(result.value).toBeUndefined();
    expect(result.diagnostics.every((d) => d.code === 'auto-ads-experiment-invalid')).toBe(true);
    expect(fields(bad, { onExperimentHref: 'javascript:alert(1)' })).toEqual([
      ['auto-ads-experiment-invalid', 'experiment.id'],
      ['auto-ads-experiment-invalid', 'experiment.arms[0].weight'],
      ['auto-ads-experiment-invalid', 'experiment.arms[0].settings.maxAdCount'],
      ['auto-ads-experiment-invalid', 'experiment.arms[0].settings.anchr'],
      ['auto-ads-experiment-invalid', 'experiment.arms[1].id'],
      ['auto-ads-experiment-invalid', 'onExperimentHref'],
    ]);
  });

  it('asks for two or three arms', () => {
    expect(fields({ id: 'x', arms: arms.slice(0, 1) })).toEqual([['auto-ads-experiment-invalid', 'experiment.arms']]);
    expect(fields({ id: 'x', arms: [...arms, ...arms.map((arm) => ({ ...arm, id: arm.id + '2' }))] })).toEqual([
      ['auto-ads-experiment-invalid', 'experiment.arms'],
    ]);
    expect(fields({ id: 'x', arms: [...arms, { id: 'c', weight: 1 }] })).toEqual([]);
    expect(fields('x')).toEqual([['auto-ads-experiment-invalid', 'experiment']]);
  });

  it('keeps the experiment apart in the component parser, and reads it with the full config', () => {
    const wire = config({ id: 'x', arms });
    expect(parseAutoAdsConfig(wire, DEFAULT_CONSTRAINTS).value?.experimentSource).toBe(wire);
    expect(parseAutoAdsConfig({ placements: [] }, DEFAULT_CONSTRAINTS).value).not.toHaveProperty('experimentSource');
    expect(parseFullAutoAdsConfig(wire, DEFAULT_CONSTRAINTS).value?.experiment?.id).toBe('x');
    const bad = parseFullAutoAdsConfig(config({ id: 'x', arms: [] }), DEFAULT_CONSTRAINTS);
    expect(bad.value).not.toHaveProperty('experiment');
    expect(bad.diagnostics.map((d) => d.code)).toEqual(['auto-ads-experiment-invalid']);
  });
});

describe('pickArm', () => {
  const three = parse({
    id: 'x',
    arms: [
      { id: 'a', weight: 1 },
      { id: 'b', weight: 2 },
      { id: 'c', weight: 1 },
    ],
  }).value!.arms;

  it('gives each arm its weight share of the draws', () => {
    expect([0, 0.2499, 0.25, 0.7499, 0.75, 0.9999].map((draw) => pickArm(three, draw).id)).toEqual([
      'a',
      'a',
      'b',
      'b',
      'c',
      'c',
    ]);
  });

  it('splits many uniform draws by the weights', () => {
    const counts: Record<string, number> = { a: 0, b: 0, c: 0 };
    for (let i = 0; i < 4000; i++) counts[pickArm(three, (i + 0.5) / 4000).id]!++;
    expect(counts).toEqual({ a: 1000, b: 2000, c: 1000 });
  });
});

describe('readStoredArm', () => {
  const experiment = parse({ id: 'x', arms }).value as Experiment;

  it('reads the arm kept for this experiment', () => {
    expect(readStoredArm({ id: 'x', arm: 'b' }, experiment)?.id).toBe('b');
  });

  it('reads nothing for another experiment, an unknown arm or a value of another shape', () => {
    for (const value of [{ id: 'y', arm: 'b' }, { id: 'x', arm: 'z' }, 'b', null, ['x', 'b']])
      expect(readStoredArm(value, experiment)).toBeUndefined();
  });
});

describe('applyArm', () => {
  const base = parseAutoAdsConfig(
    { placements: [{ type: 'vignette' }, { type: 'sideRail' }], optInStatus: [2] },
    DEFAULT_CONSTRAINTS,
  ).value!;
  const arm = (settings: object) => ({ id: 'a', weight: 1, settings });

  it('overrides the settings the arm names and keeps the others', () => {
    const applied = applyArm(base, arm({ maximumAdCount: 2, isAnchorAdEnabled: false }));
    expect(applied.constraints).toEqual({ ...DEFAULT_CONSTRAINTS, maximumAdCount: 2 });
    expect(applied.isAnchorAdEnabled).toBe(false);
    expect(applied.formats).toEqual(base.formats);
    expect(applyArm(base, arm({}))).toEqual(base);
  });

  it('turns the vignette or the side rails off', () => {
    expect(applyArm(base, arm({ isVignetteEnabled: false })).formats.map((f) => f.type)).toEqual(['sideRail']);
    expect(
      applyArm(base, arm({ isSideRailEnabled: false, isVignetteEnabled: true })).formats.map((f) => f.type),
    ).toEqual(['vignette']);
  });
});

describe('parseExperimentReport', () => {
  const report = { experiment: 'x', arm: 'a', adsPlaced: 3, viewable: 2, layoutShift: 0.01 };

  it('reads a page view report', () => {
    expect(parseExperimentReport(report)).toEqual({ value: report, diagnostics: [] });
  });

  it('refuses a report with any bad field, naming it', () => {
    const cases: [object, string][] = [
      [{ ...report, experiment: '' }, 'experiment'],
      [{ ...report, arm: 1 }, 'arm'],
      [{ ...report, adsPlaced: 1.5 }, 'adsPlaced'],
      [{ ...report, viewable: -1 }, 'viewable'],
      [{ ...report, viewable: 4 }, 'viewable'],
      [{ ...report, layoutShift: '0' }, 'layoutShift'],
      [{ ...report, adsPlaced: 1001, viewable: 0 }, 'adsPlaced'],
    ];
    for (const [body, field] of cases) {
      const { value, diagnostics } = parseExperimentReport(body);
      expect(value).toBeUndefined();
      expect(diagnostics.map((d) => d.field)).toEqual([field]);
    }
    expect(parseExperimentReport([report]).value).toBeUndefined();
  });
});
