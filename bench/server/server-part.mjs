// Part "server": autocannon against POST /consent/check and /consent/update of our server
// (SQLite, and PostgreSQL when initdb/pg_ctl are on PATH) and of a bare Fastify app, in one
// invocation, targets interleaved per load.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatNumber } from '../lib/format.mjs';
import { ratio } from '../lib/stats.mjs';
import { countAuditRows } from './audit-rows.mjs';
import { startChildServer } from './child-server.mjs';
import { CONNECTIONS, FIXED_RATE, load, readLoad } from './load.mjs';
import { startPostgresCluster } from './postgres-cluster.ts';

const ROUTES = ['/consent/check', '/consent/update'];
const ourEnv = (databaseUrl) => ({ DATABASE_URL: databaseUrl, HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0', MAX_AUTO_INSTANCES: '1000000' });

async function startTargets(directory) {
  const tsx = 'node_modules/.bin/tsx';
  const targets = [{ name: 'bare Fastify', server: await startChildServer({ command: process.execPath, args: ['bench/server/bare-app.mjs'], env: {} }) }];
  const sqlite = `sqlite:${join(directory, 'page.db')}`;
  targets.push({ name: 'ours, SQLite', databaseUrl: sqlite, server: await startChildServer({ command: tsx, args: ['server/main.ts'], env: ourEnv(sqlite) }) });
  const postgres = await startPostgresCluster();
  if ('url' in postgres) {
    targets.push({ name: 'ours, PostgreSQL', databaseUrl: postgres.url, server: await startChildServer({ command: tsx, args: ['server/main.ts'], env: ourEnv(postgres.url) }) });
  }
  return { targets, postgres };
}

async function measure(target, route, options) {
  const isUpdate = route === '/consent/update' && target.databaseUrl;
  const before = isUpdate ? await countAuditRows(target.databaseUrl) : 0;
  const result = readLoad(await load({ url: target.server.url, route, ...options }));
  const rows = isUpdate ? (await countAuditRows(target.databaseUrl)) - before : null;
  return { ...result, durableWritesPerSecond: rows === null ? null : rows / result.seconds };
}

function saturationRows(measured) {
  return measured.map(({ route, target, saturation, bare }) => [
    route,
    target,
    `${formatNumber(saturation.requestsPerSecond.median)} / ${formatNumber(saturation.requestsPerSecond.p90)}`,
    `${formatNumber(ratio(saturation.requestsPerSecond.median, bare.requestsPerSecond.median), 2)}x`,
    `${formatNumber(saturation.latencyMs.p50)} / ${formatNumber(saturation.latencyMs.p99)}`,
    formatNumber(saturation.errors),
    formatNumber(saturation.durableWritesPerSecond),
  ]);
}

function fixedRateRows(measured) {
  return measured.map(({ route, target, fixed }) => [
    route,
    target,
    formatNumber(fixed.requests / fixed.seconds),
    `${formatNumber(fixed.latencyMs.p50)} / ${formatNumber(fixed.latencyMs.p99)}`,
    formatNumber(fixed.errors),
  ]);
}

export async function runServerPart({ duration }) {
  const directory = mkdtempSync(join(tmpdir(), 'page-bench-'));
  const { targets, postgres } = await startTargets(directory);
  const measured = [];
  try {
    for (const route of ROUTES) {
      // Warm-up (JIT, instance created on first use, connection pools); not recorded.
      for (const target of targets) await load({ url: target.server.url, route, duration: 1 });
      const results = Object.fromEntries(targets.map((target) => [target.name, {}]));
      for (const [mode, options] of [['saturation', { duration }], ['fixed', { duration, rate: FIXED_RATE }]]) {
        for (const target of mode === 'fixed' ? [...targets].reverse() : targets) {
          console.log(`server: ${route} ${mode} ${target.name}`);
          results[target.name][mode] = await measure(target, route, options);
        }
      }
      for (const target of targets) measured.push({ route, target: target.name, ...results[target.name], bare: results['bare Fastify'].saturation });
    }
  } finally {
    await Promise.all(targets.map((target) => target.server.stop()));
    if ('stop' in postgres) postgres.stop();
    rmSync(directory, { recursive: true, force: true });
  }
  const skipped = 'skipped' in postgres ? [`PostgreSQL skipped: ${postgres.skipped}.`] : [];
  return {
    part: 'server',
    title: 'Server load',
    description: `autocannon, ${CONNECTIONS} connections, ${duration} s per load, client and servers on this machine; our server run by \`tsx server/main.ts\` with LOG_LEVEL=warn, RATE_LIMIT_PER_MINUTE=0.`,
    tables: [
      {
        title: 'Saturation',
        columns: ['route', 'target', 'req/s median / p90', 'vs bare', 'latency ms p50 / p99', 'errors', 'durable writes/s'],
        rows: saturationRows(measured),
        notes: ['req/s: median / p90 of the per-second samples of one load. Durable writes/s: audit-log rows added during the load / its seconds.', ...skipped],
      },
      {
        title: `Fixed rate (${formatNumber(FIXED_RATE)} req/s offered)`,
        columns: ['route', 'target', 'req/s achieved', 'latency ms p50 / p99', 'errors'],
        rows: fixedRateRows(measured),
        notes: ['The bare app answers from memory: its figures are the ceiling of this machine, client included.'],
      },
    ],
    data: { measured },
  };
}
