/**
 * The statistics section: the counts, one 100% stacked bar per day (decisions, prompt outcomes)
 * and one bar per purpose (accepted share), each SVG chart with its legend and its data as a
 * table for screen readers.
 */
import { $ } from './dom.ts';
import type { GroupRow } from './group-table.ts';

const svgNs = 'http://www.w3.org/2000/svg';
const colors = {
  accepted: '#1a7f4b',
  rejected: '#c0392b',
  unknown: '#8a8a99',
  accept: '#1a7f4b',
  reject: '#c0392b',
  dismiss: '#d98e04',
} as const;
type ColorKey = keyof typeof colors;

export type DayRow<K extends ColorKey> = { readonly day: string } & Readonly<Record<K, number>>;
export type PurposeRow = { readonly purpose: string; readonly accepted: number; readonly rejected: number };
export type Stats = {
  readonly counts: {
    readonly users: number;
    readonly auditEntries: number;
    readonly decisions: { readonly accepted: number; readonly rejected: number; readonly unknown: number };
  };
  readonly decisionsPerDay: readonly DayRow<'accepted' | 'rejected' | 'unknown'>[];
  readonly decisionsPerGroup: readonly GroupRow[];
  readonly promptOutcomesPerDay: readonly DayRow<'accept' | 'reject' | 'dismiss'>[];
  readonly purposes: readonly PurposeRow[];
};

function svg(tag: string, attributes: Readonly<Record<string, string | number>>, parent?: Element): SVGElement {
  const node = document.createElementNS(svgNs, tag) as SVGElement;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (parent) parent.append(node);
  return node;
}

function legend(keys: readonly ColorKey[]): HTMLUListElement {
  const list = document.createElement('ul');
  list.className = 'legend';
  for (const key of keys) {
    const item = document.createElement('li');
    const swatch = document.createElement('span');
    swatch.style.background = colors[key];
    item.append(swatch, key);
    list.append(item);
  }
  return list;
}

function dataTable(rows: readonly object[], keys: readonly string[], labelKey: string): HTMLDetailsElement {
  const details = document.createElement('details');
  const summary = document.createElement('summary');
  summary.textContent = 'Data table';
  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  for (const key of [labelKey, ...keys]) head.append(Object.assign(document.createElement('th'), { textContent: key }));
  for (const row of rows) {
    const line = table.insertRow();
    for (const key of [labelKey, ...keys])
      line.insertCell().textContent = String((row as Record<string, unknown>)[key]);
  }
  details.append(summary, table);
  return details;
}

/** A figure's caption, and whether it has rows; without, it says `empty`. */
function captioned(figure: HTMLElement, title: string, count: number, empty: string): boolean {
  figure.replaceChildren();
  const caption = document.createElement('figcaption');
  caption.textContent = title;
  figure.append(caption);
  if (count === 0)
    figure.append(Object.assign(document.createElement('p'), { className: 'empty', textContent: empty }));
  return count > 0;
}

/** One 100% stacked bar per day: the share of each key. */
export function rateChart<K extends ColorKey>(
  figure: HTMLElement,
  title: string,
  rows: readonly DayRow<K>[],
  keys: readonly K[],
): void {
  if (!captioned(figure, title, rows.length, 'No data for this period.')) return;
  const [width, height, left, bottom, top] = [480, 220, 36, 24, 8];
  const plotHeight = height - top - bottom;
  const step = (width - left) / rows.length;
  const chart = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': title + ', ' + rows.length + ' days',
  });
  for (const share of [0, 0.5, 1]) {
    const y = top + plotHeight * (1 - share);
    svg('line', { x1: left, x2: width, y1: y, y2: y, stroke: '#dcdce4' }, chart);
    const label = { x: left - 4, y: y + 4, 'text-anchor': 'end', 'font-size': 11, fill: '#5a5a66' };
    svg('text', label, chart).textContent = share * 100 + '%';
  }
  rows.forEach((row, index) => {
    const total = keys.reduce((sum, key) => sum + row[key], 0) || 1;
    let y = top + plotHeight;
    for (const key of keys) {
      const h = (row[key] / total) * plotHeight;
      y -= h;
      const rect = svg(
        'rect',
        { x: left + index * step + step * 0.1, y, width: step * 0.8, height: h, fill: colors[key] },
        chart,
      );
      svg('title', {}, rect).textContent = `${row.day} ${key}: ${row[key]} (${Math.round((row[key] / total) * 100)}%)`;
    }
    const every = Math.ceil(rows.length / 8);
    if (index % every === 0) {
      const label = { x: left + index * step + step / 2, y: height - 6, 'text-anchor': 'middle' };
      svg('text', { ...label, 'font-size': 10, fill: '#5a5a66' }, chart).textContent = row.day.slice(5);
    }
  });
  figure.append(chart, legend(keys), dataTable(rows, keys, 'day'));
}

/** One horizontal bar per purpose: the accepted share among current decisions. */
export function purposeChart(figure: HTMLElement, rows: readonly PurposeRow[]): void {
  const title = 'Purpose acceptance (current decisions)';
  if (!captioned(figure, title, rows.length, 'No purpose choices recorded.')) return;
  const [width, bar, left] = [480, 30, 130];
  const height = rows.length * bar + 10;
  const chart = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': 'Purpose acceptance for ' + rows.length + ' purposes',
  });
  const text = { 'font-size': 13, fill: '#1b1b1f' };
  rows.forEach((row, index) => {
    const total = row.accepted + row.rejected || 1;
    const share = row.accepted / total;
    const y = 5 + index * bar;
    svg('text', { x: left - 6, y: y + 19, 'text-anchor': 'end', ...text }, chart).textContent = row.purpose;
    const back = { x: left, y: y + 3, width: width - left - 50, height: bar - 8 };
    svg('rect', { ...back, fill: colors.rejected, opacity: 0.25 }, chart);
    const rect = svg('rect', { ...back, width: (width - left - 50) * share, fill: colors.accepted }, chart);
    svg('title', {}, rect).textContent = `${row.purpose}: ${row.accepted} accepted, ${row.rejected} rejected`;
    svg('text', { x: width - 44, y: y + 19, ...text }, chart).textContent = Math.round(share * 100) + '%';
  });
  figure.append(chart, legend(['accepted', 'rejected']), dataTable(rows, ['accepted', 'rejected'], 'purpose'));
}

/** The instance's counts, as a description list. */
export function showCounts(policyVersion: number, stats: Stats): void {
  const items: [string, number][] = [
    ['Policy version', policyVersion],
    ['Users', stats.counts.users],
    ['Updates logged', stats.counts.auditEntries],
    ['Accepted', stats.counts.decisions.accepted],
    ['Rejected', stats.counts.decisions.rejected],
    ['Unknown', stats.counts.decisions.unknown],
  ];
  $('counts').replaceChildren(
    ...items.map(([label, value]) => {
      const item = document.createElement('div');
      item.append(
        Object.assign(document.createElement('dt'), { textContent: label }),
        Object.assign(document.createElement('dd'), { textContent: String(value) }),
      );
      return item;
    }),
  );
}
