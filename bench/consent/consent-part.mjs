// Part "consent": the article pages (control, runtime-only, floor, ours, ours-inline, ours-tcf,
// vanilla-cookieconsent, klaro) in the fast and mobile profiles, interleaved run by run (the
// variant order rotates every run). Each run of a variant: a measured first visit and return
// visits with a warm and a cold HTTP cache, then the same sequence profiled for the breakdown.
import { launchBrowser } from '../browser/launch.mjs';
import { PROFILES } from '../browser/profiles.mjs';
import { startReferenceCdn } from '../browser/reference-cdn.mjs';
import { createFrameNamer } from '../browser/source-maps.mjs';
import { localFileOf, startStaticServer } from '../browser/static-server.mjs';
import { formatNumber, formatSummary } from '../lib/format.mjs';
import { median, ratio, summarize } from '../lib/stats.mjs';
import { buildBreakdownTables, CACHE_STATES } from './consent-breakdown.mjs';
import { blockedScriptUrl, docsUseHidden, serveConsentPages, VARIANTS } from './consent-pages.mjs';
import { runConsentVisit } from './consent-visit.mjs';

const rotate = (list, by) => list.map((_, index) => list[(index + by) % list.length]);

const FIGURES = [
  ['prompt visible ms', (run) => run.first.promptVisibleMs],
  ['accept -> script ms', (run) => run.first.acceptToScriptMs],
  ['script ms (1st / return)', (run) => run.first.scriptMs, (run) => run.returns.warm.cost.scriptMs],
  ['task ms (1st / return)', (run) => run.first.taskMs, (run) => run.returns.warm.cost.taskMs],
  ['KB (1st / return)', (run) => run.first.bytes / 1024, (run) => run.returns.warm.cost.bytes / 1024],
  ['CLS (1st / return)', (run) => run.first.layoutShift, (run) => run.returns.warm.layoutShift],
];

/** The return visit's figures, each in both cache states. */
const RETURN_FIGURES = [
  ['script runs ms', (visit) => visit.scriptMs],
  ['main-thread script ms', (visit) => visit.cost.scriptMs],
];

/**
 * The figures compared with the lightest peer: what a variant adds over control, divided by what
 * vanilla-cookieconsent adds (1.0 = level with it, lower is better).
 */
const PEER = 'vanilla-cookieconsent';
const PEER_RATIOS = [
  ['prompt visible xpeer', (run) => run.first.promptVisibleMs],
  ['1st script xpeer', (run) => run.first.scriptMs],
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
  return Object.fromEntries(
    FIGURES.map(([name, ...reads]) => [name, reads.map((read) => summarize(measured.map(read)))]),
  );
}

function cell(summaries, name) {
  const [a, b] = summaries[name];
  const decimals = name.startsWith('CLS') ? 3 : undefined;
  return b ? `${formatSummary(a, decimals)} · ${formatSummary(b, decimals)}` : formatSummary(a, decimals);
}

function buildReturnTable(profileName, results) {
  const runsOf = results[profileName];
  const pairs = RETURN_FIGURES.flatMap(([figure, read]) =>
    CACHE_STATES.map((state) => [`${figure}, ${state}`, (run) => read(run.returns[state])]),
  );
  const rows = Object.keys(VARIANTS).map((name) => {
    const measured = runsOf[name].filter((run) => !run.error);
    const figures = pairs.map(([, read]) => formatSummary(summarize(measured.map(read))));
    const kilobytes = CACHE_STATES.map((state) =>
      formatSummary(summarize(measured.map((run) => run.returns[state].cost.bytes / 1024))),
    ).join(' · ');
    const ratios = pairs.map(([, read]) => (name === 'control' ? '-' : formatNumber(peerRatio(runsOf, name, read), 2)));
    return [name, ...figures, kilobytes, ...ratios, String(runsOf[name].length)];
  });
  return {
    title: `Return visit, ${profileName} profile: warm and cold HTTP cache`,
    columns: [
      'variant',
      ...pairs.map(([name]) => name),
      'KB, warm · cold',
      ...pairs.map(([name]) => name.replace(' ms,', ' xpeer,')),
      'runs',
    ],
    rows,
    notes: [
      'Each cell: median / p90. warm: the cache the first visit filled, every file served as the reference server serves it; cold: the cache cleared and every response no-store.',
      'script runs ms: navigation start to the blocked script running; main-thread script ms: CDP ScriptDuration of the tab to load and that run.',
      `"xpeer": the variant's median minus control's, divided by ${PEER}'s minus control's in the same cache state (1.00 = level with it; lower is better).`,
    ],
  };
}

/** The `__tcfapi` answers a vendor's tag gets, per visit (the variants with `tcf`). */
const TCF_FIGURES = [
  ['first visit: first answer ms', (run) => run.first.tcf?.firstAt],
  ['return, warm: first answer ms', (run) => run.returns.warm.tcf?.firstAt],
  ['return, warm: tcloaded ms', (run) => run.returns.warm.tcf?.readyAt],
  ['return, cold: first answer ms', (run) => run.returns.cold.tcf?.firstAt],
  ['return, cold: tcloaded ms', (run) => run.returns.cold.tcf?.readyAt],
];

function buildTcfTable(profileName, results) {
  const rows = Object.entries(VARIANTS)
    .filter(([, variant]) => variant.tcf)
    .map(([name]) => {
      const measured = results[profileName][name].filter((run) => !run.error);
      const statuses = [...new Set(measured.map((run) => run.first.tcf?.firstStatus ?? 'none'))].join(', ');
      return [
        name,
        ...TCF_FIGURES.map(([, read]) => formatSummary(summarize(measured.map((run) => read(run) ?? null)))),
        statuses,
        String(measured.length),
      ];
    });
  return {
    title: `TCF answers, ${profileName} profile`,
    columns: ['variant', ...TCF_FIGURES.map(([name]) => name), 'first visit: first status', 'runs'],
    rows,
    notes: [
      "Each cell: median / p90, ms from navigation start. A vendor's tag in <head> right after the head stub calls __tcfapi('addEventListener') at once; first answer: its first callback (on a first visit cmpuishown, when the prompt shows); tcloaded: the first callback with tcloaded (a return visit's stored decision). Google's tags wait 500 ms for an answer.",
    ],
  };
}

function buildTable(profileName, results) {
  const rows = Object.entries(VARIANTS).map(([name, variant]) => {
    const runs = results[profileName][name];
    const summaries = summarizeVariant(runs);
    const errors = runs.filter((run) => run.error).length;
    const ratios = PEER_RATIOS.map(([, read]) =>
      name === 'control' ? '-' : formatNumber(peerRatio(results[profileName], name, read), 2),
    );
    return [
      name,
      ...FIGURES.map(([figure]) => cell(summaries, figure)),
      ...ratios,
      `${describeViolations(runs, variant)}${errors ? `; ${errors} failed` : ''}`,
      String(runs.length),
    ];
  });
  return {
    title: `Consent, ${profileName} profile`,
    columns: [
      'variant',
      ...FIGURES.map(([name]) => name),
      ...PEER_RATIOS.map(([name]) => name),
      'violations (runs)',
      'runs',
    ],
    rows,
    notes: [
      'Each cell: median / p90; "a · b" = first visit · return visit (warm HTTP cache). Times from navigation start except accept -> script.',
      `"xpeer": the variant's median minus control's, divided by ${PEER}'s minus control's (1.00 = level with it; lower is better).`,
    ],
  };
}

/** The profiled sequence's main-thread time of the return visits, `{warm, cold}` (or `{error}`). */
async function profileReturns(browser, options) {
  try {
    const { returns } = await runConsentVisit(browser, { ...options, isProfiled: true });
    return Object.fromEntries(CACHE_STATES.map((state) => [state, returns[state].mainThread]));
  } catch (error) {
    return { error: String(error.message ?? error).split('\n')[0] };
  }
}

async function runVariant(browser, options) {
  const result = await runConsentVisit(browser, options).catch((error) => ({
    error: String(error.message ?? error).split('\n')[0],
  }));
  return result.error ? result : { ...result, mainThread: await profileReturns(browser, options) };
}

export async function runConsentPart({ runs }) {
  const reference = await startReferenceCdn();
  const server = await startStaticServer({ reference });
  const isHidden = docsUseHidden();
  const urls = serveConsentPages(server, { isHidden });
  const shared = { server, blockedUrl: blockedScriptUrl(server), describeFrame: createFrameNamer(localFileOf) };
  const browser = await launchBrowser();
  const results = Object.fromEntries(
    Object.keys(PROFILES).map((profile) => [
      profile,
      Object.fromEntries(Object.keys(VARIANTS).map((name) => [name, []])),
    ]),
  );
  try {
    for (let run = 0; run < runs; run++) {
      for (const [profileName, profile] of Object.entries(PROFILES)) {
        for (const name of rotate(Object.keys(VARIANTS), run)) {
          const result = await runVariant(browser, { ...shared, url: urls[name], variant: VARIANTS[name], profile });
          const error = result.error ?? result.mainThread.error;
          if (error)
            console.warn(
              `consent: ${profileName} ${name} run ${run + 1}${result.error ? '' : ' (profiled)'}: ${error}`,
            );
          results[profileName][name].push(result);
        }
      }
      process.stdout.write(`consent: run ${run + 1}/${runs}\r`);
    }
  } finally {
    await browser.close();
    await server.close();
    await reference.close();
  }
  return {
    part: 'consent',
    title: 'Consent in the browser',
    description: `Chromium ${browser.version()}, headless; our prompt markup ${isHidden ? 'with' : 'without'} \`hidden\` (as docs/consent.md writes it); our files from the reference server's CDN route (v0.js: \`Cache-Control: ${reference.entryCacheControl ?? 'none'}\`, which the other scripts get too); ${runs} runs per variant and profile, interleaved.`,
    tables: Object.keys(PROFILES).flatMap((profile) => [
      buildTable(profile, results),
      buildReturnTable(profile, results),
      buildTcfTable(profile, results),
      ...buildBreakdownTables(profile, results[profile]),
    ]),
    data: { isHidden, entryCacheControl: reference.entryCacheControl, runs: results },
  };
}
