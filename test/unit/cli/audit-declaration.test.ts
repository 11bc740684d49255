/** The page audit's cookie declaration: built from the journeys' cookies and storage writes, and its HTML page. */
import { describe, expect, it } from 'vitest';
import { buildDeclaration, UNCLASSIFIED } from '../../../cli/audit/declaration.ts';
import { formatDeclarationHtml, lifetimeText } from '../../../cli/audit/format-declaration.ts';
import { parseAuditArguments } from '../../../cli/audit/options.ts';
import type { BuiltEvent, CookieEvent, JourneyReport, StorageEvent } from '../../../cli/audit/report.ts';

const PAGE = 'https://news.example/';
const DECISION = '2026-01-01T00:00:10.000Z';
const pageTag = (url: string) => ({ chain: [PAGE], tag: { kind: 'script' as const, url } });

const cookie = (changes: Partial<CookieEvent>): CookieEvent => ({
  t: -1_000,
  phase: 'before',
  page: PAGE,
  verdict: 'finding',
  initiator: pageTag('https://t.example/tag.js'),
  name: 'id',
  domain: 'news.example',
  party: 'first',
  expires: null,
  isPersistent: false,
  setBy: 'script',
  source: 'https://t.example/tag.js',
  ...changes,
});
const storage = (changes: Partial<StorageEvent>): StorageEvent => ({
  t: -500,
  phase: 'before',
  page: PAGE,
  verdict: 'ok',
  initiator: pageTag('https://news.example/app.js'),
  kind: 'localStorage',
  key: 'prefs',
  origin: 'https://news.example',
  writer: 'https://news.example/app.js',
  party: 'first',
  ...changes,
});
const journey = (
  name: JourneyReport['name'],
  events: { cookies?: CookieEvent[]; storage?: StorageEvent[]; built?: BuiltEvent[] } = {},
): JourneyReport => ({
  name,
  status: 'run',
  reason: null,
  decidedBy: null,
  decisionAt: DECISION,
  pages: [PAGE],
  findings: [],
  allowed: [],
  requests: [],
  cookies: events.cookies ?? [],
  refusedCookies: [],
  storage: events.storage ?? [],
  built: events.built ?? [],
  blocked: [],
});

describe('the cookie declaration', () => {
  const pixel = cookie({
    name: 'tp_uid',
    domain: 'tracker.example',
    party: 'third',
    setBy: 'header',
    source: 'https://tracker.example/p.gif',
    isPersistent: true,
    expires: new Date(Date.parse(DECISION) - 1_000 + 31_536_000_000).toISOString(),
    initiator: { chain: [PAGE], tag: { kind: 'image', url: 'https://tracker.example/p.gif' } },
  });
  const analytics = cookie({
    name: '_an',
    domain: '.news.example',
    t: 2_000,
    phase: 'after',
    verdict: 'ok',
    source: 'https://an.example/a.js',
    expires: new Date(Date.parse(DECISION) + 2_000 + 86_400_000).toISOString(),
    isPersistent: true,
    initiator: {
      chain: ['https://an.example/loader.js', PAGE],
      tag: { kind: 'element', url: 'https://an.example/loader.js' },
    },
  });
  const built: BuiltEvent = {
    t: 1_000,
    phase: 'after',
    kind: 'script',
    tag: 'script',
    block: null,
    purposes: 'measurement, ads',
    src: 'https://an.example/loader.js?v=2',
  };
  const journeys = [
    journey('no-decision', { cookies: [pixel], storage: [storage({})] }),
    journey('reject', { cookies: [pixel] }),
    journey('accept', {
      cookies: [
        pixel,
        analytics,
        cookie({
          name: '_an',
          domain: 'news.example',
          t: 3_000,
          source: 'https://an.example/a.js',
          initiator: analytics.initiator,
        }),
      ],
      storage: [
        storage({
          kind: 'sessionStorage',
          key: 'tab',
          writer: null,
          initiator: { chain: [], tag: { kind: 'inline-script', url: null } },
        }),
      ],
      built: [built],
    }),
  ];
  const declaration = buildDeclaration(journeys);

  it('lists every cookie and storage item once, with the journeys in which it appears', () => {
    expect(declaration.map(({ kind, name, domain, journeys: seen }) => [kind, name, domain, seen])).toEqual([
      ['cookie', '_an', '.news.example', ['accept']],
      ['localStorage', 'prefs', 'https://news.example', ['no-decision']],
      ['sessionStorage', 'tab', 'https://news.example', ['accept']],
      ['cookie', 'tp_uid', 'tracker.example', ['no-decision', 'reject', 'accept']],
    ]);
  });

  it('gives the party, the site that set it, the lifetime and the tag', () => {
    const tracker = declaration.find((item) => item.name === 'tp_uid');
    expect(tracker).toMatchObject({
      party: 'third',
      setBySite: 'tracker.example',
      source: 'https://tracker.example/p.gif',
      isPersistent: true,
      lifetimeSeconds: 31_536_000,
      tag: { kind: 'image', url: 'https://tracker.example/p.gif' },
    });
    expect(declaration.find((item) => item.name === '_an')).toMatchObject({
      party: 'first',
      setBySite: 'an.example',
      lifetimeSeconds: 86_400,
    });
    expect(declaration.find((item) => item.name === 'prefs')).toMatchObject({
      isPersistent: true,
      lifetimeSeconds: null,
      setBySite: 'news.example',
    });
    expect(declaration.find((item) => item.name === 'tab')).toMatchObject({
      isPersistent: false,
      lifetimeSeconds: null,
      setBySite: null,
      source: null,
    });
  });

  it('takes the category from the purposes marker of the tag that set it, else unclassified', () => {
    expect(declaration.find((item) => item.name === '_an')).toMatchObject({
      category: 'measurement, ads',
      tag: { kind: 'script', url: 'https://an.example/loader.js?v=2' },
    });
    expect(declaration.filter((item) => item.name !== '_an').map((item) => item.category)).toEqual([
      UNCLASSIFIED,
      UNCLASSIFIED,
      UNCLASSIFIED,
    ]);
    // A tag blocked without purposes gives no category.
    const plain = buildDeclaration([
      journey('accept', { cookies: [analytics], built: [{ ...built, block: '', purposes: null }] }),
    ]);
    expect(plain[0]?.category).toBe(UNCLASSIFIED);
  });

  it('words lifetimes', () => {
    expect(
      [null, 31_536_000, 63_072_000, 86_400 * 30, 7_200, 90, 5].map((lifetimeSeconds) =>
        lifetimeText({ isPersistent: true, lifetimeSeconds }),
      ),
    ).toEqual(['until cleared', '1 year', '2 years', '30 days', '2 hours', '2 minutes', '5 seconds']);
    expect(lifetimeText({ isPersistent: false, lifetimeSeconds: null })).toBe('session');
  });

  it('writes one self-contained HTML table, its cells escaped', () => {
    const html = formatDeclarationHtml({
      url: PAGE,
      startedAt: DECISION,
      declaration: buildDeclaration([journey('no-decision', { cookies: [cookie({ name: '<b>x</b>' })] })]),
    });
    expect(html).toMatch(/^<!doctype html><html lang="en">/);
    expect(html).toContain('<th scope="col">Category</th>');
    expect(html).toContain('<td>&lt;b&gt;x&lt;/b&gt;</td>');
    expect(html).not.toMatch(/<script|<link|src="http/);
    expect(formatDeclarationHtml({ url: PAGE, startedAt: DECISION, declaration: [] })).toContain(
      'The page set no cookie and no storage item.',
    );
  });

  it('reads --declaration FILE, and refuses it without a file', () => {
    expect(parseAuditArguments(['--audit', PAGE, '--declaration', 'out.html'])?.declaration).toBe('out.html');
    expect(parseAuditArguments(['--audit', PAGE])?.declaration).toBeNull();
    expect(parseAuditArguments(['--audit', PAGE, '--declaration='])).toBeNull();
  });
});
