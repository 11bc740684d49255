/**
 * A finding: one diagnostic of the product (same codes as the components where the rule is the
 * same, `validate-*` for validator-only rules) with a severity (src/wire/severity.ts) and a
 * source position.
 */
import { type Diagnostic, diagnostic } from '../src/wire/diagnostic.ts';
import { type Severity, severityOf } from '../src/wire/severity.ts';
import type { Position } from './html-tree.ts';

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
