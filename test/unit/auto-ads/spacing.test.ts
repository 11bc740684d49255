import { describe, expect, it } from 'vitest';
import { distanceTo, isTooNear, selectSpacing, toPixels } from '../../../src/auto-ads/spacing.ts';
import type { Constraints } from '../../../src/wire/auto-ads-constraints.ts';

const px = (value: number) => ({ value, unit: 'px' }) as const;
const rules = (initial: number, entries: [number, number][]): Constraints => ({
  initialMinimumSpacing: px(initial),
  subsequentMinimumSpacing: entries.map(([adCount, spacing]) => ({ adCount, spacing: px(spacing) })),
  maximumAdCount: 10,
});

describe('spacing', () => {
  it('converts vp to multiples of the viewport height and keeps px', () => {
    expect(toPixels({ value: 1.5, unit: 'vp' }, 500)).toBe(750);
    expect(toPixels(px(120), 500)).toBe(120);
  });

  it('uses the initial spacing below every adCount', () => {
    expect(
      selectSpacing(
        rules(100, [
          [3, 500],
          [5, 1000],
        ]),
        2,
      ),
    ).toEqual(px(100));
  });

  it('applies the rule with the largest adCount not above the count (worked example of docs/auto-ads.md, "Config format")', () => {
    const constraints = rules(100, [
      [3, 500],
      [5, 1000],
    ]);
    expect([3, 4, 5, 9].map((count) => selectSpacing(constraints, count).value)).toEqual([500, 500, 1000, 1000]);
  });

  it('escalates through several rules as ads are added', () => {
    const constraints = rules(0, [
      [1, 600],
      [3, 700],
      [4, 800],
    ]);
    expect([1, 2, 3, 4].map((count) => selectSpacing(constraints, count).value)).toEqual([600, 600, 700, 800]);
  });

  it('measures 0 inside a box and the nearer edge outside', () => {
    const box = { top: 100, bottom: 150 };
    expect(distanceTo(120, box)).toBe(0);
    expect(distanceTo(40, box)).toBe(60);
    expect(distanceTo(190, box)).toBe(40);
  });

  it('finds a position too near an ad above it', () => {
    expect(isTooNear(149, [{ top: 0, bottom: 50 }], 100)).toBe(true);
  });

  it('finds a position too near an ad below it', () => {
    expect(isTooNear(1, [{ top: 100, bottom: 150 }], 100)).toBe(true);
  });

  it('finds a position inside an ad too near', () => {
    expect(isTooNear(120, [{ top: 100, bottom: 150 }], 1)).toBe(true);
  });

  it('allows a distance equal to the spacing', () => {
    const ads = [
      { top: 0, bottom: 50 },
      { top: 250, bottom: 300 },
    ];
    expect(isTooNear(150, ads, 100)).toBe(false);
    expect(isTooNear(149.5, ads, 100)).toBe(true);
  });
});
