/**
 * `page-validate --audit` as the e2e tests run it: `runAudit` with captured output, on the
 * test's browser, and the check of a JSON report against docs/audit-report.schema.json.
 */
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import type { Browser } from 'playwright-core';
import { runAudit } from '../../../cli/audit/run-audit.ts';

export type CliResult = { code: number; out: string; err: string };

/** Runs the audit with `args` on `browser` (its own browser when undefined); its exit code and output. */
export async function runAuditCli(args: string[], browser: Browser | undefined): Promise<CliResult> {
  let out = '';
  let err = '';
  const io = {
    stdin: (async function* () {})(),
    write: (text: string) => (out += text),
    writeError: (text: string) => (err += text),
  };
  const code = await runAudit(args, io, browser);
  return { code, out, err };
}

const isDateTime = (text: string) => /^\d{4}-\d\d-\d\dT/.test(text) && !Number.isNaN(Date.parse(text));
/** The report's schema: `validateReport(json)` is true for a report it describes (errors in `validateReport.errors`). */
export const validateReport = new Ajv2020({
  allErrors: true,
  strict: false,
  formats: { 'date-time': isDateTime },
}).compile(JSON.parse(readFileSync('docs/audit-report.schema.json', 'utf8')));
