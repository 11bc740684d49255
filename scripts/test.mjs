// `npm test`: everything. Installs or finds what it needs (Chromium, and better-sqlite3's native
// binding when the install skipped its build), then typecheck, lint, build, size budgets, unit,
// server (with a throwaway PostgreSQL) and Chromium end-to-end tests, in the groups of `GROUPS`.
// Prints each step's seconds, the total and the test counts.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { relative } from 'node:path';
import { ensureChromium } from './ensure-chromium.mjs';
import { BINDING, takeBuild } from './native-build.mjs';

const steps = [
  ['typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['lint', 'npx', ['biome', 'check', '.']],
  ['build', 'node', ['scripts/build.mjs']],
  ['size', 'node', ['scripts/size.mjs']],
  ...['unit', 'server', 'e2e'].map((project) => [
    project,
    'npx',
    [
      'vitest',
      'run',
      '--project',
      project,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=test-results/${project}.json`,
      // Side by side, two runs would write vitest's one results cache at once, and a torn file
      // stops the next run at its start; only the e2e files' order reads it (vitest.config.ts).
      ...(project === 'e2e' ? [] : ['--no-cache']),
    ],
  ]),
];

/**
 * The steps in groups: a group starts when the one before it has ended, and its steps run side by
 * side, each step's output held and printed whole when it ends (a lone step prints as it goes).
 * Size, unit and server read the build and nothing the others write; side by side, what one leaves
 * idle (the server tests wait on PostgreSQL and sockets) the other uses: 65.9 s against 76.3 s in
 * turn, in a fresh-clone run. Typecheck, lint and build each use every core already (31 s side by
 * side, 31 s in turn), and the e2e files take a core each (vitest.config.ts):
 * bench/results/test-suite.md.
 */
const GROUPS = [['typecheck'], ['lint'], ['build'], ['size', 'unit', 'server'], ['e2e']];

/**
 * better-sqlite3's native binding, which only the server and e2e steps load. Compiling it takes
 * about a minute of one core (its prebuilt binary would come from outside the npm registry), so an
 * install that skipped it gets it here, before the first step that loads it: from the folder named
 * by `NATIVE_BUILD`, where `.ci/run` started building it before the install
 * (scripts/native-build.mjs), or else built in place beside the steps before that one, its output
 * in `test-results/native.log`.
 */
const NEEDS_BINDING = ['server', 'e2e'];

/**
 * Runs one step and adds its `name seconds` to `seconds`; resolves with its exit status. The steps
 * run without blocking this process, so a build beside them is timed when it really ends. With
 * `stdio` 'held', the step's output is kept and printed under its heading when it ends.
 */
function run(name, command, args, stdio) {
  const stepBegan = Date.now();
  const isHeld = stdio === 'held';
  const child = spawn(command, args, { stdio: isHeld ? ['ignore', 'pipe', 'pipe'] : stdio });
  const held = [];
  if (isHeld) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => held.push(chunk));
  return new Promise((resolve) => {
    child.on('error', () => resolve(1));
    child.on('close', (status) => {
      seconds.push(`${name} ${((Date.now() - stepBegan) / 1000).toFixed(1)}`);
      if (isHeld) {
        console.log(`\n== ${name}`);
        process.stdout.write(Buffer.concat(held));
      }
      resolve(status);
    });
  });
}

function buildBinding() {
  const log = openSync('test-results/native.log', 'w');
  const built = run('native', 'npm', ['rebuild', 'better-sqlite3', '--foreground-scripts'], ['ignore', log, log]);
  closeSync(log);
  return built;
}

/**
 * The binding from the build ahead, waited for beside the first steps (`native ahead`: its seconds
 * from here until it is in place); built in place if that build failed.
 */
async function takeBindingBuiltAhead(folder) {
  const waitBegan = Date.now();
  const isTaken = await takeBuild(folder);
  seconds.push(`native ahead ${((Date.now() - waitBegan) / 1000).toFixed(1)}`);
  return isTaken ? 0 : buildBinding();
}

const began = Date.now();
const only = process.argv.slice(2);
let passed = 0;
/** Tests that passed only when run again (the e2e project retries once): `file > name: first failure`. */
const flaky = [];
let failed = 0;
let skipped = 0;
const failures = [];
/** `name seconds` of every step run. */
const seconds = [];
try {
  ensureChromium();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
rmSync('test-results', { recursive: true, force: true });
mkdirSync('test-results', { recursive: true });
const wanted = steps.filter(([name]) => !only.length || only.includes(name));
const needsBinding = !existsSync(BINDING) && wanted.some(([name]) => NEEDS_BINDING.includes(name));
const ahead = process.env.NATIVE_BUILD;
if (needsBinding)
  console.log(
    `\n== native: ${ahead ? `taking better-sqlite3's binding from the build ahead in ${ahead}` : 'building better-sqlite3 beside the first steps (test-results/native.log)'}`,
  );
/** The binding's build or its take from the build ahead, started now beside the first steps; null when not needed. */
const binding = needsBinding ? (ahead ? takeBindingBuiltAhead(ahead) : buildBinding()) : null;
/** Adds a finished step's test counts and retried tests to the totals. */
function count(name) {
  const report = `test-results/${name}.json`;
  if (!existsSync(report)) return;
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed += json.numPassedTests;
  failed += json.numFailedTests;
  skipped += json.numPendingTests + json.numTodoTests;
  for (const file of json.testResults)
    for (const test of file.assertionResults)
      if (test.status === 'passed' && test.failureMessages?.length)
        flaky.push(`${relative('.', file.name)} > ${test.fullName}: ${test.failureMessages[0].split('\n')[0]}`);
}

/** Resolves once the binding is in place (or its build failed, which fails the run), for the steps that load it. */
const bindingReady = (binding ?? Promise.resolve(0)).then((status) => {
  if (status === 0) return;
  console.log(readFileSync('test-results/native.log', 'utf8'));
  failures.push('native');
});

for (const group of GROUPS) {
  const members = wanted.filter(([name]) => group.includes(name));
  if (!members.length) continue;
  if (members.length === 1) console.log(`\n== ${members[0][0]}`);
  const stdio = members.length === 1 ? 'inherit' : 'held';
  const statuses = await Promise.all(
    members.map(async ([name, command, args]) => {
      if (NEEDS_BINDING.includes(name)) await bindingReady;
      return run(name, command, args, stdio);
    }),
  );
  members.forEach(([name], index) => {
    count(name);
    if (statuses[index] !== 0) failures.push(name);
  });
}
console.log(`\nsteps failed: ${failures.length ? failures.join(', ') : 'none'}`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
console.log(`flaky (passed when run again): ${flaky.length ? `${flaky.length}\n  ${flaky.join('\n  ')}` : 'none'}`);
console.log(`seconds: ${seconds.join(', ')}; total ${((Date.now() - began) / 1000).toFixed(1)}`);
process.exit(failures.length ? 1 : 0);
