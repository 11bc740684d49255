/**
 * The seed's spacing rule: the minimum distance between a candidate position and every ad on
 * the page, by the number of ads already there. Pure; lengths are resolved against the
 * viewport height at the time of use.
 */

/** A length with the seed's units: `px`, or `vp` (multiples of the viewport height). */
export type Spacing = { readonly value: number; readonly unit: 'px' | 'vp' };

export type SpacingRule = { readonly adCount: number; readonly spacing: Spacing };

export type Constraints = {
  readonly initialMinimumSpacing: Spacing;
  /** Sorted by `adCount`, ascending. */
  readonly subsequentMinimumSpacing: readonly SpacingRule[];
  readonly maximumAdCount: number;
};

/** A vertical extent in document coordinates. */
export type VerticalBox = { readonly top: number; readonly bottom: number };

/** `"500px"`, `"1.5vp"`; negative, unit-less or other units give undefined. */
export function parseSpacing(text: unknown): Spacing | undefined {
  const match = typeof text === 'string' ? /^(\d+(?:\.\d+)?|\.\d+)(px|vp)$/.exec(text) : null;
  return match ? { value: Number(match[1]), unit: match[2] as Spacing['unit'] } : undefined;
}

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
  return y >= box.top && y <= box.bottom ? 0 : Math.min(Math.abs(y - box.top), Math.abs(y - box.bottom));
}

/** Too near is strictly less than the spacing: a distance equal to it is allowed. */
export function isTooNear(y: number, ads: readonly VerticalBox[], minimumSpacing: number): boolean {
  return ads.some((box) => distanceTo(y, box) < minimumSpacing);
}
