/**
 * `--compare previous.json` (docs/validator.md, "A site"): an earlier audit report, page or
 * site, read through the wire layer's typed readers (only what the comparison needs: each
 * page's URL and pages seen, each finding's code, subject and page; at most 1,000 pages of
 * 100,000 findings per journey), and compared with this audit per page and rule: findings
 * new (a rule with findings on a page where it had none), gone (the reverse, on a page audited
 * both times) and changed (both times, with other subjects). A subject is compared without its
 * query string, so a cache-busting parameter is no change. Pages audited only once are listed
 * apart. Pure.
 */
import { type Diagnostic, diagnostic } from '../../src/wire/diagnostic.ts';
import { collector, isRecord, own, parseJsonText, readList, readText, readFields } from '../../src/wire/values.ts';
import type { AuditReport, ComparedRule, Comparison } from './report.ts';
import { findingsByPage } from './site-summary.ts';

export const COMPARE_CODE = 'audit-compare-invalid';
/** The most findings one journey of an earlier report may hold, and the most pages of a site report. */
const MAX_FINDINGS = 100_000;
const MAX_PAGES = 1_000;

type EarlierFinding = { readonly code: string; readonly what: string; readonly page?: string };
type EarlierJourney = { readonly findings: readonly EarlierFinding[]; readonly pages?: readonly string[] };
type EarlierPage = { readonly url: string; readonly journeys: readonly EarlierJourney[] };
export type EarlierReport = { readonly startedAt: string | null; readonly pages: readonly EarlierPage[] };

const url = readText(65_536, 1);
const readFinding = readFields<EarlierFinding>({
  code: readText(100, 1, /^audit-[a-z0-9-]+$/, 'an audit-* code'),
  what: readText(65_536),
  page: url,
});
const readJourney = readFields<EarlierJourney>({
  findings: readList(readFinding, MAX_FINDINGS),
  pages: readList(url, 100),
});
const readPage = readFields<EarlierPage>({ url, journeys: readList(readJourney, 3) });

/** The first field a page report lacks (a field that failed its reader is absent too), or null. */
function lackOf(page: EarlierPage | undefined): string | null {
  if (page?.url === undefined) return 'url';
  if (page.journeys === undefined) return 'journeys';
  const index = page.journeys.findIndex((journey) => journey.findings === undefined);
  if (index >= 0) return `journeys[${index}].findings`;
  for (const [at, journey] of page.journeys.entries()) {
    const bad = journey.findings.findIndex((finding) => finding.code === undefined || finding.what === undefined);
    if (bad >= 0) return `journeys[${at}].findings[${bad}].code and .what`;
  }
  return null;
}

/** The earlier report, or the one diagnostic that says why the text is not one. */
export function parseEarlierReport(text: string): EarlierReport | Diagnostic {
  const into = collector(COMPARE_CODE);
  const value = parseJsonText(text);
  const fail = (expected: string, got: unknown) => diagnostic(COMPARE_CODE, expected, got);
  if (value === undefined)
    return { code: COMPARE_CODE, expected: 'an audit report (a JSON object)', got: 'text that is not JSON' };
  if (!isRecord(value)) return fail('an audit report (a JSON object)', value);
  if (own(value, 'schemaVersion') !== 1)
    return fail('an audit report with schemaVersion 1', own(value, 'schemaVersion'));
  const isSite = own(value, 'kind') === 'site';
  const pages = isSite
    ? readList(readPage, MAX_PAGES)(into, own(value, 'pages'), 'pages')
    : [readPage(into, value, '')];
  const [first] = into.diagnostics;
  if (first) return first;
  if (!pages?.length) return fail('a site report with pages', own(value, 'pages'));
  for (const [index, page] of pages.entries()) {
    const lack = lackOf(page);
    if (lack) return fail(`${isSite ? `pages[${index}].` : ''}${lack} of an audit report`, undefined);
  }
  const startedAt = own(value, 'startedAt');
  return { startedAt: typeof startedAt === 'string' ? startedAt : null, pages: pages as EarlierPage[] };
}

const subjectOf = (what: string) => what.split('?')[0] ?? what;
type Tally = Map<string, { page: string; code: string; subjects: Map<string, number> }>;

function tally(entries: readonly { page: string; code: string; what: string }[]): Tally {
  const map: Tally = new Map();
  for (const { page, code, what } of entries) {
    const key = `${page}\n${code}`;
    const entry = map.get(key) ?? { page, code, subjects: new Map() };
    entry.subjects.set(subjectOf(what), (entry.subjects.get(subjectOf(what)) ?? 0) + 1);
    map.set(key, entry);
  }
  return map;
}

const count = (subjects: ReadonlyMap<string, number> | undefined) =>
  [...(subjects?.values() ?? [])].reduce((a, b) => a + b, 0);
const missing = (from: ReadonlyMap<string, number> | undefined, to: ReadonlyMap<string, number> | undefined) =>
  [...(from?.keys() ?? [])].filter((subject) => !to?.has(subject)).slice(0, 10);

export function compareReports(earlier: EarlierReport, reports: readonly AuditReport[]): Comparison {
  const pagesBefore = new Set(
    earlier.pages.flatMap((page) => [page.url, ...page.journeys.flatMap((journey) => journey.pages ?? [])]),
  );
  const pagesNow = new Set(reports.flatMap((report) => [report.url, ...report.journeys.flatMap(({ pages }) => pages)]));
  const before = tally(
    earlier.pages.flatMap((page) =>
      page.journeys.flatMap((journey) =>
        journey.findings.map((finding) => ({ page: finding.page ?? page.url, code: finding.code, what: finding.what })),
      ),
    ),
  );
  const now = tally(
    reports.flatMap((report) =>
      findingsByPage(report).map(({ page, finding }) => ({ page, code: finding.code, what: finding.what })),
    ),
  );
  const result = { new: [] as ComparedRule[], gone: [] as ComparedRule[], changed: [] as ComparedRule[], unchanged: 0 };
  for (const key of new Set([...before.keys(), ...now.keys()])) {
    const was = before.get(key);
    const is = now.get(key);
    const { page, code } = (is ?? was)!;
    const rule = {
      page,
      code,
      before: count(was?.subjects),
      now: count(is?.subjects),
      added: missing(is?.subjects, was?.subjects),
      removed: missing(was?.subjects, is?.subjects),
    };
    if (!was) result.new.push(rule);
    else if (!is) {
      if (pagesNow.has(page)) result.gone.push(rule);
    } else if (rule.added.length || rule.removed.length || rule.before !== rule.now) result.changed.push(rule);
    else result.unchanged += 1;
  }
  return {
    previousStartedAt: earlier.startedAt,
    ...result,
    pagesOnlyBefore: [...pagesBefore].filter((page) => !pagesNow.has(page)),
    pagesOnlyNow: [...pagesNow].filter((page) => !pagesBefore.has(page)),
  };
}
