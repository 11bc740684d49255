// `npm run bench -- [part...] [--runs N] [--quick] [--duration S]`: runs the benchmark parts
// (size, consent, auto-ads, server, hosted, test-page), prints a table per part and writes bench/results/.
// How to read every figure: bench/README.md.
import { parseArgs } from './lib/args.mjs';
import { describeMachine, writePartResult, writeSummary } from './lib/results.mjs';
import { formatConsoleTable } from './lib/table.mjs';

const PART_RUNNERS = {
  size: async () => (await import('./size/size-part.mjs')).runSizePart,
  consent: async () => (await import('./consent/consent-part.mjs')).runConsentPart,
  'auto-ads': async () => (await import('./auto-ads/auto-ads-part.mjs')).runAutoAdsPart,
  server: async () => (await import('./server/server-part.mjs')).runServerPart,
  hosted: async () => (await import('./hosted/hosted-part.mjs')).runHostedPart,
  'test-page': async () => (await import('./test-page/test-page-part.mjs')).runTestPagePart,
};

let options;
try {
  options = parseArgs(process.argv.slice(2));
} catch (error) {
  console.error(error.message);
  process.exit(2);
}
const started = Date.now();
const meta = { date: new Date().toISOString(), machine: describeMachine(), runs: options.runs, quick: options.quick };
const results = [];
for (const part of options.parts) {
  const partStarted = Date.now();
  console.log(`\n# ${part}`);
  const run = await PART_RUNNERS[part]();
  const result = { ...(await run(options)), seconds: Math.round((Date.now() - partStarted) / 1000) };
  for (const table of result.tables) console.log(formatConsoleTable(table));
  console.log(`(${part}: ${result.seconds} s)`);
  writePartResult(result, meta);
  results.push(result);
}
const durationSeconds = Math.round((Date.now() - started) / 1000);
writeSummary(results, { ...meta, durationSeconds });
console.log(`\nbench: ${options.parts.join(', ')} in ${durationSeconds} s; results in bench/results/ (summary.md)`);
