// Self time per function of CDP `Profiler` profiles, summed over runs, and its printout (the
// profile scripts of bench/consent and bench/auto-ads).

/**
 * Adds `profile`'s self time per function, divided by `runs`, into `selfMs` (keyed
 * "script function @line:column"); frames without a script URL only when `withoutUrl` (then
 * named "-"). Returns the milliseconds added.
 */
export function addSelfTimes(selfMs, profile, { runs, withoutUrl }) {
  const byNode = new Map();
  for (const [index, id] of profile.samples.entries()) byNode.set(id, (byNode.get(id) ?? 0) + profile.timeDeltas[index] / 1000);
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
    for (const [key, ms] of entries.sort((a, b) => b[1] - a[1]).slice(0, count)) console.log(`${ms.toFixed(2).padStart(8)} ms  ${key}`);
  };
  print([...perScript], scripts);
  console.log('\nfunctions');
  print([...selfMs], functions);
}
