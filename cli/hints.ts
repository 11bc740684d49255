/**
 * The hint printed with each finding: the "How to fix" column of docs/errors.md, read from the
 * one table that documents every code (no second copy of the advice). Without the docs (an
 * install that left them out) findings simply carry no hint.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Finding } from './finding.ts';

const ERRORS_DOC = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'errors.md');

/** Code -> how to fix it, from the table rows `| \`code\` | meaning | how to fix |`. */
export function readHints(path: string = ERRORS_DOC): ReadonlyMap<string, string> {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return new Map();
  }
  const rows = text.split('\n').flatMap((line) => {
    const cells = line.split(/(?<!\\)\|/).map((cell) => cell.trim());
    const code = /^`([a-z0-9-]+)`$/.exec(cells[1] ?? '')?.[1];
    const hint = cells.at(-2);
    return code && hint && cells.length >= 5 ? [[code, hint.replaceAll('\\|', '|')] as const] : [];
  });
  return new Map(rows);
}

export const withHints = (findings: readonly Finding[], hints: ReadonlyMap<string, string>): Finding[] =>
  findings.map((finding) => {
    const hint = hints.get(finding.code);
    return hint === undefined ? finding : { ...finding, hint };
  });
