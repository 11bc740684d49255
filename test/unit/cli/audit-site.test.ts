/**
 * The site audit's pure parts: the site summary (findings by rule, pages affected), `--compare`
 * (an earlier report read through the typed readers, one diagnostic when it is not one; new,
 * gone and changed per page and rule), the progress on a terminal and in a log, and the
 * `--sitemap`/`--compare` arguments.
 */
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { compareReports, parseEarlierReport } from '../../../cli/audit/compare.ts';
import { formatSiteText } from '../../../cli/audit/format-site.ts';
import { parseAuditArguments, SITEMAP_DEFAULT_PAGES } from '../../../cli/audit/options.ts';
import { createProgress, progressBar } from '../../../cli/audit/progress.ts';
import {
  type AuditFinding,
  type AuditReport,
  type JourneyReport,
  SCHEMA_VERSION,
  type SiteReport,
} from '../../../cli/audit/report.ts';
import { summarizeSite } from '../../../cli/audit/site-summary.ts';

const finding = (code: string, what: string, page?: string): AuditFinding => ({
  code,
  subject: 'request',
  phase: 'before',
  t: -100,
  what,
  message: `expected nothing, got ${what}`,
  initiator: { chain: [], tag: { kind: 'other', url: null } },
  hint: 'h',
  ...(page ? { page } : {}),
});

const journey = (name: JourneyReport['name'], findings: AuditFinding[], pages: string[] = []): JourneyReport => ({
  name,
  status: 'run',
  reason: null,
  decidedBy: null,
  decisionAt: '2026-01-01T00:00:00.000Z',
  pages,
  findings,
  allowed: [],
  requests: [],
  cookies: [],
  refusedCookies: [],
  storage: [],
  built: [],
  blocked: [],
});

const page = (url: string, findings: AuditFinding[], linked: string[] = []): AuditReport => ({
  schemaVersion: SCHEMA_VERSION,
  url,
  site: 'news.example',
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1000,
  options: { pages: 0, allow: [], allowPrivate: [], timeoutMs: 120_000, maxRecords: 10_000 },
  isSandboxed: true,
  incomplete: null,
  isPromptShown: true,
  fairChoice: [],
  findingCount: findings.length,
  journeys: [journey('no-decision', findings, [url, ...linked]), journey('reject', []), journey('accept', [])],
  declaration: [],
  screenshot: null,
});

const A = 'https://news.example/a';
const B = 'https://news.example/b';
const C = 'https://news.example/c';
const REQUEST = 'audit-third-party-request';
const COOKIE = 'audit-third-party-cookie';

describe('site-summary', () => {
  it('counts findings by rule and the pages each affects, most findings first', () => {
    const summary = summarizeSite([
      page(A, [
        finding(REQUEST, 'https://t.example/1'),
        finding(REQUEST, 'https://t.example/2'),
        finding(COOKIE, 'id'),
      ]),
      page(B, [finding(REQUEST, 'https://t.example/1')]),
      page(C, []),
    ]);
    expect(summary).toEqual({
      pages: 3,
      pagesWithFindings: 2,
      findingCount: 4,
      rules: [
        { code: REQUEST, findings: 3, pages: [A, B] },
        { code: COOKIE, findings: 1, pages: [A] },
      ],
    });
  });

  it("takes a finding's own page: the links --pages followed count as pages", () => {
    const summary = summarizeSite([page(A, [finding(REQUEST, 'https://t.example/1', B)], [B])]);
    expect(summary).toMatchObject({ pages: 2, pagesWithFindings: 1, rules: [{ pages: [B] }] });
  });
});

const site = (pages: AuditReport[]): SiteReport => ({
  schemaVersion: SCHEMA_VERSION,
  kind: 'site',
  sitemap: 'https://news.example/sitemap.xml',
  sitemaps: ['https://news.example/sitemap.xml'],
  listed: pages.length,
  outside: 0,
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1000,
  options: { pages: 10, allow: [], allowPrivate: [], timeoutMs: 120_000, maxRecords: 10_000 },
  findingCount: pages.reduce((sum, entry) => sum + entry.findingCount, 0),
  isIncomplete: false,
  summary: summarizeSite(pages),
  comparison: null,
  declaration: [],
  pages,
});

describe('compare', () => {
  const earlier = (report: unknown) => {
    const parsed = parseEarlierReport(JSON.stringify(report));
    if ('code' in parsed) throw new Error(`${parsed.expected}, got ${parsed.got}`);
    return parsed;
  };

  it('finds what is new, gone and changed per page and rule; a query string is no change', () => {
    const before = site([
      page(A, [finding(REQUEST, 'https://t.example/1?cb=1'), finding(COOKIE, 'id (t.example)')]),
      page(B, [finding(REQUEST, 'https://t.example/1')]),
      page(C, [finding(REQUEST, 'https://t.example/9')]),
    ]);
    const now = [
      page(A, [finding(REQUEST, 'https://t.example/1?cb=2'), finding('audit-tcfapi-late', '__tcfapi')]),
      page(B, [finding(REQUEST, 'https://t.example/1'), finding(REQUEST, 'https://u.example/2')]),
    ];
    const comparison = compareReports(earlier(before), now);
    expect(comparison.new).toEqual([
      { page: A, code: 'audit-tcfapi-late', before: 0, now: 1, added: ['__tcfapi'], removed: [] },
    ]);
    expect(comparison.gone).toEqual([
      { page: A, code: COOKIE, before: 1, now: 0, added: [], removed: ['id (t.example)'] },
    ]);
    expect(comparison.changed).toEqual([
      { page: B, code: REQUEST, before: 1, now: 2, added: ['https://u.example/2'], removed: [] },
    ]);
    expect(comparison.unchanged).toBe(1);
    // C was not audited again: its findings are not "gone", the page is listed apart.
    expect(comparison.pagesOnlyBefore).toEqual([C]);
    expect(comparison.previousStartedAt).toBe('2026-01-01T00:00:00.000Z');
    expect(formatSiteText({ ...site(now), comparison })).toContain(
      `compared with the audit of 2026-01-01T00:00:00.000Z: 1 new, 1 gone, 1 changed, 1 unchanged (page and rule)\n  new:\n    audit-tcfapi-late on ${A}: 0 -> 1 (+ __tcfapi)`,
    );
  });

  it('reads a one-page report as well as a site report', () => {
    const comparison = compareReports(earlier(page(A, [finding(REQUEST, 'https://t.example/1')])), [page(A, [])]);
    expect(comparison.gone).toHaveLength(1);
  });

  it('refuses what is not a report with one diagnostic that says what it got', () => {
    const cases: [string, string, string][] = [
      ['not json', 'an audit report (a JSON object)', 'text that is not JSON'],
      ['[1, 2]', 'an audit report (a JSON object)', '[1,2]'],
      ['{"schemaVersion": 2}', 'an audit report with schemaVersion 1', '2'],
      ['{"schemaVersion": 1}', 'url of an audit report', 'nothing'],
      ['{"schemaVersion": 1, "url": "x"}', 'journeys of an audit report', 'nothing'],
      [
        '{"schemaVersion": 1, "url": "x", "journeys": [{"findings": [{"code": "rm -rf", "what": "x"}]}]}',
        'journeys[0].findings[0].code: an audit-* code',
        '"rm -rf"',
      ],
      ['{"schemaVersion": 1, "kind": "site", "pages": []}', 'a site report with pages', '[]'],
      [
        '{"schemaVersion": 1, "kind": "site", "pages": [{"url": "x"}]}',
        'pages[0].journeys of an audit report',
        'nothing',
      ],
    ];
    for (const [text, expected, got] of cases)
      expect(parseEarlierReport(text), text).toMatchObject({ code: 'audit-compare-invalid', expected, got });
  });
});

describe('progress', () => {
  const io = (isTerminal: boolean) => {
    const lines: string[] = [];
    return {
      lines,
      io: {
        stdin: (async function* () {})(),
        write: () => undefined,
        writeError: (text: string) => lines.push(text),
        isTerminal,
        terminalColumns: 60,
      },
    };
  };

  it('draws one bar in place on a terminal', () => {
    const { lines, io: terminal } = io(true);
    const progress = createProgress(terminal, 4);
    progress.start(0, A);
    progress.done(0, page(A, []));
    progress.finish();
    expect(lines[0]).toBe(`\r${`[--------------------] 0/4 ${A}`.padEnd(59)}`);
    expect(lines[1]?.startsWith('\r[#####---------------] 1/4')).toBe(true);
    expect(lines[2]).toBe('\n');
    expect(progressBar(4, 4)).toBe('[####################] 4/4');
  });

  it('writes one line per page otherwise', () => {
    const { lines, io: log } = io(false);
    const progress = createProgress(log, 2);
    progress.start(0, A);
    progress.done(0, page(A, [finding(REQUEST, 'x')]));
    progress.finish();
    expect(lines).toEqual([`page 1/2 ${A}: 1 finding, 1.0 s\n`]);
  });
});

describe('options: --sitemap and --compare', () => {
  it('takes --audit --sitemap URL, with 10 pages unless --pages says', () => {
    const options = parseAuditArguments([
      '--audit',
      '--sitemap',
      'https://news.example/sitemap.xml',
      '--compare',
      'old.json',
    ]);
    expect(options).toMatchObject({ isSitemap: true, pages: SITEMAP_DEFAULT_PAGES, compare: 'old.json' });
    expect(options?.target.href).toBe('https://news.example/sitemap.xml');
    expect(parseAuditArguments(['--audit', '--sitemap=https://news.example/s.xml', '--pages', '3'])?.pages).toBe(3);
  });

  it('refuses a page and a sitemap together, a file sitemap, no pages and an empty --compare', () => {
    expect(
      parseAuditArguments(['--audit', 'https://news.example/', '--sitemap', 'https://news.example/s.xml']),
    ).toBeNull();
    expect(parseAuditArguments(['--audit', '--sitemap', 'sitemap.xml'])).toBeNull();
    expect(parseAuditArguments(['--audit', '--sitemap', 'https://news.example/s.xml', '--pages', '0'])).toBeNull();
    expect(parseAuditArguments(['--audit', 'https://news.example/', '--compare='])).toBeNull();
    expect(parseAuditArguments(['--audit', 'https://news.example/'])).toMatchObject({
      isSitemap: false,
      pages: 0,
      compare: null,
    });
  });
});

describe('the report schema (docs/audit-report.schema.json)', () => {
  const validate = new Ajv2020({ allErrors: true, strict: false, formats: { 'date-time': true } }).compile(
    JSON.parse(readFileSync('docs/audit-report.schema.json', 'utf8')),
  );
  const pages = [page(A, [finding(REQUEST, 'https://t.example/1', A)]), page(B, [])];

  it('takes a site report with its summary and comparison, and a page report with its summary', () => {
    const comparison = compareReports({ startedAt: null, pages: [] }, pages);
    expect(validate(JSON.parse(JSON.stringify({ ...site(pages), comparison }))), JSON.stringify(validate.errors)).toBe(
      true,
    );
    expect(validate({ ...pages[0], summary: summarizeSite(pages), comparison: null })).toBe(true);
  });

  it("takes a page report's GPC visit, null with why it did not run, and refuses a malformed one", () => {
    expect(validate({ ...pages[0], gpc: { honored: true, noticeShown: false } })).toBe(true);
    expect(validate({ ...pages[0], gpc: null, gpcNotRun: 'stopped: the audit passed its deadline of 120 s' })).toBe(
      true,
    );
    expect(validate({ ...pages[0], gpc: { honored: true } })).toBe(false);
    expect(validate({ ...pages[0], gpc: { honored: 'yes', noticeShown: false } })).toBe(false);
  });

  it('refuses a site report without its pages and a finding with an unknown code', () => {
    const { pages: _left, ...withoutPages } = site(pages);
    expect(validate(withoutPages)).toBe(false);
    expect(validate(page(A, [finding('audit-made-up', 'x')]))).toBe(false);
  });
});
