// `npm test`: everything, in order. Installs or finds what it needs (Chromium), then
// typecheck, lint, build, size budgets, unit, server (with a throwaway PostgreSQL) and
// Chromium end-to-end tests. Prints each step's seconds, the total and the test counts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { ensureChromium } from './ensure-chromium.mjs';

const steps = [
  ['typecheck', 'npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']],
  ['lint', 'npx', ['biome', 'check', '.']],
  ['build', 'node', ['scripts/build.mjs']],
  ['size', 'node', ['scripts/size.mjs']],
  ...['unit', 'server', 'e2e'].map((project) => [
    project,
    'npx',
    ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=test-results/${project}.json`],
  ]),
];

const began = Date.now();
const only = process.argv.slice(2);
let passed = 0;
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
for (const [name, command, args] of steps) {
  if (only.length && !only.includes(name)) continue;
  console.log(`\n== ${name}`);
  const stepBegan = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit' });
  seconds.push(`${name} ${((Date.now() - stepBegan) / 1000).toFixed(1)}`);
  const report = `test-results/${name}.json`;
  if (existsSync(report)) {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    passed += json.numPassedTests;
    failed += json.numFailedTests;
    skipped += json.numPendingTests + json.numTodoTests;
  }
  if (result.status !== 0) failures.push(name);
}
console.log(`\nsteps failed: ${failures.length ? failures.join(', ') : 'none'}`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
console.log(`seconds: ${seconds.join(', ')}; total ${((Date.now() - began) / 1000).toFixed(1)}`);
process.exit(failures.length ? 1 : 0);
