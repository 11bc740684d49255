// Part "consent": the four article pages (control, ours, vanilla-cookieconsent, klaro) in the
// fast and mobile profiles, interleaved run by run (the variant order rotates every run).
import { launchBrowser } from '../browser/launch.mjs';
import { PROFILES } from '../browser/profiles.mjs';
import { startStaticServer } from '../browser/static-server.mjs';
import { formatNumber, formatSummary } from '../lib/format.mjs';
import { median, ratio, summarize } from '../lib/stats.mjs';
import { docsUseHidden, serveConsentPages, VARIANTS } from './consent-pages.mjs';
import { runConsentVisit } from './consent-visit.mjs';

const rotate = (list, by) => list.map((_, index) => list[(index + by) % list.length]);

const FIGURES = [
  ['prompt visible ms', (run) => run.first.promptVisibleMs],
  ['accept -> script ms', (run) => run.first.acceptToScriptMs],
  ['return: script ms', (run) => run.return.scriptMs],
  ['script ms (1st / return)', (run) => run.first.scriptMs, (run) => run.return.cost.scriptMs],
  ['task ms (1st / return)', (run) => run.first.taskMs, (run) => run.return.cost.taskMs],
  ['KB (1st / return)', (run) => run.first.bytes / 1024, (run) => run.return.cost.bytes / 1024],
  ['CLS (1st / return)', (run) => run.first.layoutShift, (run) => run.return.layoutShift],
];

/**
 * The figures compared with the lightest peer: what a variant adds over control, divided by what
 * vanilla-cookieconsent adds (1.0 = level with it, lower is better).
 */
const PEER = 'vanilla-cookieconsent';
const PEER_RATIOS = [
  ['prompt visible xpeer', (run) => run.first.promptVisibleMs],
  ['1st script xpeer', (run) => run.first.scriptMs],
  ['return: script xpeer', (run) => run.return.scriptMs],
  ['return script ms xpeer', (run) => run.return.cost.scriptMs],
];

/** (variant - control) / (peer - control) of the medians; null without a positive peer cost. */
function peerRatio(runsOf, name, read) {
  const medianOf = (variant) => median(runsOf[variant].filter((run) => !run.error).map(read));
  const [own, control, peer] = [medianOf(name), medianOf('control'), medianOf(PEER)];
  if (own === null || control === null || peer === null || peer - control <= 0) return null;
  return ratio(own - control, peer - control);
}

function describeViolations(runs, variant) {
  if (!variant.blocks) return 'n/a (not blocked)';
  const count = (key) => runs.filter((run) => run.violations?.[key]).length;
  return `early ${count('early')}, not once ${count('notOnce')}, prompt on return ${count('promptOnReturn')}`;
}

function summarizeVariant(runs) {
  const measured = runs.filter((run) => !run.error);
  return Object.fromEntries(FIGURES.map(([name, ...reads]) => [name, reads.map((read) => summarize(measured.map(read)))]));
}

function cell(summaries, name) {
  const [a, b] = summaries[name];
  const decimals = name.startsWith('CLS') ? 3 : undefined;
  return b ? `${formatSummary(a, decimals)} · ${formatSummary(b, decimals)}` : formatSummary(a, decimals);
}

function buildTable(profileName, results) {
  const rows = Object.entries(VARIANTS).map(([name, variant]) => {
    const runs = results[profileName][name];
    const summaries = summarizeVariant(runs);
    const errors = runs.filter((run) => run.error).length;
    const ratios = PEER_RATIOS.map(([, read]) => (name === 'control' ? '-' : formatNumber(peerRatio(results[profileName], name, read), 2)));
    return [name, ...FIGURES.map(([figure]) => cell(summaries, figure)), ...ratios, `${describeViolations(runs, variant)}${errors ? `; ${errors} failed` : ''}`, String(runs.length)];
  });
  return {
    title: `Consent, ${profileName} profile`,
    columns: ['variant', ...FIGURES.map(([name]) => name), ...PEER_RATIOS.map(([name]) => name), 'violations (runs)', 'runs'],
    rows,
    notes: [
      'Each cell: median / p90; "a · b" = first visit · return visit. Times from navigation start except accept -> script.',
      `"xpeer": the variant's median minus control's, divided by ${PEER}'s minus control's (1.00 = level with it; lower is better).`,
    ],
  };
}

export async function runConsentPart({ runs }) {
  const server = await startStaticServer();
  const isHidden = docsUseHidden();
  const urls = serveConsentPages(server, { isHidden });
  const browser = await launchBrowser();
  const results = Object.fromEntries(Object.keys(PROFILES).map((profile) => [profile, Object.fromEntries(Object.keys(VARIANTS).map((name) => [name, []]))]));
  try {
    for (let run = 0; run < runs; run++) {
      for (const [profileName, profile] of Object.entries(PROFILES)) {
        for (const name of rotate(Object.keys(VARIANTS), run)) {
          const result = await runConsentVisit(browser, { url: urls[name], variant: VARIANTS[name], profile }).catch((error) => ({
            error: String(error.message ?? error).split('\n')[0],
          }));
          if (result.error) console.warn(`consent: ${profileName} ${name} run ${run + 1}: ${result.error}`);
          results[profileName][name].push(result);
        }
      }
      process.stdout.write(`consent: run ${run + 1}/${runs}\r`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return {
    part: 'consent',
    title: 'Consent in the browser',
    description: `Chromium ${browser.version()}, headless; our prompt markup ${isHidden ? 'with' : 'without'} \`hidden\` (as docs/consent.md writes it); ${runs} runs per variant and profile, interleaved.`,
    tables: Object.keys(PROFILES).map((profile) => buildTable(profile, results)),
    data: { isHidden, runs: results },
  };
}
