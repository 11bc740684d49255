/** Audit entries as export lines: NDJSON, or CSV safe to open in a spreadsheet. */
import type { AuditEntry } from './store/store.ts';

export const csvColumns = [
  'id', 'time', 'instanceId', 'userId', 'pageUserId', 'state', 'consentString', 'purposeConsents',
  'consentMetadata', 'tcfPolicyVersion', 'policyVersion', 'origin', 'userAgent', 'ipHash', 'gpc',
] as const;

/**
 * One RFC 4180 cell, always quoted (inner quotes doubled), so no separator a spreadsheet guesses
 * (`,` `;` tab) splits it. A leading = + - @ tab or CR gets a `'` so no cell runs as a formula.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function csvHeader(): string {
  return `${csvColumns.map(csvCell).join(',')}\r\n`;
}

export function toCsvLine(entry: AuditEntry): string {
  const row = { ...entry, time: new Date(entry.time).toISOString() };
  return `${csvColumns.map((column) => csvCell(row[column])).join(',')}\r\n`;
}

export function toNdjsonLine(entry: AuditEntry): string {
  return `${JSON.stringify({ ...entry, time: new Date(entry.time).toISOString() })}\n`;
}
