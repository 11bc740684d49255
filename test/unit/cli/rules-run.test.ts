import { describe, expect, it } from 'vitest';
import { formatAuditHtml } from '../../../cli/audit/format-html.ts';
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
      'GPC notice: not-run (the page is not set up for US readers)',
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
      'not-run (the page is not set up for US readers)',
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
      'not-run (page unreachable: HTTP 404)',
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
    expect(outcomes.at(-2)).toEqual({
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

describe('the GPC notice rule', () => {
  const gpcRule = (changes: Partial<AuditReport>) => rulesRun(report(changes)).at(-1);
  const WARNING =
    '    audit-gpc-notice-missing: expected a visible "Opt-out request honored" while page-consent-gpc-honored is on, got none';

  it('passes a page that honoured GPC and showed the notice, and one that did not honour it, saying so', () => {
    expect(gpcRule({ gpc: { honored: true, noticeShown: true } })).toMatchObject({
      code: 'audit-gpc-notice-missing',
      status: 'passed',
      detail: 'GPC honoured, "Opt-out request honored" shown',
    });
    expect(gpcRule({ gpc: { honored: false, noticeShown: false } })).toMatchObject({
      status: 'passed',
      detail: 'GPC not honoured on this visit (the reader may be outside the states that apply it)',
    });
  });

  it('fails a page that honoured GPC without the notice, with one warning that is not a finding', () => {
    expect(gpcRule({ gpc: { honored: true, noticeShown: false } })).toMatchObject({
      status: 'failed',
      detail: '1 warning: GPC honoured without the notice',
    });
    const text = formatAuditText(report({ gpc: { honored: true, noticeShown: false } }));
    expect(text).toContain(`\n  GPC notice: failed (1 warning: GPC honoured without the notice)\n${WARNING}\n`);
    expect(text).toContain('https://news.example/: 0 findings');
    expect(formatAuditText(report({ gpc: { honored: true, noticeShown: true } }))).not.toContain(
      'audit-gpc-notice-missing',
    );
  });

  it('says why the visit did not run: not set up for US readers, a stopped visit, an unreachable page', () => {
    expect(gpcRule({})?.detail).toBe('the page is not set up for US readers');
    expect(gpcRule({ gpc: null, gpcNotRun: 'stopped: the audit passed its deadline of 120 s' })).toMatchObject({
      status: 'not-run',
      detail: 'stopped: the audit passed its deadline of 120 s',
    });
    expect(formatAuditText(report({ gpc: null }))).toContain(
      '\n  GPC notice: not run (the page is not set up for US readers)\n',
    );
  });

  it('shows the visit in the HTML report, with the warning where the notice was missing', () => {
    const missing = formatAuditHtml(report({ gpc: { honored: true, noticeShown: false } }), null);
    expect(missing).toContain('<h2 id="gpc">Global Privacy Control</h2>');
    expect(missing).toContain('the notice "Opt-out request honored" was not shown');
    expect(missing).toContain('<p class="finding">audit-gpc-notice-missing: expected a visible');
    expect(missing).toContain('GPC notice: <strong>failed</strong>');
    const shown = formatAuditHtml(report({ gpc: { honored: true, noticeShown: true } }), null);
    expect(shown).toContain('was shown');
    expect(shown).not.toContain('audit-gpc-notice-missing');
    const notHonoured = formatAuditHtml(report({ gpc: { honored: false, noticeShown: false } }), null);
    expect(notHonoured).toContain('did not honour the opt-out on this visit');
    expect(formatAuditHtml(report({ gpc: null }), null)).not.toContain('id="gpc"');
  });
});
