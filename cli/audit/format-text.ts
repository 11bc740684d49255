/**
 * The terminal report: whether the audit is incomplete (a bound stopped it) and whether the
 * browser ran without its sandbox; each rule and whether it passed, failed or did not run (the
 * fair-choice and GPC notice warnings under theirs), so a clean page reads as checked; one line per finding, grouped by journey, each followed by its
 * initiator chain and its hint, then the prompt's checks and the vendors' view (the strings
 * decoded, the Prebid table: format-signals.ts), then the `Set-Cookie` lines the browser refused (with its reasons)
 * and the requests the address guard blocked; then what `--allow`
 * covered, listed apart; where `--pages` followed links, the site summary (findings by rule,
 * pages affected); with `--compare`, what changed; then a summary line.
 */
import type { AuditFinding, AuditReport, JourneyReport } from './report.ts';
import { vendorsViewLines } from './format-signals.ts';
import { comparisonLines } from './format-site.ts';
import { summaryLines } from './site-summary.ts';
import { GPC_NOTICE_CODE, GPC_NOTICE_WARNING, isGpcNoticeMissing, rulesRun } from './rules-run.ts';

const TITLES: Record<JourneyReport['name'], string> = {
  'no-decision': 'no decision',
  reject: 'reject',
  accept: 'accept',
};
const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
export const seconds = (ms: number) => `${ms < 0 ? '-' : '+'}${(Math.abs(ms) / 1000).toFixed(1)} s`;

function findingLines(finding: AuditFinding): string[] {
  const { tag, chain } = finding.initiator;
  const tagText = tag.url === null ? `${tag.kind}` : `${tag.kind} ${tag.url}`;
  return [
    `  ${seconds(finding.t)} ${finding.code}: ${finding.message}`,
    `    initiator: ${chain.length ? chain.join(' <- ') : 'unknown'} (tag on the page: ${tagText})`,
    `    hint: ${finding.hint}`,
  ];
}

const blockedLines = (journey: JourneyReport) =>
  journey.blocked.map((item) => `  blocked: ${item.url} (${item.reason})`);
const refusedLines = (journey: JourneyReport) =>
  journey.refusedCookies.map(
    (item) =>
      `  refused cookie: ${item.name || '(no name)'} from ${item.source} (${item.reasons.join(', ') || 'no reason given'}): ${item.line}`,
  );

function journeyLines(journey: JourneyReport): string[] {
  const title = TITLES[journey.name];
  if (journey.status === 'not-run')
    return [`${title}: not run (${journey.reason ?? 'unknown reason'})`, ...blockedLines(journey)];
  const how = journey.decidedBy ? `, ${journey.decidedBy}` : '';
  return [
    `${title}: ${count(journey.findings.length, 'finding')}${how}`,
    ...journey.findings.flatMap(findingLines),
    ...vendorsViewLines(journey),
    ...refusedLines(journey),
    ...blockedLines(journey),
  ];
}

function warningLines(report: AuditReport): string[] {
  return [
    ...(report.incomplete
      ? [
          `incomplete: the ${report.incomplete.bound} bound stopped the audit (${report.incomplete.detail}); what follows is partial`,
        ]
      : []),
    ...(report.isSandboxed === false ? ['browser: without its sandbox (--audit-no-sandbox)'] : []),
  ];
}

/** The warnings a rule has under it: fair choice's problems, the GPC notice's. */
function warningsOf(report: AuditReport, code: string): string[] {
  if (code === 'audit-unfair-choice') return (report.fairChoice ?? []).map((problem) => `${code}: ${problem}`);
  return code === GPC_NOTICE_CODE && isGpcNoticeMissing(report) ? [`${code}: ${GPC_NOTICE_WARNING}`] : [];
}

/** Every rule, whether it passed, failed or did not run; the fair-choice and GPC warnings under their rule. */
function ruleLines(report: AuditReport): string[] {
  return [
    'rules:',
    ...rulesRun(report).flatMap(({ code, name, status, detail }) => [
      `  ${name}: ${status === 'not-run' ? 'not run' : status} (${detail})`,
      ...warningsOf(report, code).map((line) => `    ${line}`),
    ]),
  ];
}

export function formatAuditText(report: AuditReport): string {
  const allowed = report.journeys.flatMap((journey) =>
    journey.allowed.map((item) => `  ${TITLES[journey.name]}: ${item.subject} ${item.what} (--allow ${item.allow})`),
  );
  return [
    `audit of ${report.url} (site ${report.site}), ${(report.durationMs / 1000).toFixed(1)} s${report.isPromptShown ? '' : ', no prompt shown'}`,
    ...warningLines(report),
    ...ruleLines(report),
    ...report.journeys.flatMap(journeyLines),
    ...(allowed.length ? ['allowed by --allow (not findings):', ...allowed] : []),
    ...(report.summary && report.summary.pages > 1 ? summaryLines(report.summary) : []),
    ...(report.comparison ? comparisonLines(report.comparison) : []),
    `${report.url}: ${count(report.findingCount, 'finding')}${report.incomplete ? `, incomplete (${report.incomplete.bound} bound)` : ''}`,
  ].join('\n');
}
