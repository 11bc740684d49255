/**
 * Audits one page: the no-decision journey first (it also takes the screenshot), then the reject
 * and accept journeys, one after the other, each in a fresh profile. A page that shows no prompt
 * has no reject or accept journey: the report says so instead.
 */
import type { Browser } from 'playwright-core';
import { judgeJourney } from './judge.ts';
import { type JourneyName, type JourneyRecord, runJourney } from './journey.ts';
import { type AuditReport, SCHEMA_VERSION } from './report.ts';
import { siteOf } from './sites.ts';

export type AuditSettings = {
  readonly pages: number;
  readonly allow: readonly string[];
  /** How long a prompt may take to show after the network settled (a remote check, say). */
  readonly promptWaitMs?: number;
};

export type AuditResult = { readonly report: AuditReport; readonly screenshot: Buffer | null };

const notRun = (name: JourneyName, reason: string, first: JourneyRecord): JourneyRecord => ({
  ...first,
  name,
  notRun: reason,
  decidedBy: null,
  visits: [],
  requests: [],
  records: [],
  jarAtDecision: [],
  jarAtEnd: [],
  expectations: null,
  screenshot: null,
});

export async function auditPage(browser: Browser, target: URL, settings: AuditSettings): Promise<AuditResult> {
  const started = Date.now();
  const options = { pages: settings.pages, promptWaitMs: settings.promptWaitMs ?? 2_000 };
  const first = await runJourney(browser, 'no-decision', target, { ...options, isScreenshot: true });
  const records = [first];
  for (const name of ['reject', 'accept'] as const) {
    const reason = first.notRun ?? (first.isPromptShown ? null : 'no prompt shown');
    records.push(reason ? notRun(name, reason, first) : await runJourney(browser, name, target, { ...options, isScreenshot: false }));
  }
  const site = siteOf(target.href) ?? 'file:';
  const journeys = records.map((record) => judgeJourney(record, site, settings.allow));
  const report: AuditReport = {
    schemaVersion: SCHEMA_VERSION,
    url: target.href,
    site,
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    options: { pages: settings.pages, allow: settings.allow },
    isPromptShown: first.isPromptShown,
    fairChoice: first.fairChoice,
    findingCount: journeys.reduce((sum, journey) => sum + journey.findings.length, 0),
    journeys,
    screenshot: null,
  };
  return { report, screenshot: first.screenshot };
}

/** 1 when the audit found a leak or could not open the page, else 0. */
export const exitCodeOf = (report: AuditReport): number =>
  report.findingCount > 0 || report.journeys[0]?.reason?.startsWith('page unreachable') ? 1 : 0;
