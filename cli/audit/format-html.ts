/**
 * The HTML report: one self-contained accessible page (landmarks, headings, tables with headers,
 * text alternatives, no colour-only meaning): the summary, the screenshot of the page with its
 * prompt, the rules and whether each passed, failed or did not run, and per journey its
 * findings, what `--allow` covered, the prompt's checks and the vendors' view (the strings
 * decoded, what Prebid's rules would allow as a table), a timeline of requests, cookies and storage writes against
 * the decision, the same events as tables, the `Set-Cookie` lines the browser refused, and the
 * requests the address guard blocked; the GPC visit's outcome on a page set up for US readers. An
 * incomplete audit and a browser without its sandbox are said first; the site summary (where
 * `--pages` followed links) and the comparison (`--compare`) follow the rules.
 */
import { promptLines, stringLines } from './format-signals.ts';
import { comparisonHtml, summaryHtml } from './format-site.ts';
import type { AuditFinding, AuditReport, JourneyReport } from './report.ts';
import { GPC_NOTICE_CODE, GPC_NOTICE_WARNING, isGpcNoticeMissing, rulesRun } from './rules-run.ts';
import { escapeHtml as e, timelineSvg, VERDICT_COLOURS } from './timeline-svg.ts';

const TITLES: Record<JourneyReport['name'], string> = {
  'no-decision': 'No decision',
  reject: 'Reject',
  accept: 'Accept',
};
const LEGEND = Object.entries(VERDICT_COLOURS)
  .map(([verdict, colour]) => `<span style="color:${colour}">●</span> ${verdict}`)
  .join(', ');
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const CSS = `body{font:15px/1.5 system-ui,sans-serif;color:#202124;margin:0 auto;max-width:72rem;padding:1rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}th,td{border:1px solid #c4c7c5;padding:.25rem .5rem;text-align:left;vertical-align:top;word-break:break-all}
caption{text-align:left;font-weight:600}img{max-width:100%;border:1px solid #c4c7c5}.finding{color:${VERDICT_COLOURS.finding};font-weight:600}
li{margin-bottom:.75rem}code{word-break:break-all}`;

function findingItem(finding: AuditFinding): string {
  const tag =
    finding.initiator.tag.url === null
      ? finding.initiator.tag.kind
      : `${finding.initiator.tag.kind} ${finding.initiator.tag.url}`;
  return `<li><strong>${e(finding.code)}</strong> at ${s(finding.t)}: ${e(finding.message)}<br>Initiator: ${e(finding.initiator.chain.join(' ← ') || 'unknown')} (tag on the page: ${e(tag)})<br>Fix: ${e(finding.hint)}</li>`;
}

function table(caption: string, headers: readonly string[], rows: readonly (readonly string[])[]): string {
  if (!rows.length) return `<p>${e(caption)}: none.</p>`;
  const head = headers.map((header) => `<th scope="col">${e(header)}</th>`).join('');
  const body = rows.map((row) => `<tr>${row.map((cell) => `<td>${e(cell)}</td>`).join('')}</tr>`).join('\n');
  return `<table><caption>${e(caption)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

const blockedTable = (journey: JourneyReport) =>
  table(
    'Requests blocked by the address guard',
    ['URL', 'Why'],
    journey.blocked.map((item) => [item.url, item.reason]),
  );

function vendorsView(journey: JourneyReport): string {
  const list = (lines: readonly string[]) => `<ul>${lines.map((line) => `<li>${e(line)}</li>`).join('')}</ul>`;
  const prompt = journey.prompt ? `<h3>The prompt's accessibility</h3>${list(promptLines(journey.prompt))}` : '';
  const signals = journey.signals;
  if (!signals) return prompt;
  const yes = (value: boolean) => (value ? 'yes' : 'no');
  return `${prompt}<h3>The vendors' view</h3>${list(stringLines(signals))}${table(
    "What Prebid's tcfControl and gppControl_usnat would allow",
    ['Vendor', 'transmitEids', 'syncUser', 'fetchBids', 'Denied by'],
    signals.prebid.map((row) => [
      row.vendor === null ? 'any vendor' : String(row.vendor),
      yes(row.transmitEids),
      yes(row.syncUser),
      yes(row.fetchBids),
      row.deniedBy.join(', '),
    ]),
  )}`;
}

function journeySection(journey: JourneyReport, index: number): string {
  const title = TITLES[journey.name];
  if (journey.status === 'not-run')
    return `<section aria-labelledby="j${index}"><h2 id="j${index}">${title}</h2><p>Not run: ${e(journey.reason ?? 'unknown reason')}.</p>${blockedTable(journey)}</section>`;
  const findings = journey.findings.length
    ? `<ol>${journey.findings.map(findingItem).join('')}</ol>`
    : '<p>No finding.</p>';
  const allowed = journey.allowed.length
    ? `<h3>Allowed by --allow (not findings)</h3><ul>${journey.allowed.map((item) => `<li>${e(item.subject)} ${e(item.what)} (--allow ${e(item.allow)})</li>`).join('')}</ul>`
    : '';
  const label = `t${index}`;
  const chain = (chain: readonly string[]) => chain.join(' ← ');
  return `<section aria-labelledby="j${index}"><h2 id="j${index}">${title}</h2>
<p>${e(journey.decidedBy ?? 'No decision was made')}; pages: ${e(journey.pages.join(', '))}.</p>
<h3>Findings (${journey.findings.length})</h3>${findings}${allowed}${vendorsView(journey)}
<h3 id="${label}">Timeline of the ${title.toLowerCase()} journey: ${journey.requests.length} requests, ${journey.cookies.length} cookies, ${journey.storage.length} storage writes around the decision</h3>
${timelineSvg(journey, label)}
<p>Each dot is one event; its colour is its verdict: ${LEGEND}. Hover a dot for its details; the tables below list every event.</p>
${table(
  'Requests',
  ['Time', 'Verdict', 'Party', 'Type', 'URL', 'Initiator'],
  journey.requests.map((r) => [
    s(r.t),
    r.verdict,
    r.party,
    r.isBeacon ? 'beacon' : r.type,
    `${r.method} ${r.url}`,
    chain(r.initiator.chain),
  ]),
)}
${table(
  'Cookies',
  ['Time', 'Verdict', 'Party', 'Cookie', 'Expires', 'Set by'],
  journey.cookies.map((c) => [
    s(c.t),
    c.verdict,
    c.party,
    `${c.name} (${c.domain})`,
    c.expires ?? 'session',
    `${c.setBy} ${c.source}`,
  ]),
)}
${table(
  'Set-Cookie lines the browser refused (nothing was stored)',
  ['Time', 'Cookie', 'Why', 'Response', 'Initiator'],
  journey.refusedCookies.map((c) => [s(c.t), c.line, c.reasons.join(', '), c.source, chain(c.initiator.chain)]),
)}
${table(
  'Storage writes',
  ['Time', 'Verdict', 'Party', 'Storage', 'Writer'],
  journey.storage.map((w) => [
    s(w.t),
    w.verdict,
    w.party,
    `${w.kind} ${w.key} (${w.origin})`,
    w.writer ?? 'unnamed script',
  ]),
)}
${table(
  'Our elements built and blocked scripts run',
  ['Time', 'Kind', 'Tag', 'Blocked by', 'Source'],
  journey.built.map((b) => [
    s(b.t),
    b.kind,
    b.tag,
    b.block === null ? (b.purposes ?? 'not blocked') : `data-block-on-consent="${b.block}"`,
    b.src ?? 'inline',
  ]),
)}
${blockedTable(journey)}
</section>`;
}

/** Every rule and whether it passed, failed or did not run, so a clean page reads as checked. */
function rulesSection(report: AuditReport): string {
  const items = rulesRun(report).map(
    ({ name, status, detail }) =>
      `<li>${e(name)}: <strong>${status === 'not-run' ? 'not run' : status}</strong> (${e(detail)})</li>`,
  );
  return `<section aria-labelledby="rules"><h2 id="rules">Rules</h2><ul>${items.join('')}</ul></section>`;
}

function fairChoiceSection(problems: AuditReport['fairChoice']): string {
  if (!problems?.length) return '';
  return `<section aria-labelledby="fair"><h2 id="fair">Fair choice (${problems.length} warning${problems.length === 1 ? '' : 's'})</h2><ul>${problems.map((problem) => `<li>${e(problem)}</li>`).join('')}</ul></section>`;
}

/** The GPC visit's outcome, on a page set up for US readers; its warning where the notice was missing. */
function gpcSection(report: AuditReport): string {
  const { gpc } = report;
  if (!gpc) return '';
  const honoured = gpc.honored
    ? 'honoured the opt-out (<code>page-consent-gpc-honored</code>)'
    : 'did not honour the opt-out on this visit (the reader may be outside the states that apply it)';
  const notice = `the notice "Opt-out request honored" was ${gpc.noticeShown ? '' : 'not '}shown`;
  const warning = isGpcNoticeMissing(report)
    ? `<p class="finding">${GPC_NOTICE_CODE}: ${e(GPC_NOTICE_WARNING)}</p>`
    : '';
  return `<section aria-labelledby="gpc"><h2 id="gpc">Global Privacy Control</h2><p>A reader whose browser sends Global Privacy Control: the page ${honoured}; ${notice}.</p>${warning}</section>`;
}

export function formatAuditHtml(report: AuditReport, screenshot: Buffer | null): string {
  const image = screenshot
    ? `<figure><img src="data:image/png;base64,${screenshot.toString('base64')}" alt="The page as a reader first sees it${report.isPromptShown ? ', with its consent prompt' : ' (no consent prompt was shown)'}"><figcaption>First view, before any decision.</figcaption></figure>`
    : '';
  const warnings = [
    ...(report.incomplete
      ? [
          `<p class="finding">Incomplete: the ${e(report.incomplete.bound)} bound stopped the audit (${e(report.incomplete.detail)}); what follows is partial.</p>`,
        ]
      : []),
    ...(report.isSandboxed === false ? ['<p>The browser ran without its sandbox (--audit-no-sandbox).</p>'] : []),
  ].join('');
  const verdict = report.findingCount
    ? `<p class="finding">${report.findingCount} finding${report.findingCount === 1 ? '' : 's'}.</p>`
    : '<p>No finding.</p>';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Page audit: ${e(report.url)}</title><style>${CSS}</style></head><body><main>
<h1>Page audit of <code>${e(report.url)}</code></h1>
<p>Site ${e(report.site)}; started ${e(report.startedAt)}; ${s(report.durationMs)}; ${report.isPromptShown ? 'a consent prompt was shown' : 'no consent prompt was shown'}.</p>
${warnings}${verdict}${rulesSection(report)}${report.summary && report.summary.pages > 1 ? summaryHtml(report.summary) : ''}${report.comparison ? comparisonHtml(report.comparison) : ''}${fairChoiceSection(report.fairChoice)}${gpcSection(report)}${image}
${report.journeys.map(journeySection).join('\n')}
</main></body></html>
`;
}
