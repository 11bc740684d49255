import { describe, expect, it } from 'vitest';
import { formatAuditText } from '../../../cli/audit/format-text.ts';
import { type AuditFinding, type AuditReport, type JourneyReport, SCHEMA_VERSION } from '../../../cli/audit/report.ts';
import { rulesRun } from '../../../cli/audit/rules-run.ts';

const journey = (name: JourneyReport['name'], findings: AuditFinding[] = []): JourneyReport => ({
  name,
  status: 'run',
  reason: null,
  decidedBy: null,
  decisionAt: '2026-01-01T00:00:00.000Z',
  pages: [],
  findings,
  allowed: [],
  requests: [],
  cookies: [],
  refusedCookies: [],
  storage: [],
  built: [],
  blocked: [],
});
const cookie = {
  code: 'audit-third-party-cookie',
  subject: 'cookie',
  phase: 'before',
  t: 0,
  what: 'id (t.example)',
  message: 'm',
  initiator: { chain: [], tag: { kind: 'other', url: null } },
  hint: 'h',
} as const;
const report = (changes: Partial<AuditReport> = {}): AuditReport => ({
  schemaVersion: SCHEMA_VERSION,
  url: 'https://news.example/',
  site: 'news.example',
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1000,
  options: { pages: 0, allow: [], allowPrivate: [], timeoutMs: 120_000, maxRecords: 10_000 },
  isSandboxed: true,
  incomplete: null,
  isPromptShown: true,
  fairChoice: [],
  findingCount: 0,
  journeys: [journey('no-decision'), journey('reject'), journey('accept')],
  declaration: [],
  screenshot: null,
  ...changes,
});

describe('rulesRun', () => {
  it('says every rule passed on a clean page, with the journeys it ran in', () => {
    expect(rulesRun(report()).map(({ name, status, detail }) => `${name}: ${status} (${detail})`)).toEqual([
      'third-party requests: passed (none in no decision, reject, accept)',
      'third-party cookies: passed (none in no decision, reject, accept)',
      'third-party storage: passed (none in no decision, reject, accept)',
      'fair choice: passed (reject as prominent as accept)',
      'prompt accessibility: not-run (the prompt could not be checked)',
      'consent strings: not-run (the page has no __tcfapi, __gpp or __uspapi)',
      "vendors' tags: not-run (the page published no TC string)",
    ]);
  });

  it('counts the findings of each rule and the fair-choice warnings', () => {
    const outcomes = rulesRun(
      report({
        fairChoice: ['size: x', 'color: y'],
        journeys: [journey('no-decision', [cookie]), journey('reject', [cookie]), journey('accept')],
      }),
    );
    expect(outcomes.map(({ status }) => status)).toEqual([
      'passed',
      'failed',
      'passed',
      'failed',
      'not-run',
      'not-run',
      'not-run',
    ]);
    expect(outcomes[1]?.detail).toBe('2 findings in no decision, reject, accept');
    expect(outcomes[3]?.detail).toBe('2 warnings');
  });

  it('tells a rule that did not run from one that passed: no prompt, controls not found, page unreachable', () => {
    const noPrompt = { ...journey('reject'), status: 'not-run' as const, reason: 'no prompt shown' };
    expect(
      rulesRun(
        report({
          isPromptShown: false,
          fairChoice: null,
          journeys: [journey('no-decision'), noPrompt, { ...noPrompt, name: 'accept' }],
        }),
      ).map(({ status, detail }) => `${status} (${detail})`),
    ).toEqual([
      'passed (none in no decision)',
      'passed (none in no decision)',
      'passed (none in no decision)',
      'not-run (no prompt shown)',
      'not-run (no prompt shown)',
      'not-run (the page has no __tcfapi, __gpp or __uspapi)',
      'not-run (the page published no TC string)',
    ]);
    expect(rulesRun(report({ fairChoice: null }))[3]).toMatchObject({
      status: 'not-run',
      detail: "the prompt's accept and reject controls were not both found",
    });
    const unreachable = { ...journey('no-decision'), status: 'not-run' as const, reason: 'page unreachable: HTTP 404' };
    expect(
      rulesRun(report({ isPromptShown: false, fairChoice: null, journeys: [unreachable] })).map(
        ({ status, detail }) => `${status} (${detail})`,
      ),
    ).toEqual([
      'not-run (page unreachable: HTTP 404)',
      'not-run (page unreachable: HTTP 404)',
      'not-run (page unreachable: HTTP 404)',
      'not-run (no prompt shown)',
      'not-run (no prompt shown)',
      'not-run (the page has no __tcfapi, __gpp or __uspapi)',
      'not-run (the page published no TC string)',
    ]);
  });

  it("runs the vendors' tags rule where a TC string was read, and fails it on a vendor's tag without consent", () => {
    const tcf = { status: 'read', detail: null, value: { tcString: 'CQ' } } as unknown as NonNullable<
      JourneyReport['signals']
    >['tcf'];
    const none = { status: 'none', detail: null, value: null } as const;
    const signals = { tcfFirstAnswerMs: 10, tcLoadedMs: 20, tcf, gpp: none, usp: none, prebid: [] };
    const vendor = { ...cookie, code: 'audit-vendor-not-allowed', subject: 'request', phase: 'after' } as const;
    const outcomes = rulesRun(
      report({
        journeys: [
          journey('no-decision'),
          { ...journey('reject'), signals },
          { ...journey('accept', [vendor]), signals },
        ],
      }),
    );
    expect(outcomes.at(-1)).toEqual({
      code: 'audit-vendor-not-allowed',
      name: "vendors' tags",
      status: 'failed',
      detail: '1 finding in reject, accept',
    });
  });

  it('prints the rules in the text report, a clean page included, the fair-choice warnings under their rule', () => {
    expect(formatAuditText(report())).toContain(
      'rules:\n  third-party requests: passed (none in no decision, reject, accept)\n  third-party cookies: passed',
    );
    expect(formatAuditText(report())).toContain('\n  fair choice: passed (reject as prominent as accept)\n');
    expect(formatAuditText(report({ fairChoice: ['size: x'] }))).toContain(
      '\n  fair choice: failed (1 warning)\n    audit-unfair-choice: size: x\n',
    );
    expect(formatAuditText(report({ isPromptShown: false, fairChoice: null }))).toContain(
      '\n  fair choice: not run (no prompt shown)\n',
    );
  });
});
