// `node bench/server/profile.mjs [/consent/check|/consent/update] [seconds]`: runs our server
// (SQLite in a temp dir) under `node --cpu-prof`, loads one route with autocannon as the bench
// does, stops the server with SIGINT and prints the functions with the most self time. The
// .cpuprofile is kept (path printed) for Chrome DevTools. Not part of `npm run bench`.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from './child-server.mjs';
import { load, readLoad } from './load.mjs';

const route = process.argv[2] ?? '/consent/check';
const seconds = Number(process.argv[3] ?? 5);
const directory = mkdtempSync(join(tmpdir(), 'page-profile-'));
const port = await findFreePort();
const child = spawn(
  process.execPath,
  ['--cpu-prof', `--cpu-prof-dir=${directory}`, '--import', 'tsx', 'server/main.ts'],
  {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      MAX_AUTO_INSTANCES: '1000000',
      DATABASE_URL: `sqlite:${join(directory, 'page.db')}`,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  },
);
const url = `http://127.0.0.1:${port}`;
for (
  let tries = 0;
  !(await fetch(`${url}/healthz`).then(
    (r) => r.ok,
    () => false,
  ));
  tries++
) {
  if (tries > 100) throw new Error('server did not start');
  await new Promise((resolve) => setTimeout(resolve, 200));
}
await load({ url, route, duration: 1 });
const result = readLoad(await load({ url, route, duration: seconds }));
console.log(`${route}: ${Math.round(result.requestsPerSecond.median)} req/s median, p99 ${result.latencyMs.p99} ms`);
await new Promise((resolve) => {
  child.once('exit', resolve);
  child.kill('SIGINT');
});

const file = readdirSync(directory).find((name) => name.endsWith('.cpuprofile'));
const profile = JSON.parse(readFileSync(join(directory, file), 'utf8'));
const selfSamples = new Map();
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
for (const id of profile.samples) selfSamples.set(id, (selfSamples.get(id) ?? 0) + 1);
const totals = new Map();
for (const [id, count] of selfSamples) {
  const { functionName, url: script, lineNumber } = byId.get(id).callFrame;
  const key = `${functionName || '(anonymous)'} ${script.replace(/^.*node_modules\//, '').replace(process.cwd(), '')}:${lineNumber + 1}`;
  totals.set(key, (totals.get(key) ?? 0) + count);
}
const all = profile.samples.length;
console.log(`profile: ${join(directory, file)} (${all} samples)`);
for (const [key, count] of [...totals].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
  console.log(`${((100 * count) / all).toFixed(1).padStart(5)}%  ${key}`);
}
