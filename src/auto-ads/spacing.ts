/**
 * The spacing rule of docs/auto-ads.md, "Config format": the minimum distance between a candidate position and every ad on
 * the page, by the number of ads already there. Pure; lengths are resolved against the
 * viewport height at the time of use.
 */
import type { Constraints, Spacing } from '../wire/auto-ads-constraints.ts';

/** A vertical extent in document coordinates. */
export type VerticalBox = { readonly top: number; readonly bottom: number };

export function toPixels(spacing: Spacing, viewportHeight: number): number {
  return spacing.unit === 'px' ? spacing.value : spacing.value * viewportHeight;
}

/** The rule with the largest `adCount` not above `adCount` wins; without one, the initial spacing. */
export function selectSpacing(constraints: Constraints, adCount: number): Spacing {
  let spacing = constraints.initialMinimumSpacing;
  for (const rule of constraints.subsequentMinimumSpacing) {
    if (rule.adCount <= adCount) spacing = rule.spacing;
  }
  return spacing;
}

/** 0 inside the box, else the distance to its nearer edge. */
export function distanceTo(y: number, box: VerticalBox): number {
  return Math.max(0, box.top - y, y - box.bottom);
}

/** Too near is strictly less than the spacing: a distance equal to it is allowed. */
export function isTooNear(y: number, ads: readonly VerticalBox[], minimumSpacing: number): boolean {
  return ads.some((box) => distanceTo(y, box) < minimumSpacing);
}
