/**
 * The site summary of an audit (docs/validator.md, "A site"): over one or more page reports,
 * each rule's findings and the pages they were found on, the pages counted once. A finding's
 * page is the page the journey was on (`page`), else its report's URL (reports written before
 * findings carried it). Pure.
 */
import type { AuditFinding, AuditReport, SiteSummary } from './report.ts';

/** Each finding of a report with the page it belongs to. */
export function findingsByPage(report: AuditReport): { readonly page: string; readonly finding: AuditFinding }[] {
  return report.journeys.flatMap((journey) =>
    journey.findings.map((finding) => ({ page: finding.page ?? report.url, finding })),
  );
}

export function summarizeSite(reports: readonly AuditReport[]): SiteSummary {
  const pages = new Set(reports.flatMap((report) => [report.url, ...report.journeys.flatMap(({ pages }) => pages)]));
  const byRule = new Map<string, { findings: number; pages: Set<string> }>();
  const affected = new Set<string>();
  for (const { page, finding } of reports.flatMap(findingsByPage)) {
    const entry = byRule.get(finding.code) ?? { findings: 0, pages: new Set<string>() };
    entry.findings += 1;
    entry.pages.add(page);
    byRule.set(finding.code, entry);
    affected.add(page);
  }
  const rules = [...byRule.entries()]
    .map(([code, entry]) => ({ code, findings: entry.findings, pages: [...entry.pages] }))
    .sort((a, b) => b.findings - a.findings || a.code.localeCompare(b.code));
  return {
    pages: pages.size,
    pagesWithFindings: affected.size,
    findingCount: rules.reduce((sum, rule) => sum + rule.findings, 0),
    rules,
  };
}

/** The summary as text lines: one per rule, its pages under it. */
export function summaryLines(summary: SiteSummary): string[] {
  return [
    `site summary: ${summary.findingCount} finding(s) on ${summary.pagesWithFindings} of ${summary.pages} page(s)`,
    ...summary.rules.flatMap((rule) => [
      `  ${rule.code}: ${rule.findings} finding(s) on ${rule.pages.length} page(s)`,
      ...rule.pages.map((page) => `    ${page}`),
    ]),
  ];
}
