// "Where the milliseconds go" on a return visit, per variant and cache state: the main-thread
// time of the profiled return visits by file and by entry function, and the critical path of the
// measured return visits' requests (bench/README.md, "consent").
import { fileOf, medianByKey, WITHOUT_URL } from '../lib/cpu-profile.mjs';
import { summarizeCriticalPaths } from '../lib/critical-path.mjs';
import { formatNumber } from '../lib/format.mjs';
import { median } from '../lib/stats.mjs';
import { PROBE_FILE } from './page-probe.mjs';

export const CACHE_STATES = ['warm', 'cold'];
/** The CPU profiler's sampling interval on a profiled return visit (consent-visit.mjs), in microseconds. */
export const SAMPLING_INTERVAL_US = 500;
/** Entries shown per cell; the rest is summed. */
const SHOWN = 4;

/** "a 5.1, b 3.2, ..., rest 1.0" of `[key, ms]` entries, largest first (a median of 0 is left out). */
export function formatTopTimes(entries, shown = SHOWN) {
  const timed = entries.filter(([, ms]) => ms > 0);
  const cells = timed.slice(0, shown).map(([key, ms]) => `${key} ${formatNumber(ms)}`);
  const rest = timed.slice(shown).reduce((sum, [, ms]) => sum + ms, 0);
  return [...cells, ...(rest > 0 ? [`rest ${formatNumber(rest)}`] : [])].join(', ') || '-';
}

const formatMs = (ms) => formatNumber(ms, 1);

/** "page.html 2.1-4.0 network > [parser] a.js 20.3-21.0 cache > [script] ..." of a summarized path ("?": never finished). */
export function formatCriticalPath(summary) {
  if (!summary) return '-';
  return summary.steps
    .map(
      (step, index) =>
        `${index === 0 ? '' : `[${step.via}] `}${fileOf(step.url)} ${formatMs(step.startMs)}-${step.endMs === null ? '?' : formatMs(step.endMs)} ${step.source}`,
    )
    .join(' > ');
}

function timeRows(runs, name) {
  return CACHE_STATES.map((state) => {
    const profiled = runs.map((run) => run.mainThread?.[state]).filter(Boolean);
    const medianOf = (read) => formatNumber(median(profiled.map(read)));
    const byFile = formatTopTimes(medianByKey(profiled.map((visit) => visit.byFile)));
    const byFunction = formatTopTimes(medianByKey(profiled.map((visit) => visit.byFunction)));
    const script = `${medianOf((visit) => visit.meteredScriptMs)} · ${medianOf((visit) => visit.scriptMs)}`;
    return [name, state, script, medianOf((visit) => visit.programMs), byFile, byFunction, String(profiled.length)];
  });
}

function pathRows(runs, name) {
  return CACHE_STATES.map((state) => {
    const visits = runs.filter((run) => !run.error).map((run) => run.returns[state]);
    const summary = summarizeCriticalPaths(visits.map((visit) => visit.criticalPath));
    const ran = median(visits.map((visit) => visit.scriptMs));
    return [
      name,
      state,
      formatCriticalPath(summary),
      formatMs(ran),
      summary ? `${summary.runs} of ${summary.of}` : '-',
    ];
  });
}

/** The two breakdown tables of one profile; `runsOf` is `{variant: [run]}`. */
export function buildBreakdownTables(profileName, runsOf) {
  const variants = Object.entries(runsOf);
  return [
    {
      title: `Return visit: main-thread time by file and function, ${profileName} profile`,
      columns: [
        'variant',
        'cache',
        'script ms: metric · profile',
        '(program) ms',
        'by file: script ms',
        'by entry function: script ms',
        'runs',
      ],
      rows: variants.flatMap(([name, runs]) => timeRows(runs, name)),
      notes: [
        `Profiled return visits: after each measured run the same sequence again in a fresh context with the CPU profiler on (a sample every ${SAMPLING_INTERVAL_US} us) during the return visits, from the request to load and the blocked script run.`,
        "script ms: the profiled visit's CDP ScriptDuration (against the measured one: what the profiler added) · the profile's script samples; (program): the main thread busy outside script (HTML parsing, style, layout).",
        `Medians per entry over the runs (they need not add up to the median total), the ${SHOWN} largest and the rest. By file: the innermost frame with a script URL; by entry function: the outermost (a file's top-level evaluation or a callback), named after its source where a source map exists.`,
        `${PROBE_FILE}: the harness's probe (its every-frame poll of the prompt, with the style work checkVisibility forces); ${WITHOUT_URL}: Playwright's set-up; extensions::SafeBuiltins, v8/LoadTimes: Chromium's own.`,
      ],
    },
    {
      title: `Return visit: critical path to the blocked script, ${profileName} profile`,
      columns: ['variant', 'cache', 'critical path: requested-finished ms, source', 'script runs ms', 'runs on path'],
      rows: variants.flatMap(([name, runs]) => pathRows(runs, name)),
      notes: [
        'Each file was requested by the one before it ([parser]: by the page while parsing; [script]: by that file running). ms from navigation start, medians over the runs that took the most frequent path.',
        'Source: network, cache (HTTP cache), prefetch (prefetch cache), 304 (revalidated).',
      ],
    },
  ];
}
