// Number formatting for the tables: fixed decimals by magnitude, "-" for a missing value.

export function formatNumber(value, decimals) {
  if (value === null || value === undefined || Number.isNaN(value)) return '-';
  if (typeof value !== 'number') return String(value);
  const places = decimals ?? (Math.abs(value) >= 100 || Number.isInteger(value) ? 0 : Math.abs(value) >= 10 ? 1 : 2);
  return value.toLocaleString('en-US', { minimumFractionDigits: places, maximumFractionDigits: places });
}

/** "median / p90" of a summary. */
export function formatSummary(summary, decimals) {
  if (!summary || summary.n === 0) return '-';
  return `${formatNumber(summary.median, decimals)} / ${formatNumber(summary.p90, decimals)}`;
}
