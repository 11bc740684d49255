/** Audit entries as export lines: NDJSON, or CSV safe to open in a spreadsheet. */
import type { AuditEntry } from './store/store.ts';

export const csvColumns = [
  'id',
  'time',
  'instanceId',
  'userId',
  'pageUserId',
  'state',
  'consentString',
  'purposeConsents',
  'consentMetadata',
  'tcfPolicyVersion',
  'policyVersion',
  'origin',
  'userAgent',
  'ipHash',
  'gpc',
  'geoGroup',
] as const;

/**
 * One RFC 4180 cell, always quoted (inner quotes doubled), so no separator a spreadsheet guesses
 * (`,` `;` tab) splits it. A leading = + - @ tab or CR gets a `'` so no cell runs as a formula.
 */
export function csvCell(value: unknown): string {
  let text =
    value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
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

/** RFC 8187 `ext-value` characters: encodeURIComponent leaves `'()*!` as they are; only `!` is an attr-char. */
const encodeExtValue = (text: string) =>
  encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `Content-Disposition` of an export (RFC 6266): instance ids are any text, so `filename` gets an
 * ASCII copy (every other character `_`: no quote, slash, control or non-Latin-1 character reaches
 * the header) and `filename*` the exact id, UTF-8 percent-encoded.
 */
export function exportContentDisposition(instanceId: string, format: string): string {
  const name = `${instanceId}-records.${format}`;
  const ascii = name.replace(/[^A-Za-z0-9._-]/g, '_');
  return ascii === name
    ? `attachment; filename="${name}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeExtValue(name)}`;
}
