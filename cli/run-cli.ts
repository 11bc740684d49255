/**
 * `page-validate <file.html | http(s) URL | -> [--ads-config config.json] [--format text|json]`:
 * validates, prints the findings, and returns the exit code (1 on any error, 2 on bad usage; 0
 * after `--help`, which prints the usage to stdout).
 * `page-validate --audit <url> ...` runs the page audit instead (cli/audit/run-audit.ts).
 */
import { readFile } from 'node:fs/promises';
import { find } from './finding.ts';
import { type Format, formatReports, type Report } from './format-findings.ts';
import { readHints, withHints } from './hints.ts';
import type { CliIo } from './cli-io.ts';
import { describeReadError, readSource } from './read-source.ts';
import { validateAdsConfig } from './validate-ads-config.ts';
import { validatePage } from './validate-page.ts';

export const USAGE =
  'usage: page-validate <file.html | http(s) URL | -> [--ads-config config.json] [--format text|json]\n       page-validate --audit <http(s) URL | file.html> [--pages N] [--format text|json|html] [--out DIR] [--allow host ...]\n       page-validate --audit --sitemap <http(s) URL> [--pages N] [--compare previous.json] [...]';

type Options = { readonly target?: string; readonly adsConfig?: string; readonly format: Format };

/** The options, or null when the arguments are not a valid invocation. */
export function parseArguments(args: readonly string[]): Options | null {
  let options: { target?: string; adsConfig?: string; format: Format } = { format: 'text' };
  for (let index = 0; index < args.length; index += 1) {
    const [flag, inline] = (args[index] ?? '').split(/=(.*)/s, 2);
    const value = () => inline ?? args[(index += 1)];
    if (flag === '--format') {
      const format = value();
      if (format !== 'text' && format !== 'json') return null;
      options = { ...options, format };
    } else if (flag === '--ads-config') {
      const path = value();
      if (!path) return null;
      options = { ...options, adsConfig: path };
    } else if (options.target === undefined && (flag === '-' || !flag?.startsWith('-')))
      options = { ...options, target: args[index] ?? '' };
    else return null;
  }
  return options.target === undefined && options.adsConfig === undefined ? null : options;
}

const unreadable = (name: string, error: unknown): Report => ({
  name,
  findings: [
    find('validate-input-unreadable', 'a readable page or config', describeReadError(error), { line: 1, column: 1 }),
  ],
});

async function checkPage(target: string, io: CliIo): Promise<Report> {
  try {
    const source = await readSource(target, io.stdin, io.fetchOptions);
    return { name: source.name, findings: validatePage(source.text, source.baseUrl) };
  } catch (error) {
    return unreadable(target === '-' ? '<stdin>' : target, error);
  }
}

async function checkAdsConfig(path: string): Promise<Report> {
  try {
    return { name: path, findings: validateAdsConfig(await readFile(path, 'utf8')) };
  } catch (error) {
    return unreadable(path, error);
  }
}

/** What `--help` prints after the usage lines (docs/validator.md has the rest). */
const HELP =
  'Checks a page (file, URL, or - for stdin) and an auto-ads config; exits 0 with no error, 1 on errors, 2 on bad usage.\n' +
  '--audit loads a live page in Chromium and reports its requests before a decision, after accept and after reject;\n' +
  'with --sitemap it audits the pages of a sitemap and sums up the site; --compare says what changed since an earlier report.\n' +
  'Reference: docs/validator.md.';

export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  if (args.some((arg) => arg === '--help' || arg === '-h')) {
    io.write(`${USAGE}\n\n${HELP}\n`);
    return 0;
  }
  // The page audit (docs/validator.md, "Audit a live page") loads the browser only when asked for.
  if (args.some((arg) => arg === '--audit' || arg.startsWith('--audit=')))
    return (await import('./audit/run-audit.ts')).runAudit(args, io);
  const options = parseArguments(args);
  if (!options) {
    io.writeError(`${USAGE}\n`);
    return 2;
  }
  const reports: Report[] = [];
  if (options.target !== undefined) reports.push(await checkPage(options.target, io));
  if (options.adsConfig !== undefined) reports.push(await checkAdsConfig(options.adsConfig));
  const hints = readHints();
  const hinted = reports.map(({ name, findings }) => ({ name, findings: withHints(findings, hints) }));
  io.write(`${formatReports(hinted, options.format, io.isColour === true)}\n`);
  return reports.some(({ findings }) => findings.some(({ severity }) => severity === 'error')) ? 1 : 0;
}
