/** Output of the validator: `file:line:col severity code: expected X, got Y` lines plus a summary, or JSON. */
import type { Finding } from './finding.ts';

export type Format = 'text' | 'json';

export type Report = { readonly name: string; readonly findings: readonly Finding[] };

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** ANSI colours of a severity on a terminal: errors red, warnings yellow. */
const COLOURS = { error: '\u001b[31m', warning: '\u001b[33m' } as const;

export function formatText(reports: readonly Report[], isColour = false): string {
  const paint = (severity: Finding['severity']) => (isColour ? `${COLOURS[severity]}${severity}\u001b[0m` : severity);
  const lines = reports.flatMap(({ name, findings }) =>
    findings.map(({ line, column, severity, code, message, hint }) => {
      const text = `${name}:${line}:${column} ${paint(severity)} ${code}: ${message}`;
      return hint === undefined ? text : `${text}\n  hint: ${hint}`;
    }),
  );
  const all = reports.flatMap(({ findings }) => findings);
  const errors = all.filter(({ severity }) => severity === 'error').length;
  const names = reports.map(({ name }) => name).join(', ');
  return [...lines, `${names}: ${count(errors, 'error')}, ${count(all.length - errors, 'warning')}`].join('\n');
}

/** One array of `{severity, code, message, line, column}` (plus `file` when several inputs were checked). */
export function formatJson(reports: readonly Report[]): string {
  const isSeveral = reports.length > 1;
  const all = reports.flatMap(({ name, findings }) =>
    findings.map((finding) => (isSeveral ? { ...finding, file: name } : finding)),
  );
  return JSON.stringify(all, null, 2);
}

export const formatReports = (reports: readonly Report[], format: Format, isColour = false): string =>
  format === 'json' ? formatJson(reports) : formatText(reports, isColour);
