/** Audit entries as export lines: NDJSON, or CSV safe to open in a spreadsheet. */
import type { AuditEntry } from './store/store.ts';

export const csvColumns = [
  'id', 'time', 'instanceId', 'userId', 'pageUserId', 'state', 'consentString', 'purposeConsents',
  'consentMetadata', 'tcfPolicyVersion', 'policyVersion', 'origin', 'userAgent', 'ipHash',
] as const;

/** Quotes when needed; a leading = + - @ tab or CR is neutralised so no cell runs as a formula. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvHeader(): string {
  return `${csvColumns.join(',')}\r\n`;
}

export function toCsvLine(entry: AuditEntry): string {
  const row = { ...entry, time: new Date(entry.time).toISOString() };
  return `${csvColumns.map((column) => csvCell(row[column])).join(',')}\r\n`;
}

export function toNdjsonLine(entry: AuditEntry): string {
  return `${JSON.stringify({ ...entry, time: new Date(entry.time).toISOString() })}\n`;
}
