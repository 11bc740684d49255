// better-sqlite3's native binding, built ahead of the install. Compiling it takes about a minute of
// one core (its prebuilt binary would come from outside the npm registry). `.ci/run` starts
// `node scripts/native-build.mjs <folder>` first, so the compile runs beside `npm ci
// --ignore-scripts` and the first steps of `npm test`, and `npm test` (scripts/test.mjs) takes
// the binding from the folder when a step first needs it. Node's built-ins only: `node_modules`
// does not exist yet when it starts.
import { spawn } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Where the server and e2e steps load the binding from. */
export const BINDING = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';

/**
 * Starts the build in `folder`, a package of its own that depends on the version in
 * `package-lock.json` (its install script compiles the binding as `npm ci` would), and returns at
 * once. The build's output goes to `folder/log`, its exit status to `folder/status`.
 */
export function startBuild(folder) {
  const { version } = JSON.parse(readFileSync('package-lock.json', 'utf8')).packages['node_modules/better-sqlite3'];
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, 'package.json'),
    JSON.stringify({ private: true, dependencies: { 'better-sqlite3': version } }),
  );
  const log = openSync(join(folder, 'log'), 'w');
  // The status is written whole, then renamed: a reader never sees it empty.
  const install =
    'npm install --no-audit --no-fund --no-package-lock --foreground-scripts; echo $? > status.part; mv status.part status';
  spawn('sh', ['-c', install], { cwd: folder, detached: true, stdio: ['ignore', log, log] }).unref();
  closeSync(log);
}

/**
 * Waits for the build in `folder`, at most `limitMs`, and copies its binding to `target`. Resolves
 * with true when the binding is in place; false (the build failed or did not end in time, its log
 * printed) leaves the caller to build it where it is.
 */
export async function takeBuild(folder, { limitMs = 600_000, target = BINDING } = {}) {
  const status = join(folder, 'status');
  for (const end = Date.now() + limitMs; !existsSync(status) && Date.now() < end; ) await sleep(250);
  const built = join(folder, BINDING);
  if (existsSync(status) && readFileSync(status, 'utf8').trim() === '0' && existsSync(built)) {
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(built, target);
    return true;
  }
  console.log(
    `native: the build ahead in ${folder} ${existsSync(status) ? 'failed' : 'did not end in time'}; building in place`,
  );
  if (existsSync(join(folder, 'log'))) console.log(readFileSync(join(folder, 'log'), 'utf8'));
  return false;
}

if (import.meta.url === `file://${process.argv[1]}`) startBuild(process.argv[2] ?? '.native-build');
