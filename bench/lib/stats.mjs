// Summary statistics of repeated measurements: median and p90 (linear interpolation between
// the closest ranks, as numpy's default), over the values that were measured (null skipped).

/** The q-quantile (0..1) of `values`; null when there is none. */
export function quantile(values, q) {
  const sorted = values.filter((value) => typeof value === 'number' && Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}

export const median = (values) => quantile(values, 0.5);
export const p90 = (values) => quantile(values, 0.9);

/** `{n, median, p90}` of the numeric values. */
export function summarize(values) {
  const measured = values.filter((value) => typeof value === 'number' && Number.isFinite(value));
  return { n: measured.length, median: median(measured), p90: p90(measured) };
}

/** Ratio a / b, null when either is missing or b is 0. */
export function ratio(a, b) {
  return a === null || b === null || b === 0 ? null : a / b;
}
