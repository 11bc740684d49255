/**
 * The admin dashboard's view of an auto-ads experiment (docs/server.md, "Ads experiments"): per
 * arm, the page views, ads placed per page view, viewable impressions per page view with a 95%
 * confidence interval, and the mean layout shift, from the arm's stored totals.
 *
 * The interval is the normal approximation for a mean: x̄ ± 1.96 · s / √n, where n is the page
 * views, x̄ = Σx / n the viewable impressions per page view, and s² = (Σx² − n·x̄²) / (n − 1) the
 * sample variance of the per-view counts (from the stored sums Σx and Σx²). The lower bound is
 * kept at 0 or above; with fewer than 2 page views there is no interval (null).
 */
import type { ExperimentArmTotals } from './api-types.ts';

/** The two-sided 95% quantile of the standard normal distribution. */
export const Z_95 = 1.96;

export type Interval = { readonly low: number; readonly high: number };

export type ArmSummary = {
  readonly arm: string;
  readonly pageViews: number;
  readonly adsPlacedPerView: number;
  readonly viewablePerView: number;
  readonly viewableInterval: Interval | null;
  readonly meanLayoutShift: number;
};

export type ExperimentSummary = { readonly experiment: string; readonly arms: readonly ArmSummary[] };

/** The 95% interval of a mean from n samples, their sum and the sum of their squares; null below 2 samples. */
export function meanInterval(n: number, sum: number, squares: number): Interval | null {
  if (n < 2) return null;
  const mean = sum / n;
  const variance = Math.max(0, (squares - n * mean * mean) / (n - 1));
  const margin = Z_95 * Math.sqrt(variance / n);
  return { low: Math.max(0, mean - margin), high: mean + margin };
}

export function summarizeArm(totals: ExperimentArmTotals): ArmSummary {
  const n = totals.pageViews;
  const per = (value: number) => (n > 0 ? value / n : 0);
  return {
    arm: totals.arm,
    pageViews: n,
    adsPlacedPerView: per(totals.adsPlaced),
    viewablePerView: per(totals.viewable),
    viewableInterval: meanInterval(n, totals.viewable, totals.viewableSquares),
    meanLayoutShift: per(totals.layoutShift),
  };
}

/** The arms grouped by experiment, in the store's order. */
export function summarizeExperiments(rows: readonly ExperimentArmTotals[]): ExperimentSummary[] {
  const experiments = new Map<string, ArmSummary[]>();
  for (const row of rows) {
    const arms = experiments.get(row.experiment) ?? [];
    arms.push(summarizeArm(row));
    experiments.set(row.experiment, arms);
  }
  return [...experiments].map(([experiment, arms]) => ({ experiment, arms }));
}
