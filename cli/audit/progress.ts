/**
 * How a site audit (`--sitemap`) says how far it is, on stderr so that stdout keeps the report:
 * on a terminal one progress bar redrawn in place (`[#####-----] 3/10 <page>`), otherwise one
 * line per page once it is audited (`page 3/10 <page>: 2 findings, 12.4 s`), which a log keeps.
 */
import type { CliIo } from '../cli-io.ts';
import type { AuditReport } from './report.ts';

const BAR_WIDTH = 20;

export type Progress = {
  /** Page `index` (0-based) starts. */
  start(index: number, url: string): void;
  /** Page `index` is audited. */
  done(index: number, report: AuditReport): void;
  finish(): void;
};

/** The bar for `done` of `total` pages. */
export function progressBar(done: number, total: number): string {
  const filled = total > 0 ? Math.round((done / total) * BAR_WIDTH) : BAR_WIDTH;
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${done}/${total}`;
}

export function createProgress(io: CliIo, total: number): Progress {
  const columns = io.terminalColumns ?? 80;
  const draw = (text: string) => io.writeError(`\r${text.slice(0, columns - 1).padEnd(columns - 1)}`);
  if (io.isTerminal)
    return {
      start: (index, url) => draw(`${progressBar(index, total)} ${url}`),
      done: (index, report) => draw(`${progressBar(index + 1, total)} ${report.url}`),
      finish: () => io.writeError('\n'),
    };
  return {
    start: () => undefined,
    done: (index, report) => {
      const state = report.incomplete ? `, incomplete (${report.incomplete.bound} bound)` : '';
      const findings = `${report.findingCount} finding${report.findingCount === 1 ? '' : 's'}`;
      io.writeError(
        `page ${index + 1}/${total} ${report.url}: ${findings}${state}, ${(report.durationMs / 1000).toFixed(1)} s\n`,
      );
    },
    finish: () => undefined,
  };
}
