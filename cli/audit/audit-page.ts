/**
 * Audits one page: the no-decision journey first (it also takes the screenshot), then the reject
 * and accept journeys, one after the other, each in a fresh profile. A page that shows no prompt
 * has no reject or accept journey: the report says so instead. On a page set up for US readers
 * the GPC visit (gpc-visit.ts) follows, in a fresh profile too. The audit's bounds (bounds.ts)
 * hold over all of them: once one trips, the run in progress stops and no other starts, and
 * the report says the audit is incomplete.
 */
import type { Browser } from 'playwright-core';
import { runGpcVisit } from './gpc-visit.ts';
import { type Bounds, createBounds, DEFAULT_LIMITS, type Limits, startDeadline } from './bounds.ts';
import { isSandboxed } from './browser.ts';
import { buildDeclaration } from './declaration.ts';
import { judgeJourney } from './judge.ts';
import { type JourneyName, type JourneyRecord, runJourney, stoppedJourney } from './journey.ts';
import { type AuditReport, SCHEMA_VERSION } from './report.ts';
import { siteOf } from './sites.ts';
import type { VendorHostTable } from './vendor-hosts.ts';

export type AuditSettings = {
  readonly pages: number;
  readonly allow: readonly string[];
  /** Loopback or private hosts the page may reach besides its own host and port (`--allow-private`). */
  readonly allowPrivate?: readonly string[];
  /** How long a prompt may take to show after the network settled (a remote check, say). */
  readonly promptWaitMs?: number;
  readonly limits?: Partial<Limits>;
  /** Hosts of TCF vendors for `audit-vendor-not-allowed` (vendor-hosts.ts); the built-in table when absent. */
  readonly vendorHosts?: VendorHostTable;
};

export type AuditResult = { readonly report: AuditReport; readonly screenshot: Buffer | null };

/** How long a journey may take to wind down once a bound tripped, before the audit goes on without it. */
const STOP_GRACE_MS = 5_000;

const notRun = (name: JourneyName, reason: string, first: JourneyRecord): JourneyRecord => ({
  ...first,
  name,
  notRun: reason,
  decidedBy: null,
  visits: [],
  requests: [],
  records: [],
  blocked: [],
  jarAtDecision: [],
  jarAtEnd: [],
  expectations: null,
  screenshot: null,
});

/** What `run` gives, or null once a bound tripped and the grace for it to wind down passed. */
async function bounded<T>(run: () => Promise<T>, bounds: Bounds): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe = () => {};
  const stopped = new Promise<null>((resolve) => {
    unsubscribe = bounds.onTrip(() => {
      timer = setTimeout(() => resolve(null), STOP_GRACE_MS);
    });
  });
  try {
    return await Promise.race([run(), stopped]);
  } finally {
    unsubscribe();
    clearTimeout(timer);
  }
}

/** The journey, or once a bound trips, its stopped record (after a grace for it to wind down). */
async function boundedJourney(
  run: () => Promise<JourneyRecord>,
  name: JourneyName,
  bounds: Bounds,
): Promise<JourneyRecord> {
  const record = await bounded(run, bounds);
  const tripped = bounds.tripped();
  if (record && !tripped) return record;
  return stoppedJourney(
    name,
    `stopped: ${tripped?.detail ?? 'unknown'}`,
    record ?? { visits: [], records: [], blocked: [] },
  );
}

/** The GPC visit where the page is set up for US readers: its view, or why it did not run; neither when not due. */
async function gpcOf(
  browser: Browser,
  target: URL,
  first: JourneyRecord,
  options: { allowPrivate: readonly string[]; promptWaitMs: number; bounds: Bounds },
): Promise<Pick<AuditReport, 'gpc' | 'gpcNotRun'>> {
  const expectations = first.expectations;
  if (!expectations?.isGpcVisitDue) return { gpc: null };
  const { bounds } = options;
  const before = bounds.tripped();
  if (before) return { gpc: null, gpcNotRun: `not started: ${before.detail}` };
  const visit = await bounded(
    () =>
      runGpcVisit(browser, target, {
        geoHash: expectations.usGeoHash,
        allowPrivate: options.allowPrivate,
        waitMs: options.promptWaitMs,
        bounds,
      }),
    bounds,
  );
  const tripped = bounds.tripped();
  if (tripped || !visit) return { gpc: null, gpcNotRun: `stopped: ${tripped?.detail ?? 'unknown'}` };
  return 'failure' in visit ? { gpc: null, gpcNotRun: visit.failure } : { gpc: visit };
}

export async function auditPage(browser: Browser, target: URL, settings: AuditSettings): Promise<AuditResult> {
  const started = Date.now();
  const limits: Limits = { ...DEFAULT_LIMITS, ...settings.limits };
  const bounds = createBounds(limits);
  const stopDeadline = startDeadline(bounds);
  const options = {
    pages: settings.pages,
    promptWaitMs: settings.promptWaitMs ?? 2_000,
    allowPrivate: settings.allowPrivate ?? [],
    bounds,
  };
  try {
    const first = await boundedJourney(
      () => runJourney(browser, 'no-decision', target, { ...options, isScreenshot: true }),
      'no-decision',
      bounds,
    );
    const records = [first];
    for (const name of ['reject', 'accept'] as const) {
      const tripped = bounds.tripped();
      const reason = tripped
        ? `not started: ${tripped.detail}`
        : (first.notRun ?? (first.isPromptShown ? null : 'no prompt shown'));
      records.push(
        reason
          ? notRun(name, reason, first)
          : await boundedJourney(
              () => runJourney(browser, name, target, { ...options, isScreenshot: false }),
              name,
              bounds,
            ),
      );
    }
    const gpc = await gpcOf(browser, target, first, options);
    const site = siteOf(target.href) ?? 'file:';
    const journeys = records.map((record) =>
      judgeJourney(record, {
        site,
        allow: settings.allow,
        ...(settings.vendorHosts ? { vendorHosts: settings.vendorHosts } : {}),
      }),
    );
    const tripped = bounds.tripped();
    const report: AuditReport = {
      schemaVersion: SCHEMA_VERSION,
      url: target.href,
      site,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      options: {
        pages: settings.pages,
        allow: settings.allow,
        allowPrivate: options.allowPrivate,
        timeoutMs: limits.timeoutMs,
        maxRecords: limits.maxRecords,
      },
      isSandboxed: isSandboxed(browser),
      incomplete: tripped,
      isPromptShown: first.isPromptShown,
      fairChoice: first.fairChoice,
      ...gpc,
      findingCount: journeys.reduce((sum, journey) => sum + journey.findings.length, 0),
      journeys,
      declaration: buildDeclaration(journeys),
      screenshot: null,
    };
    return { report, screenshot: first.screenshot };
  } finally {
    stopDeadline();
  }
}

/** The exit code: 3 when a bound stopped the audit, 1 when it found a leak or could not open the page, else 0. */
export const exitCodeOf = (report: AuditReport): number => {
  if (report.incomplete) return 3;
  return report.findingCount > 0 || report.journeys[0]?.reason?.startsWith('page unreachable') ? 1 : 0;
};
