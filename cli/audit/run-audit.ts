/**
 * The audit mode of the CLI: parses its arguments, launches the browser, audits the page (or,
 * with `--sitemap`, the sitemap's pages: site-audit.ts) and prints the report in the chosen
 * format; with `--out DIR` it also writes `audit.txt`, `audit.json`, `audit.html` and (for one
 * page) `screenshot.png` there; with `--compare FILE` the report says what changed since that
 * earlier report. Exit code 1 on a finding (or a page that could not be opened, or a sitemap
 * that could not be read), 2 on bad usage or a `--compare` file that is not a report, 3 when a
 * bound stopped the audit (bounds.ts); a browser that cannot start, or has no sandbox without
 * `--audit-no-sandbox`, is one clear line.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { Diagnostic } from '../../src/wire/diagnostic.ts';
import type { CliIo } from '../cli-io.ts';
import { auditPage, exitCodeOf } from './audit-page.ts';
import { launchAuditBrowser, SandboxRefusal } from './browser.ts';
import { COMPARE_CODE, compareReports, type EarlierReport, parseEarlierReport } from './compare.ts';
import { formatDeclarationHtml } from './format-declaration.ts';
import { formatAuditHtml } from './format-html.ts';
import { formatSiteHtml, formatSiteText } from './format-site.ts';
import { formatAuditText } from './format-text.ts';
import { AUDIT_USAGE, type AuditOptions, parseAuditArguments } from './options.ts';
import type { AuditReport, SiteReport } from './report.ts';
import { auditSite, siteExitCode } from './site-audit.ts';
import { readSitemapPages, type SitemapPages } from './sitemap-pages.ts';
import { summarizeSite } from './site-summary.ts';
import { isSitemapRefusal } from './sitemap.ts';

export const SCREENSHOT_FILE = 'screenshot.png';
/** The largest `--compare` file read (a site report of many pages with every request). */
export const MAX_COMPARE_BYTES = 256 * 1024 * 1024;
export const SITEMAP_CODE = 'audit-sitemap-unreadable';

type Outputs = { text: string; json: string; html: string };

const diagnosticLine = (d: Pick<Diagnostic, 'code' | 'expected' | 'got'>) =>
  `page-validate --audit: ${d.code}: expected ${d.expected}, got ${d.got}\n`;

/** The `--compare` file as an earlier report, or its diagnostic. */
async function readEarlier(path: string): Promise<EarlierReport | Pick<Diagnostic, 'code' | 'expected' | 'got'>> {
  const expected = 'an audit report (JSON) to compare with';
  try {
    const { size } = await stat(path);
    if (size > MAX_COMPARE_BYTES) return { code: COMPARE_CODE, expected, got: `a file of ${size} bytes` };
    return parseEarlierReport(await readFile(path, 'utf8'));
  } catch (error) {
    return { code: COMPARE_CODE, expected, got: `${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}` };
  }
}

async function launch(options: AuditOptions, io: CliIo): Promise<Browser | null> {
  try {
    return await launchAuditBrowser({ isNoSandboxAllowed: options.isNoSandboxAllowed });
  } catch (error) {
    const message =
      error instanceof SandboxRefusal
        ? error.message
        : `the browser did not start: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    io.writeError(`page-validate --audit: ${message}\n`);
    return null;
  }
}

async function auditOnePage(browser: Browser, options: AuditOptions, earlier: EarlierReport | null) {
  const { report: audited, screenshot } = await auditPage(browser, options.target, options);
  const report: AuditReport = {
    ...audited,
    summary: summarizeSite([audited]),
    ...(earlier ? { comparison: compareReports(earlier, [audited]) } : {}),
  };
  const withFile: AuditReport = options.out && screenshot ? { ...report, screenshot: SCREENSHOT_FILE } : report;
  const outputs: Outputs = {
    text: formatAuditText(withFile),
    json: JSON.stringify(withFile, null, 2),
    html: formatAuditHtml(withFile, screenshot),
  };
  return { report, outputs, screenshot, code: exitCodeOf(report) };
}

function siteOutputs(report: SiteReport): Outputs {
  return { text: formatSiteText(report), json: JSON.stringify(report, null, 2), html: formatSiteHtml(report) };
}

/** `browser`: one to reuse (left open); without it the audit launches its own and closes it. */
export async function runAudit(args: readonly string[], io: CliIo, shared?: Browser): Promise<number> {
  const options = parseAuditArguments(args);
  if (!options) {
    io.writeError(`${AUDIT_USAGE}\n`);
    return 2;
  }
  const earlier = options.compare === null ? null : await readEarlier(options.compare);
  if (earlier && 'code' in earlier) {
    io.writeError(diagnosticLine(earlier));
    return 2;
  }
  let found: SitemapPages | null = null;
  if (options.isSitemap) {
    const read = await readSitemapPages(options.target, {
      maxPages: options.pages,
      allowPrivate: options.allowPrivate,
      ...(io.fetchOptions ? { fetchOptions: io.fetchOptions } : {}),
    });
    if (isSitemapRefusal(read)) {
      io.writeError(diagnosticLine({ code: SITEMAP_CODE, ...read }));
      return 1;
    }
    found = read;
  }
  const browser = shared ?? (await launch(options, io));
  if (!browser) return 1;
  try {
    let outputs: Outputs;
    let screenshot: Buffer | null = null;
    let declaration: Pick<AuditReport, 'url' | 'startedAt' | 'declaration'>;
    let code: number;
    if (found) {
      const report = await auditSite(browser, found, options, { io, earlier });
      ({ outputs, code } = { outputs: siteOutputs(report), code: siteExitCode(report) });
      declaration = { url: report.sitemap, startedAt: report.startedAt, declaration: report.declaration };
    } else {
      const page = await auditOnePage(browser, options, earlier);
      ({ outputs, screenshot, code } = page);
      declaration = page.report;
    }
    if (options.out) await writeOut(options.out, outputs, screenshot);
    if (options.declaration !== null) await writeFile(options.declaration, formatDeclarationHtml(declaration));
    io.write(`${outputs[options.format]}\n`);
    return code;
  } finally {
    if (!shared) await browser.close().catch(() => undefined);
  }
}

async function writeOut(out: string, outputs: Outputs, screenshot: Buffer | null): Promise<void> {
  await mkdir(out, { recursive: true });
  await Promise.all([
    writeFile(join(out, 'audit.txt'), `${outputs.text}\n`),
    writeFile(join(out, 'audit.json'), `${outputs.json}\n`),
    writeFile(join(out, 'audit.html'), outputs.html),
    ...(screenshot ? [writeFile(join(out, SCREENSHOT_FILE), screenshot)] : []),
  ]);
}
