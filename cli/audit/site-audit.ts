/**
 * A site audit (`--audit --sitemap <url>`, docs/validator.md, "A site"): the sitemap's pages
 * (sitemap-pages.ts) audited one after the other, each in its own three journeys with its own
 * bounds (`--timeout` is per page) and without following links, the progress said on stderr
 * (progress.ts), then the site report: each page's report, the site summary, the cookie
 * declaration of every page once and, with `--compare`, what changed.
 */
import type { Browser } from 'playwright-core';
import type { CliIo } from '../cli-io.ts';
import { auditPage, exitCodeOf } from './audit-page.ts';
import { compareReports, type EarlierReport } from './compare.ts';
import { buildDeclaration } from './declaration.ts';
import type { AuditOptions } from './options.ts';
import { createProgress } from './progress.ts';
import { type AuditReport, type Comparison, SCHEMA_VERSION, type SiteReport } from './report.ts';
import type { SitemapPages } from './sitemap-pages.ts';
import { summarizeSite } from './site-summary.ts';

export async function auditSite(
  browser: Browser,
  found: SitemapPages,
  options: AuditOptions,
  context: { readonly io: CliIo; readonly earlier: EarlierReport | null },
): Promise<SiteReport> {
  const started = Date.now();
  const progress = createProgress(context.io, found.pages.length);
  const pages: AuditReport[] = [];
  for (const [index, url] of found.pages.entries()) {
    progress.start(index, url);
    const { report } = await auditPage(browser, new URL(url), { ...options, pages: 0 });
    pages.push({ ...report, summary: summarizeSite([report]) });
    progress.done(index, report);
  }
  progress.finish();
  const comparison: Comparison | null = context.earlier ? compareReports(context.earlier, pages) : null;
  return {
    schemaVersion: SCHEMA_VERSION,
    kind: 'site',
    sitemap: options.target.href,
    sitemaps: found.sitemaps,
    listed: found.listed,
    outside: found.outside,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    options: { ...(pages[0]?.options ?? emptyOptions(options)), pages: options.pages },
    findingCount: pages.reduce((sum, page) => sum + page.findingCount, 0),
    isIncomplete: pages.some((page) => page.incomplete !== null),
    summary: summarizeSite(pages),
    comparison,
    declaration: buildDeclaration(pages.flatMap((page) => page.journeys)),
    pages,
  };
}

const emptyOptions = (options: AuditOptions): AuditReport['options'] => ({
  pages: options.pages,
  allow: options.allow,
  allowPrivate: options.allowPrivate,
  timeoutMs: options.limits.timeoutMs,
  maxRecords: options.limits.maxRecords,
});

/** 3 when a bound stopped the audit of a page, 1 on a finding or a page that could not be opened, else 0. */
export function siteExitCode(report: SiteReport): number {
  const codes = report.pages.map(exitCodeOf);
  return codes.includes(3) ? 3 : codes.includes(1) ? 1 : 0;
}
