import { describe, expect, it } from 'vitest';
import { meanInterval, summarizeArm, summarizeExperiments, Z_95 } from '../../server/experiment-stats.ts';

const totals = (values: number[], arm = 'a', experiment = 'x') => ({
  experiment,
  arm,
  pageViews: values.length,
  adsPlaced: values.length * 4,
  viewable: values.reduce((sum, value) => sum + value, 0),
  viewableSquares: values.reduce((sum, value) => sum + value * value, 0),
  layoutShift: values.length * 0.02,
});

describe('experiment-stats', () => {
  it('gives the normal-approximation interval of a mean from its sums', () => {
    const values = [0, 1, 2, 3, 4];
    // mean 2, sample variance 2.5: 2 ± 1.96 · √(2.5 / 5)
    const interval = meanInterval(5, 10, 30)!;
    expect(interval.low).toBeCloseTo(2 - Z_95 * Math.sqrt(0.5), 12);
    expect(interval.high).toBeCloseTo(2 + Z_95 * Math.sqrt(0.5), 12);
    expect(summarizeArm(totals(values)).viewableInterval).toEqual(interval);
  });

  it('narrows as page views grow, around the same mean', () => {
    const few = meanInterval(10, 10, 20)!;
    const many = meanInterval(1000, 1000, 2000)!;
    expect(many.high - many.low).toBeLessThan((few.high - few.low) / 5);
    expect((many.high + many.low) / 2).toBeCloseTo(1, 12);
  });

  it('keeps the lower bound at 0, and has no interval below 2 page views', () => {
    expect(meanInterval(2, 1, 1)!.low).toBe(0);
    expect(meanInterval(1, 3, 9)).toBeNull();
    expect(meanInterval(0, 0, 0)).toBeNull();
  });

  it('has a zero-width interval when every page view counted the same', () => {
    expect(meanInterval(4, 8, 16)).toEqual({ low: 2, high: 2 });
  });

  it('gives per-view figures and groups the arms by experiment', () => {
    const summary = summarizeArm(totals([1, 3]));
    expect(summary).toMatchObject({ arm: 'a', pageViews: 2, adsPlacedPerView: 4, viewablePerView: 2 });
    expect(summary.meanLayoutShift).toBeCloseTo(0.02, 12);
    expect(summarizeArm({ ...totals([]), pageViews: 0 })).toMatchObject({ viewablePerView: 0, meanLayoutShift: 0 });
    const grouped = summarizeExperiments([totals([1], 'a', 'x'), totals([1], 'b', 'x'), totals([1], 'a', 'y')]);
    expect(grouped.map(({ experiment, arms }) => [experiment, arms.map((arm) => arm.arm)])).toEqual([
      ['x', ['a', 'b']],
      ['y', ['a']],
    ]);
  });
});
