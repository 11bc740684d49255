/**
 * The timeline of one journey as an SVG: time runs left to right, the decision is the vertical
 * line at 0, with one row each for requests, cookies and storage writes; a mark's colour is its
 * verdict, and its `<title>` says what it is. The table beside it in the report carries the same
 * events for readers who do not see the picture.
 */
import type { JourneyReport, Verdict } from './report.ts';

export const VERDICT_COLOURS: Record<Verdict, string> = {
  finding: '#b3261e',
  allowed: '#8a5a00',
  expected: '#1f5fa8',
  permitted: '#5b3f9e',
  ok: '#5f6368',
};
const WIDTH = 720;
const ROW = 28;
const LEFT = 90;
const ROWS = ['requests', 'cookies', 'storage'] as const;

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function timelineSvg(journey: JourneyReport, labelId: string): string {
  const rows = ROWS.map((row) =>
    journey[row].map((event) => ({
      t: event.t,
      verdict: event.verdict,
      title:
        'url' in event ? event.url : 'name' in event ? `${event.name} (${event.domain})` : `${event.kind} ${event.key}`,
    })),
  );
  const times = rows.flat().map(({ t }) => t);
  const min = Math.min(0, ...times);
  const max = Math.max(1, ...times);
  const x = (t: number) => LEFT + ((t - min) / (max - min)) * (WIDTH - LEFT - 10);
  const height = ROWS.length * ROW + 24;
  const marks = rows.flatMap((events, index) =>
    events.map(({ t, verdict, title }) => {
      const y = index * ROW + ROW / 2;
      return `<circle cx="${x(t).toFixed(1)}" cy="${y}" r="5" fill="${VERDICT_COLOURS[verdict]}"><title>${escapeHtml(`${(t / 1000).toFixed(2)} s, ${verdict}: ${title}`)}</title></circle>`;
    }),
  );
  const labels = ROWS.map((row, index) => `<text x="4" y="${index * ROW + ROW / 2 + 4}">${row}</text>`);
  const zero = x(0).toFixed(1);
  const isRight = x(0) > WIDTH / 2;
  const decision = `<line x1="${zero}" x2="${zero}" y1="0" y2="${height - 20}" stroke="#202124" stroke-dasharray="4 3"/><text x="${zero}" dx="${isRight ? -4 : 4}" y="${height - 6}" text-anchor="${isRight ? 'end' : 'start'}">${journey.name === 'no-decision' ? 'where the others decide' : 'decision'} (0 s)</text>`;
  const axis = `<text x="${LEFT}" y="${height - 6}">${(min / 1000).toFixed(1)} s</text>${isRight ? '' : `<text x="${WIDTH - 4}" y="${height - 6}" text-anchor="end">${(max / 1000).toFixed(1)} s</text>`}`;
  return `<svg role="img" aria-labelledby="${labelId}" viewBox="0 0 ${WIDTH} ${height}" width="100%" font-size="12" fill="#202124">${labels.join('')}${decision}${axis}${marks.join('')}</svg>`;
}
