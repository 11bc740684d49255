/**
 * Which of the audit's rules ran on a page and how each came out (docs/validator.md, "Audit a
 * live page"), so that a report says "checked and fine" apart from "not checked": the three
 * leak rules over the journeys that ran, and the fair-choice rule on the shown prompt. Pure.
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
  return [...leaks, fairChoiceOutcome(report)];
}
