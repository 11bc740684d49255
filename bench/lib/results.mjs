// Writes one part's result as JSON (`bench/results/<part>.json`, not committed) and Markdown
// (`bench/results/<part>.md`), and the run's `summary.md` with every part that ran.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { formatMarkdownTable } from './table.mjs';

export const RESULTS_DIR = 'bench/results';

export function describeMachine() {
  const cpu = cpus();
  return `${cpu.length} x ${cpu[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${process.platform}`;
}

export function formatPartMarkdown(result) {
  const header = [`## ${result.title}`, '', `${result.description}`, ''];
  return [...header, ...result.tables.map(formatMarkdownTable)].join('\n');
}

export function writePartResult(result, meta) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(join(RESULTS_DIR, `${result.part}.json`), JSON.stringify({ ...meta, ...result }, null, 2) + '\n');
  writeFileSync(join(RESULTS_DIR, `${result.part}.md`), formatPartMarkdown(result));
}

export function writeSummary(results, meta) {
  const lines = [
    '# Benchmark summary',
    '',
    `${meta.date}; ${meta.machine}; runs per variant: ${meta.runs}${meta.quick ? ' (--quick)' : ''}; duration ${meta.durationSeconds} s.`,
    'Cells are "median / p90" over the runs unless a column says otherwise. See bench/README.md for how to read each figure.',
    '',
    ...results.map(formatPartMarkdown),
  ];
  writeFileSync(join(RESULTS_DIR, 'summary.md'), lines.join('\n'));
}
