/**
 * One journey of a reader with a fresh profile: open the page, look around, then no decision,
 * a reject or an accept, look around again, and follow up to `pages` same-site links. Records
 * the requests (network-log.ts), the page's reports (page-recorder.js) and the cookie jar at the
 * decision and at the end; judging is done elsewhere (judge.ts).
 */
import type { Browser, Cookie } from 'playwright-core';
import { guardNavigation } from './navigation-guard.ts';
import { type LoggedRequest, startNetworkLog } from './network-log.ts';
import { readExpectations, type PageExpectations } from './page-config.ts';
import { judgeShownPrompt } from './fair-choice.ts';
import { type Decision, decide, waitForPrompt } from './prompt.ts';
import { type PageRecord, RECORD_BINDING, recorderSource } from './recorder-script.ts';
import { lookAround, open } from './visit.ts';
import { followLinks } from './links.ts';
import { readPageRecord } from './page-records.ts';

export type JourneyName = 'no-decision' | 'reject' | 'accept';

export type JourneyRecord = {
  readonly name: JourneyName;
  /** Why the journey could not be run, or null. */
  readonly notRun: string | null;
  readonly isPromptShown: boolean;
  /** How the decision was made (or null). */
  readonly decidedBy: string | null;
  /** Epoch ms of the decision; in the no-decision journey, the moment the others decide. */
  readonly decisionAt: number;
  readonly visits: readonly { readonly url: string; readonly time: number }[];
  readonly requests: readonly LoggedRequest[];
  readonly records: readonly PageRecord[];
  readonly jarAtDecision: readonly Cookie[];
  readonly jarAtEnd: readonly Cookie[];
  readonly expectations: PageExpectations | null;
  readonly screenshot: Buffer | null;
  /** The fair-choice rule on the shown prompt (no-decision journey only): its problems, or null when not judged. */
  readonly fairChoice: readonly string[] | null;
};

export type JourneyOptions = { readonly pages: number; readonly isScreenshot: boolean; readonly promptWaitMs: number };

const DECISION_WAIT_MS = 5_000;

export async function runJourney(browser: Browser, name: JourneyName, target: URL, options: JourneyOptions): Promise<JourneyRecord> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const records: PageRecord[] = [];
  const visits: { url: string; time: number }[] = [];
  try {
    await context.exposeBinding(RECORD_BINDING, (_source, value: unknown) => {
      const record = readPageRecord(value);
      if (record) records.push(record);
    });
    await context.addInitScript({ content: recorderSource() });
    const page = await context.newPage();
    const session = await context.newCDPSession(page);
    const log = await startNetworkLog(session);
    const guard = await guardNavigation(session, target);
    const base = { name, visits, requests: log.requests, records, expectations: null, screenshot: null, decidedBy: null, isPromptShown: false, fairChoice: null };
    visits.push({ url: target.href, time: Date.now() });
    const visit = await open(page, target.href, guard);
    if ('failure' in visit) return { ...base, notRun: `page unreachable: ${visit.failure}`, decisionAt: Date.now(), jarAtDecision: [], jarAtEnd: [] };
    const expectations = readExpectations(visit.html, page.url());
    await lookAround(page, log);
    const isPromptShown = expectations.consentId !== null && (await waitForPrompt(page, options.promptWaitMs));
    const screenshot = options.isScreenshot ? await page.screenshot().catch(() => null) : null;
    const fairChoice = name === 'no-decision' && isPromptShown ? await judgeShownPrompt(page, expectations.consentId) : null;
    const jarAtDecision = await context.cookies();
    const decisionAt = Date.now();
    const done = { ...base, expectations, screenshot, isPromptShown, decisionAt, jarAtDecision, fairChoice };
    let decidedBy: string | null = null;
    if (name !== 'no-decision') {
      const finish = async (notRun: string) => ({ ...done, decidedBy, notRun, jarAtEnd: await context.cookies() });
      if (!isPromptShown) return finish('no prompt shown');
      decidedBy = await decide(page, expectations.consentId, name);
      if (decidedBy === null) return finish(`the prompt offers no ${name} action`);
      if (!(await waitForDecision(records, decisionAt, name))) return finish(`the ${name} did not take effect`);
      await lookAround(page, log);
    }
    await followLinks(page, options.pages, target, guard, log, visits);
    return { ...done, decidedBy, notRun: null, jarAtEnd: await context.cookies() };
  } catch (error) {
    // A page that crashes the tab or closes itself ends its journey with the reason, never the audit.
    const reason = `the browser failed: ${error instanceof Error ? (error.message.split('\n')[0] ?? error.name) : String(error)}`;
    return { name, notRun: reason, isPromptShown: false, decidedBy: null, decisionAt: Date.now(), visits, requests: [], records, jarAtDecision: [], jarAtEnd: [], expectations: null, screenshot: null, fairChoice: null };
  } finally {
    await context.close().catch(() => undefined);
  }
}

/** Waits for the `consent-change` to the decided state (the component applied it). */
async function waitForDecision(records: readonly PageRecord[], since: number, decision: Decision): Promise<boolean> {
  const state = decision === 'reject' ? 'rejected' : 'accepted';
  const deadline = Date.now() + DECISION_WAIT_MS;
  while (Date.now() < deadline) {
    if (records.some((record) => record.kind === 'consent-change' && record.key === state && record.time >= since - 1)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
