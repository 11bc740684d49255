/**
 * The site audit's text and HTML (docs/validator.md, "A site"): the sitemap and its pages, the
 * site summary (findings by rule, pages affected), with `--compare` what is new, gone and
 * changed per page and rule, then each page in short: its findings, one line each. The summary
 * and comparison blocks are also used by a one-page report (format-text.ts, format-html.ts).
 */
import type { AuditReport, ComparedRule, Comparison, SiteReport, SiteSummary } from './report.ts';
import { summaryLines } from './site-summary.ts';
import { escapeHtml as e } from './timeline-svg.ts';

const ruleText = (rule: ComparedRule) => {
  const subjects = [...rule.added.map((subject) => `+ ${subject}`), ...rule.removed.map((subject) => `- ${subject}`)];
  return `${rule.code} on ${rule.page}: ${rule.before} -> ${rule.now}${subjects.length ? ` (${subjects.join(', ')})` : ''}`;
};

export function comparisonLines(comparison: Comparison): string[] {
  const since = comparison.previousStartedAt ? ` of ${comparison.previousStartedAt}` : '';
  const block = (title: string, rules: readonly ComparedRule[]) =>
    rules.length ? [`  ${title}:`, ...rules.map((rule) => `    ${ruleText(rule)}`)] : [];
  return [
    `compared with the audit${since}: ${comparison.new.length} new, ${comparison.gone.length} gone, ${comparison.changed.length} changed, ${comparison.unchanged} unchanged (page and rule)`,
    ...block('new', comparison.new),
    ...block('gone', comparison.gone),
    ...block('changed', comparison.changed),
    ...comparison.pagesOnlyBefore.map((page) => `  audited before only: ${page}`),
    ...comparison.pagesOnlyNow.map((page) => `  audited now only: ${page}`),
  ];
}

const pageLine = (report: AuditReport) =>
  `${report.url}: ${report.findingCount} finding(s)${report.incomplete ? `, incomplete (${report.incomplete.bound} bound)` : ''}${report.journeys[0]?.status === 'not-run' ? ` (${report.journeys[0].reason ?? 'not run'})` : ''}`;

export function formatSiteText(report: SiteReport): string {
  return [
    `site audit of ${report.sitemap}: ${report.pages.length} page(s) of ${report.listed} listed${report.outside ? ` (${report.outside} on other origins left out)` : ''}, ${(report.durationMs / 1000).toFixed(1)} s`,
    ...summaryLines(report.summary),
    ...(report.comparison ? comparisonLines(report.comparison) : []),
    'pages:',
    ...report.pages.flatMap((page) => [
      `  ${pageLine(page)}`,
      ...page.journeys.flatMap((journey) =>
        journey.findings.map((finding) => `    ${journey.name} ${finding.code}: ${finding.message}`),
      ),
    ]),
    `${report.sitemap}: ${report.findingCount} finding(s) on ${report.summary.pagesWithFindings} of ${report.pages.length} page(s)${report.isIncomplete ? ', incomplete' : ''}`,
  ].join('\n');
}

function table(caption: string, headers: readonly string[], rows: readonly (readonly string[])[]): string {
  if (!rows.length) return `<p>${e(caption)}: none.</p>`;
  const head = headers.map((header) => `<th scope="col">${e(header)}</th>`).join('');
  const body = rows.map((row) => `<tr>${row.map((cell) => `<td>${e(cell)}</td>`).join('')}</tr>`).join('\n');
  return `<table><caption>${e(caption)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

export const summaryHtml = (summary: SiteSummary): string =>
  `<section aria-labelledby="summary"><h2 id="summary">Site summary</h2><p>${summary.findingCount} finding(s) on ${summary.pagesWithFindings} of ${summary.pages} page(s).</p>${table(
    'Findings by rule',
    ['Rule', 'Findings', 'Pages affected'],
    summary.rules.map((rule) => [rule.code, String(rule.findings), rule.pages.join('\n')]),
  )}</section>`;

export function comparisonHtml(comparison: Comparison): string {
  const rows = (rules: readonly ComparedRule[]) =>
    rules.map((rule) => [
      rule.page,
      rule.code,
      `${rule.before} → ${rule.now}`,
      [...rule.added.map((s) => `+ ${s}`), ...rule.removed.map((s) => `- ${s}`)].join('\n'),
    ]);
  const headers = ['Page', 'Rule', 'Findings before → now', 'Subjects'];
  return `<section aria-labelledby="compare"><h2 id="compare">Since the audit${comparison.previousStartedAt ? ` of ${e(comparison.previousStartedAt)}` : ''}</h2><p>${comparison.unchanged} page and rule pair(s) unchanged.</p>${table('New', headers, rows(comparison.new))}${table('Gone', headers, rows(comparison.gone))}${table('Changed', headers, rows(comparison.changed))}${table(
    'Pages audited only once',
    ['Page', 'When'],
    [
      ...comparison.pagesOnlyBefore.map((page) => [page, 'before only']),
      ...comparison.pagesOnlyNow.map((page) => [page, 'now only']),
    ],
  )}</section>`;
}

export function formatSiteHtml(report: SiteReport): string {
  const pages = report.pages.map(
    (page, index) =>
      `<section aria-labelledby="p${index}"><h3 id="p${index}"><code>${e(page.url)}</code></h3><p>${e(pageLine(page))}</p>${
        page.findingCount
          ? `<ul>${page.journeys.flatMap((journey) => journey.findings.map((finding) => `<li>${e(journey.name)}: <strong>${e(finding.code)}</strong>: ${e(finding.message)}</li>`)).join('')}</ul>`
          : ''
      }</section>`,
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Site audit: ${e(report.sitemap)}</title><style>body{font:15px/1.5 system-ui,sans-serif;color:#202124;margin:0 auto;max-width:72rem;padding:1rem}table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}th,td{border:1px solid #c4c7c5;padding:.25rem .5rem;text-align:left;vertical-align:top;word-break:break-all;white-space:pre-line}caption{text-align:left;font-weight:600}code{word-break:break-all}</style></head><body><main>
<h1>Site audit of <code>${e(report.sitemap)}</code></h1>
<p>Started ${e(report.startedAt)}; ${(report.durationMs / 1000).toFixed(1)} s; ${report.pages.length} page(s) of ${report.listed} listed${report.outside ? `, ${report.outside} on other origins left out` : ''}${report.isIncomplete ? '; a bound stopped the audit of a page, its report is partial' : ''}.</p>
${summaryHtml(report.summary)}${report.comparison ? comparisonHtml(report.comparison) : ''}
<section aria-labelledby="pages"><h2 id="pages">Pages</h2>${pages.join('\n')}</section>
</main></body></html>
`;
}
