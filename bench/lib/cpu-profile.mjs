// CDP `Profiler` profiles: self time per function summed over runs and its printout (the
// profile scripts of bench/consent and bench/auto-ads), and main-thread time by file and by
// entry function (the consent part's breakdown of a return visit).
import { median } from './stats.mjs';

/**
 * Adds `profile`'s self time per function, divided by `runs`, into `selfMs` (keyed
 * "script function @line:column"); frames without a script URL only when `withoutUrl` (then
 * named "-"). Returns the milliseconds added.
 */
export function addSelfTimes(selfMs, profile, { runs, withoutUrl }) {
  const byNode = new Map();
  for (const [index, id] of profile.samples.entries())
    byNode.set(id, (byNode.get(id) ?? 0) + profile.timeDeltas[index] / 1000);
  let added = 0;
  for (const { id, callFrame } of profile.nodes) {
    if (!byNode.has(id) || (!callFrame.url && !withoutUrl)) continue;
    const ms = byNode.get(id) / runs;
    const key = `${callFrame.url.split('/').pop() || '-'} ${callFrame.functionName || '(top level)'} @${callFrame.lineNumber + 1}:${callFrame.columnNumber + 1}`;
    selfMs.set(key, (selfMs.get(key) ?? 0) + ms);
    added += ms;
  }
  return added;
}

/** Prints the self time per script (the `scripts` largest), then the `functions` largest functions. */
export function printSelfTimes(selfMs, { scripts, functions }) {
  const perScript = new Map();
  for (const [key, ms] of selfMs) perScript.set(key.split(' ')[0], (perScript.get(key.split(' ')[0]) ?? 0) + ms);
  const print = (entries, count) => {
    for (const [key, ms] of entries.sort((a, b) => b[1] - a[1]).slice(0, count))
      console.log(`${ms.toFixed(2).padStart(8)} ms  ${key}`);
  };
  print([...perScript], scripts);
  console.log('\nfunctions');
  print([...selfMs], functions);
}

/** V8's node for the main thread's work outside JavaScript; `(idle)` is the thread waiting for work. */
const PROGRAM_NODE = '(program)';
const GC_NODE = '(garbage collector)';
const IDLE_NODE = '(idle)';
/** Samples with no script frame and no native node: scripts without a URL (the harness's probe, Playwright's set-up). */
export const WITHOUT_URL = '(no script URL)';

/** The last path segment of a script URL: the file (an engine-internal name such as `extensions::SafeBuiltins` as it is). */
export function fileOf(url) {
  if (!/^https?:/.test(url)) return url;
  return new URL(url).pathname.split('/').pop() || url;
}

/** "file function@line:column" of a call frame; "file (top level)" for a script's own evaluation. */
export function describeFrame({ url, functionName, lineNumber, columnNumber }) {
  return functionName
    ? `${fileOf(url)} ${functionName}@${lineNumber + 1}:${columnNumber + 1}`
    : `${fileOf(url)} (top level)`;
}

function parentsOf(profile) {
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  return parents;
}

/** `{file, entry}` of the stack ending at `node`: its innermost and outermost frames with a script URL. */
function attribute(node, nodes, parents, describe) {
  let inner = null;
  let outer = null;
  for (let current = node; current; current = nodes.get(parents.get(current.id))) {
    if (!current.callFrame.url) continue;
    inner ??= current.callFrame;
    outer = current.callFrame;
  }
  if (inner) return { file: fileOf(inner.url), entry: describe(outer) };
  const name = node.callFrame.functionName;
  return name === GC_NODE ? { file: name, entry: name } : { file: WITHOUT_URL, entry: WITHOUT_URL };
}

/**
 * Main-thread time of a CDP `Profiler` profile: `{scriptMs, programMs, byFile, byFunction}`.
 * `programMs` is V8's `(program)` (the thread busy outside JavaScript: parsing HTML, style,
 * layout), `(idle)` is left out, and the rest is script (`scriptMs`), split by file (the innermost
 * frame with a script URL: what that file's code ran, native calls included) and by entry
 * function (the outermost: a file's top-level evaluation, a callback); `(garbage collector)` and
 * scripts without a URL stand alone. A sample counts the time since the previous one.
 * `describe` names a call frame.
 */
export function mainThreadTime(profile, { describe = describeFrame } = {}) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = parentsOf(profile);
  const attributions = new Map();
  const time = { scriptMs: 0, programMs: 0, byFile: {}, byFunction: {} };
  for (const [index, id] of profile.samples.entries()) {
    const node = nodes.get(id);
    const ms = profile.timeDeltas[index] / 1000;
    const name = node?.callFrame.functionName;
    if (!node || name === IDLE_NODE) continue;
    if (name === PROGRAM_NODE) {
      time.programMs += ms;
      continue;
    }
    if (!attributions.has(id)) attributions.set(id, attribute(node, nodes, parents, describe));
    const { file, entry } = attributions.get(id);
    time.byFile[file] = (time.byFile[file] ?? 0) + ms;
    time.byFunction[entry] = (time.byFunction[entry] ?? 0) + ms;
    time.scriptMs += ms;
  }
  return time;
}

/** Per key, the median over `tables` (`{key: ms}` each; a key a table lacks counts 0), largest first. */
export function medianByKey(tables) {
  const keys = new Set(tables.flatMap((table) => Object.keys(table)));
  const medians = [...keys].map((key) => [key, median(tables.map((table) => table[key] ?? 0))]);
  return medians.sort((a, b) => b[1] - a[1]);
}
