/**
 * A finding: one diagnostic of the product (same codes as the components where the rule is the
 * same, `validate-*` for validator-only rules) with a severity and a source position.
 */
import type { Diagnostic } from '../src/wire/diagnostic.ts';
import { diagnostic } from '../src/wire/diagnostic.ts';
import type { Position } from './html-tree.ts';

export type Severity = 'error' | 'warning';

export type Finding = {
  readonly severity: Severity;
  readonly code: string;
  /** `expected X, got Y`, as the components print it (wire parsers name the field in X). */
  readonly message: string;
  readonly line: number;
  readonly column: number;
  /** How to fix it (docs/errors.md), added when the findings are printed. */
  readonly hint?: string;
};

/**
 * Codes the components log as warnings (docs/errors.md): the page still works. Every other
 * code is an error.
 */
const WARNING_CODES: ReadonlySet<string> = new Set([
  'consent-field-invalid',
  'consent-policy-invalid',
  'consent-geo-instance-id',
  'consent-type-unknown',
  'consent-geo-missing',
  'geo-config-invalid',
  'geo-group-invalid',
  'geo-country-invalid',
  'auto-ads-not-first-child',
  'validate-script-not-async',
  'validate-stub-not-first',
  'consent-tcf-config-invalid',
  'consent-gpp-config-invalid',
  'validate-extension-unused',
  'validate-consent-layout',
  'validate-purpose-unknown',
  'validate-meta-tag-unknown',
  'validate-blocking-without-consent',
  'validate-auto-ads-nested',
  'validate-geo-group-unknown',
  'validate-ui-not-hidden',
  'validate-reject-missing',
  'validate-story-only-accept',
]);

export const severityOf = (code: string): Severity => (WARNING_CODES.has(code) ? 'warning' : 'error');

export function toFinding(d: Diagnostic, at: Position, severity: Severity = severityOf(d.code)): Finding {
  return { severity, code: d.code, message: `expected ${d.expected}, got ${d.got}`, ...at };
}

/** A finding built from its parts (validator-only rules). */
export function find(code: string, expected: string, got: unknown, at: Position): Finding {
  return toFinding(diagnostic(code, expected, got), at);
}

/** Findings sorted by position, each (code, message, position) once. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  const unique = new Map(findings.map((f) => [`${f.line}:${f.column}:${f.code}:${f.message}`, f]));
  return [...unique.values()].sort((a, b) => a.line - b.line || a.column - b.column);
}
