/**
 * The cookie declaration as one self-contained HTML page (`--declaration out.html`): a table a
 * publisher can paste into a privacy page, with a caption, column headers and plain text cells
 * (no script, no style sheet outside, no colour-only meaning).
 */
import type { DeclarationItem } from './report.ts';
import type { AuditReport } from './report.ts';
import { escapeHtml as e } from './timeline-svg.ts';

const KINDS: Record<DeclarationItem['kind'], string> = {
  cookie: 'Cookie',
  localStorage: 'Local storage',
  sessionStorage: 'Session storage',
  indexedDB: 'IndexedDB',
};
const JOURNEYS: Record<DeclarationItem['journeys'][number], string> = {
  'no-decision': 'no decision',
  reject: 'after reject',
  accept: 'after accept',
};

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** A lifetime in words: "session", "until cleared", or the largest whole unit (years of 365 days). */
export function lifetimeText(item: Pick<DeclarationItem, 'isPersistent' | 'lifetimeSeconds'>): string {
  const seconds = item.lifetimeSeconds;
  if (seconds === null) return item.isPersistent ? 'until cleared' : 'session';
  const days = Math.round(seconds / 86_400);
  if (days >= 365 && days % 365 === 0) return plural(days / 365, 'year');
  if (days >= 1) return plural(days, 'day');
  if (seconds >= 3_600) return plural(Math.round(seconds / 3_600), 'hour');
  if (seconds >= 60) return plural(Math.round(seconds / 60), 'minute');
  return plural(seconds, 'second');
}

const tagText = (tag: DeclarationItem['tag']) => (tag.url === null ? tag.kind : `${tag.kind} ${tag.url}`);

export function formatDeclarationHtml(report: Pick<AuditReport, 'url' | 'startedAt' | 'declaration'>): string {
  const headers = [
    'Name',
    'Type',
    'Party',
    'Set by (site)',
    'Domain',
    'Lifetime',
    'Category',
    'Seen',
    'Tag on the page',
  ];
  const rows = report.declaration.map((item) => [
    item.name,
    KINDS[item.kind],
    item.party,
    item.setBySite ?? 'unknown',
    item.domain,
    lifetimeText(item),
    item.category,
    item.journeys.map((name) => JOURNEYS[name]).join(', '),
    tagText(item.tag),
  ]);
  const body = rows.length
    ? `<table><caption>Cookies and storage of ${e(report.url)}</caption><thead><tr>${headers.map((header) => `<th scope="col">${e(header)}</th>`).join('')}</tr></thead><tbody>
${rows.map((row) => `<tr>${row.map((cell) => `<td>${e(cell)}</td>`).join('')}</tr>`).join('\n')}
</tbody></table>`
    : '<p>The page set no cookie and no storage item.</p>';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Cookie declaration: ${e(report.url)}</title><style>body{font:15px/1.5 system-ui,sans-serif;color:#202124;margin:0 auto;max-width:72rem;padding:1rem}table{border-collapse:collapse;width:100%}th,td{border:1px solid #5f6368;padding:.25rem .5rem;text-align:left;vertical-align:top;word-break:break-word}caption{text-align:left;font-weight:600}</style></head><body><main>
<h1>Cookie declaration</h1>
<p>Found on <code>${e(report.url)}</code> by a page audit started ${e(report.startedAt)}: a first visit with no decision, then with a reject, then with an accept. "Seen" says in which of them each item appeared; the category is the purpose the page's own consent marker gives the tag that set it.</p>
${body}
</main></body></html>
`;
}
