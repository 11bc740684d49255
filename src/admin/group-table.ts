/**
 * The statistics' decisions per geo group (docs/server.md, "Admin API"): one row per group the
 * server matched, the audit log's entries of the period split as the stats API splits them, and
 * "unknown" for entries logged before the group was kept.
 */
import { element } from './dom.ts';

export type GroupRow = {
  readonly group: string;
  readonly accepted: number;
  readonly custom: number;
  readonly rejected: number;
  readonly optOut: number;
  readonly unknown: number;
};

const COLUMNS: readonly (readonly [keyof Omit<GroupRow, 'group'>, string])[] = [
  ['accepted', 'Accepted'],
  ['custom', 'Custom'],
  ['rejected', 'Rejected'],
  ['optOut', 'Opt-out'],
  ['unknown', 'Unknown'],
];

export function groupTable(rows: readonly GroupRow[]): HTMLElement {
  const title = 'Decisions logged per geo group';
  if (rows.length === 0) return element('p', { className: 'empty' }, title + ': no data for this period.');
  const table = element('table', { className: 'groups' });
  table.createCaption().textContent = title;
  const head = table.createTHead().insertRow();
  head.append(element('th', { scope: 'col', textContent: 'Group' }));
  for (const [, label] of COLUMNS) head.append(element('th', { scope: 'col', textContent: label }));
  const body = table.createTBody();
  for (const row of rows) {
    const line = body.insertRow();
    line.append(element('th', { scope: 'row', textContent: row.group }));
    for (const [key] of COLUMNS) line.insertCell().textContent = String(row[key]);
  }
  return table;
}
