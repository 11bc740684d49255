/**
 * The audit mode of the CLI: parses its arguments, launches the browser, audits the page and
 * prints the report in the chosen format; with `--out DIR` it also writes `audit.txt`,
 * `audit.json`, `audit.html` and `screenshot.png` there. Exit code 1 on a finding (or a page
 * that could not be opened), 2 on bad usage, 3 when a bound stopped the audit (bounds.ts); a
 * browser that cannot start, or has no sandbox without `--audit-no-sandbox`, is one clear line.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { CliIo } from '../cli-io.ts';
import { auditPage, exitCodeOf } from './audit-page.ts';
import { launchAuditBrowser, SandboxRefusal } from './browser.ts';
import { formatDeclarationHtml } from './format-declaration.ts';
import { formatAuditHtml } from './format-html.ts';
import { formatAuditText } from './format-text.ts';
import { AUDIT_USAGE, parseAuditArguments } from './options.ts';
import type { AuditReport } from './report.ts';

export const SCREENSHOT_FILE = 'screenshot.png';

function formatAll(report: AuditReport, screenshot: Buffer | null) {
  return {
    text: formatAuditText(report),
    json: JSON.stringify(report, null, 2),
    html: formatAuditHtml(report, screenshot),
  };
}

/** `browser`: one to reuse (left open); without it the audit launches its own and closes it. */
export async function runAudit(args: readonly string[], io: CliIo, shared?: Browser): Promise<number> {
  const options = parseAuditArguments(args);
  if (!options) {
    io.writeError(`${AUDIT_USAGE}\n`);
    return 2;
  }
  let browser: Browser;
  try {
    browser = shared ?? (await launchAuditBrowser({ isNoSandboxAllowed: options.isNoSandboxAllowed }));
  } catch (error) {
    const message =
      error instanceof SandboxRefusal
        ? error.message
        : `the browser did not start: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    io.writeError(`page-validate --audit: ${message}\n`);
    return 1;
  }
  try {
    const { report, screenshot } = await auditPage(browser, options.target, options);
    const withFile: AuditReport = options.out && screenshot ? { ...report, screenshot: SCREENSHOT_FILE } : report;
    const outputs = formatAll(withFile, screenshot);
    if (options.out) {
      await mkdir(options.out, { recursive: true });
      await Promise.all([
        writeFile(join(options.out, 'audit.txt'), `${outputs.text}\n`),
        writeFile(join(options.out, 'audit.json'), `${outputs.json}\n`),
        writeFile(join(options.out, 'audit.html'), outputs.html),
        ...(screenshot ? [writeFile(join(options.out, SCREENSHOT_FILE), screenshot)] : []),
      ]);
    }
    if (options.declaration !== null) await writeFile(options.declaration, formatDeclarationHtml(report));
    io.write(`${outputs[options.format]}\n`);
    return exitCodeOf(report);
  } finally {
    if (!shared) await browser.close().catch(() => undefined);
  }
}
