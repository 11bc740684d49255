/**
 * Which of the audit's rules ran on a page and how each came out (docs/validator.md, "Audit a
 * live page"), so that a report says "checked and fine" apart from "not checked": the three
 * leak rules over the journeys that ran, the fair-choice rule on the shown prompt, the prompt's
 * accessibility (axe-core and the keyboard walk), the vendors' view (the strings), the tags of
 * known vendors against the TC string, and the GPC notice (the GPC visit). Pure.
 */
import type { AuditReport } from './report.ts';

export type RuleOutcome = {
  readonly code: string;
  /** What the rule checks, for a reader. */
  readonly name: string;
  readonly status: 'passed' | 'failed' | 'not-run';
  /** The findings or warnings, where it ran and the journeys it ran in, or why it did not run. */
  readonly detail: string;
};

const LEAK_RULES = [
  ['audit-third-party-request', 'third-party requests'],
  ['audit-third-party-cookie', 'third-party cookies'],
  ['audit-third-party-storage', 'third-party storage'],
] as const;

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

function fairChoiceOutcome(report: AuditReport): RuleOutcome {
  const rule = { code: 'audit-unfair-choice', name: 'fair choice' };
  const problems = report.fairChoice;
  if (!report.isPromptShown) return { ...rule, status: 'not-run', detail: 'no prompt shown' };
  if (problems === null)
    return { ...rule, status: 'not-run', detail: "the prompt's accept and reject controls were not both found" };
  if (problems.length) return { ...rule, status: 'failed', detail: plural(problems.length, 'warning') };
  return { ...rule, status: 'passed', detail: 'reject as prominent as accept' };
}

export const GPC_NOTICE_CODE = 'audit-gpc-notice-missing';
/** The GPC notice's warning, where the GPC visit saw the opt-out honoured without it. */
export const GPC_NOTICE_WARNING =
  'expected a visible "Opt-out request honored" while page-consent-gpc-honored is on, got none';

/** Whether the GPC visit saw the opt-out honoured without its notice: the warning `audit-gpc-notice-missing`. */
export const isGpcNoticeMissing = (report: Pick<AuditReport, 'gpc'>): boolean =>
  !!report.gpc?.honored && !report.gpc.noticeShown;

function gpcOutcome(report: AuditReport): RuleOutcome {
  const rule = { code: GPC_NOTICE_CODE, name: 'GPC notice' };
  const { gpc } = report;
  if (!gpc) {
    const first = report.journeys[0];
    const reason =
      report.gpcNotRun ??
      (first?.status === 'not-run' ? first.reason : null) ??
      'the page is not set up for US readers';
    return { ...rule, status: 'not-run', detail: reason };
  }
  if (!gpc.honored)
    return {
      ...rule,
      status: 'passed',
      detail: 'GPC not honoured on this visit (the reader may be outside the states that apply it)',
    };
  if (gpc.noticeShown) return { ...rule, status: 'passed', detail: 'GPC honoured, "Opt-out request honored" shown' };
  return { ...rule, status: 'failed', detail: '1 warning: GPC honoured without the notice' };
}

const PROMPT_CODES = [
  'audit-prompt-axe',
  'audit-prompt-unreachable',
  'audit-prompt-focus-escape',
  'audit-prompt-focus-lost',
];
const STRING_CODES = [
  'audit-string-overgrant',
  'audit-tc-no-disclosed-vendors',
  'audit-tcfapi-late',
  'audit-tcloaded-late',
];

/** A rule over the journeys where `applies` holds: its findings by `codes`, or why it did not run. */
function groupOutcome(
  report: AuditReport,
  rule: { code: string; name: string },
  codes: readonly string[],
  applies: (journey: AuditReport['journeys'][number]) => boolean,
  notRun: string,
): RuleOutcome {
  const ran = report.journeys.filter((journey) => journey.status === 'run' && applies(journey));
  if (!ran.length) return { ...rule, status: 'not-run', detail: notRun };
  const names = ran.map((journey) => journey.name.replace('-', ' ')).join(', ');
  const count = ran.reduce(
    (sum, journey) => sum + journey.findings.filter((finding) => codes.includes(finding.code)).length,
    0,
  );
  return {
    ...rule,
    status: count ? 'failed' : 'passed',
    detail: `${count ? plural(count, 'finding') : 'none'} in ${names}`,
  };
}

export function rulesRun(report: AuditReport): RuleOutcome[] {
  const ran = report.journeys.filter((journey) => journey.status === 'run');
  const names = ran.map((journey) => journey.name.replace('-', ' ')).join(', ');
  const notRun = report.journeys[0]?.reason ?? 'no journey ran';
  const leaks = LEAK_RULES.map(([code, name]): RuleOutcome => {
    if (!ran.length) return { code, name, status: 'not-run', detail: notRun };
    const count = ran.reduce(
      (sum, journey) => sum + journey.findings.filter((finding) => finding.code === code).length,
      0,
    );
    return {
      code,
      name,
      status: count ? 'failed' : 'passed',
      detail: `${count ? plural(count, 'finding') : 'none'} in ${names}`,
    };
  });
  const prompt = groupOutcome(
    report,
    { code: 'audit-prompt-axe', name: 'prompt accessibility' },
    PROMPT_CODES,
    (journey) => !!journey.prompt,
    report.isPromptShown ? 'the prompt could not be checked' : 'no prompt shown',
  );
  const strings = groupOutcome(
    report,
    { code: 'audit-string-overgrant', name: 'consent strings' },
    STRING_CODES,
    (journey) =>
      !!journey.signals && (['tcf', 'gpp', 'usp'] as const).some((api) => journey.signals?.[api].status !== 'none'),
    'the page has no __tcfapi, __gpp or __uspapi',
  );
  const vendorTags = groupOutcome(
    report,
    { code: 'audit-vendor-not-allowed', name: "vendors' tags" },
    ['audit-vendor-not-allowed'],
    (journey) => !!journey.signals?.tcf.value,
    'the page published no TC string',
  );
  return [...leaks, fairChoiceOutcome(report), prompt, strings, vendorTags, gpcOutcome(report)];
}
