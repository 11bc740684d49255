// Part "server": autocannon against POST /consent/check and /consent/update of our server
// (SQLite, and PostgreSQL when initdb/pg_ctl are on PATH: one process, and two processes on the
// same database as a fleet) and of a bare Fastify app, in one invocation, targets interleaved
// per load; then the throughput goals (docs/decisions/server-throughput.md, "Goals") against the figures of this run, and the latency of
// normal requests while slow clients hold connections (slow-clients.mjs).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatNumber } from '../lib/format.mjs';
import { median, ratio } from '../lib/stats.mjs';
import { countAuditRows, settlePostgres } from './audit-rows.mjs';
import { startChildServer } from './child-server.mjs';
import {
  BODIES,
  CONNECTIONS,
  FIXED_RATES,
  load,
  loadFleet,
  pacedLoad,
  RETURNING,
  RETURNING_COOKIE,
  readLoad,
} from './load.mjs';
import { startPostgresCluster } from './postgres-cluster.ts';
import { measureSlowClients, slowClientTable } from './slow-clients.mjs';

const ROUTES = ['/consent/check', RETURNING, '/consent/update'];
/**
 * Saturation loads are cut into rounds, each running every target in turn, so a target is
 * compared with bare Fastify over the same minutes: on a shared machine the speed of both moves
 * by a third from one minute to the next.
 */
const SATURATION_ROUNDS = 3;
const ourEnv = (databaseUrl) => ({
  DATABASE_URL: databaseUrl,
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '0',
  MAX_AUTO_INSTANCES: '1000000',
});

const BARE = 'bare Fastify';
const SQLITE = 'ours, SQLite';
const POSTGRES = 'ours, PostgreSQL';
const FLEET = 'ours, PostgreSQL, 2 processes';

/**
 * With `taskset` and 2+ CPUs, the load client (this process, every thread) runs on CPU 0 and the
 * servers on the others, as a client and a server on two machines would: left to the scheduler,
 * client and server sometimes share one CPU for a whole load, and a run's figures jump between
 * two levels (bare Fastify 16,600 or 30,000 checks/s in one series). `null` when not pinned.
 */
function pinCpus() {
  const cpus = availableParallelism();
  if (cpus < 2) return null;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  } catch {
    return null;
  }
  return cpus === 2 ? '1' : `1-${cpus - 1}`;
}

async function startTargets(directory, serverCpus) {
  const start = (command, args, env) =>
    startChildServer(
      serverCpus ? { command: 'taskset', args: ['-c', serverCpus, command, ...args], env } : { command, args, env },
    );
  const ours = (databaseUrl) => start('node_modules/.bin/tsx', ['server/main.ts'], ourEnv(databaseUrl));
  const target = (name, servers, databaseUrl) => ({
    name,
    servers,
    urls: servers.map((server) => server.url),
    databaseUrl,
  });
  const targets = [target(BARE, [await start(process.execPath, ['bench/server/bare-app.mjs'], {})])];
  const sqlite = `sqlite:${join(directory, 'page.db')}`;
  targets.push(target(SQLITE, [await ours(sqlite)], sqlite));
  const postgres = await startPostgresCluster();
  if ('url' in postgres) {
    // The fleet gets a database of its own, so its audit rows are counted apart.
    const fleetUrl = postgres.url.replace(/\/[^/]*$/, '/page_fleet');
    await createDatabase(postgres.url, 'page_fleet');
    targets.push(target(POSTGRES, [await ours(postgres.url)], postgres.url));
    targets.push(target(FLEET, [await ours(fleetUrl), await ours(fleetUrl)], fleetUrl));
  }
  return { targets, postgres };
}

async function createDatabase(url, name) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
}

/**
 * Before each measured load: the PostgreSQL databases are vacuumed and checkpointed (else
 * autovacuum and the checkpointer, set off by earlier loads, ran during a later one: a paced
 * SQLite load after the PostgreSQL loads measured a p99 of 40 ms, 14-15 ms alone), the dirty
 * pages the previous loads left are flushed, and the machine gets a second, so a target does
 * not pay for another target's writes.
 */
async function settle(targets) {
  for (const { databaseUrl } of targets) if (databaseUrl?.startsWith('postgres')) await settlePostgres(databaseUrl);
  execFileSync('sync');
  await new Promise((resolve) => setTimeout(resolve, 1000));
}

/** Stores the returning reader's decision through each server (its checks then answer it). */
async function storeReturningDecision(target) {
  for (const url of target.urls) {
    const response = await fetch(`${url}/consent/update`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: RETURNING_COOKIE },
      body: JSON.stringify(BODIES['/consent/update']),
    });
    if (!response.ok) throw new Error(`${target.name}: the returning reader's update answered ${response.status}`);
  }
}

async function measure(target, route, options, targets) {
  await settle(targets);
  const isUpdate = route === '/consent/update' && target.databaseUrl;
  const before = isUpdate ? await countAuditRows(target.databaseUrl) : 0;
  const result =
    'rate' in options
      ? await pacedLoad({ urls: target.urls, route, ...options })
      : target.urls.length === 1
        ? readLoad(await load({ url: target.urls[0], route, ...options }))
        : await loadFleet({ urls: target.urls, route, ...options });
  const rows = isUpdate ? (await countAuditRows(target.databaseUrl)) - before : null;
  return { ...result, durableWritesPerSecond: rows === null ? null : rows / result.seconds };
}

/** One figure set of a target's saturation rounds: medians of the rounds' rates and p50, the worst p99, sums of the rest. */
function combineRounds(rounds) {
  const seconds = rounds.reduce((total, round) => total + round.seconds, 0);
  const requests = rounds.reduce((total, round) => total + round.requests, 0);
  const p90s = rounds.map((round) => round.requestsPerSecond.p90);
  return {
    requestsPerSecond: {
      median: median(rounds.map((round) => round.requestsPerSecond.median)),
      p90: p90s.includes(null) ? null : median(p90s),
      average: requests / seconds,
    },
    latencyMs: {
      p50: median(rounds.map((round) => round.latencyMs.p50)),
      p99: Math.max(...rounds.map((round) => round.latencyMs.p99)),
    },
    errors: rounds.reduce((total, round) => total + round.errors, 0),
    requests,
    seconds,
    durableWritesPerSecond:
      rounds[0].durableWritesPerSecond === null
        ? null
        : rounds.reduce((total, round) => total + round.durableWritesPerSecond * round.seconds, 0) / seconds,
  };
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
    formatNumber(FIXED_RATES[route]),
    formatNumber(fixed.requests / fixed.seconds),
    `${formatNumber(fixed.latencyMs.p50)} / ${formatNumber(fixed.latencyMs.p99)}`,
    formatNumber(fixed.errors),
  ]);
}

/** The throughput goals (docs/decisions/server-throughput.md, "Goals"), each read from this run's figures of one target (SQLite unless named). */
const GOALS = [
  {
    figure: '`/consent/check` requests/s',
    route: '/consent/check',
    goal: '>= 0.6x bare',
    read: (m, target) => m[target]?.saturation.requestsPerSecond.median,
    show: (value, m) =>
      `${formatNumber(value)} (${formatNumber(ratio(value, m[BARE].saturation.requestsPerSecond.median), 2)}x)`,
    met: (value, m) => ratio(value, m[BARE].saturation.requestsPerSecond.median) >= 0.6,
  },
  {
    figure: `\`/consent/check\` p99 at a fixed ${formatNumber(FIXED_RATES['/consent/check'])} req/s`,
    route: '/consent/check',
    goal: '< 20 ms',
    read: (m, target) => m[target]?.fixed.latencyMs.p99,
    show: (value) => `${formatNumber(value)} ms`,
    met: (value) => value < 20,
  },
  {
    figure: '`/consent/check` of a returning reader (user cookie, stored decision) requests/s',
    route: RETURNING,
    goal: '>= 0.6x bare',
    read: (m, target) => m[target]?.saturation.requestsPerSecond.median,
    show: (value, m) =>
      `${formatNumber(value)} (${formatNumber(ratio(value, m[BARE].saturation.requestsPerSecond.median), 2)}x)`,
    met: (value, m) => ratio(value, m[BARE].saturation.requestsPerSecond.median) >= 0.6,
  },
  {
    figure: `\`/consent/check\` of a returning reader, p99 at a fixed ${formatNumber(FIXED_RATES[RETURNING])} req/s`,
    route: RETURNING,
    goal: '< 20 ms',
    read: (m, target) => m[target]?.fixed.latencyMs.p99,
    show: (value) => `${formatNumber(value)} ms`,
    met: (value) => value < 20,
  },
  {
    figure: '`/consent/update` rows durable in the audit log per second',
    route: '/consent/update',
    goal: '>= 3,000 (SQLite)',
    read: (m, target) => m[target]?.saturation.durableWritesPerSecond,
    show: (value) => formatNumber(value),
    met: (value) => value >= 3000,
  },
  {
    figure: `\`/consent/update\` p99 at a fixed ${formatNumber(FIXED_RATES['/consent/update'])} req/s`,
    route: '/consent/update',
    goal: '< 30 ms',
    read: (m, target) => m[target]?.fixed.latencyMs.p99,
    show: (value) => `${formatNumber(value)} ms`,
    met: (value) => value < 30,
  },
];

function goalRows(measured) {
  const byRoute = {};
  for (const row of measured) (byRoute[row.route] ??= {})[row.target] = row;
  return GOALS.map(({ figure, route, goal, read, show, met }) => {
    const m = byRoute[route];
    const cell = (target) => {
      const value = read(m, target);
      return value === undefined || value === null ? '-' : show(value, m);
    };
    const ours = read(m, SQLITE);
    const verdict = ours === undefined || ours === null ? '-' : met(ours, m) ? 'yes' : 'NO';
    return [figure, cell(BARE), cell(SQLITE), goal, verdict, cell(POSTGRES), cell(FLEET)];
  });
}

export async function runServerPart({ duration }) {
  const directory = mkdtempSync(join(tmpdir(), 'page-bench-'));
  const serverCpus = pinCpus();
  const { targets, postgres } = await startTargets(directory, serverCpus);
  const measured = [];
  try {
    for (const route of ROUTES) {
      if (route === RETURNING)
        for (const target of targets.filter(({ name }) => name !== BARE)) await storeReturningDecision(target);
      // Warm-up (JIT, instance created on first use, connection pools); not recorded.
      for (const target of targets) for (const url of target.urls) await load({ url, route, duration: 1 });
      const results = Object.fromEntries(targets.map((target) => [target.name, { rounds: [] }]));
      for (let round = 1; round <= SATURATION_ROUNDS; round++) {
        for (const target of targets) {
          console.log(`server: ${route} saturation ${target.name} (round ${round} of ${SATURATION_ROUNDS})`);
          results[target.name].rounds.push(
            await measure(target, route, { duration: duration / SATURATION_ROUNDS }, targets),
          );
        }
      }
      for (const target of targets) results[target.name] = { saturation: combineRounds(results[target.name].rounds) };
      for (const target of [...targets].reverse()) {
        console.log(`server: ${route} fixed ${target.name}`);
        results[target.name].fixed = await measure(target, route, { duration, rate: FIXED_RATES[route] }, targets);
      }
      for (const target of targets)
        measured.push({ route, target: target.name, ...results[target.name], bare: results[BARE].saturation });
    }
  } finally {
    await Promise.all(targets.flatMap((target) => target.servers.map((server) => server.stop())));
    if ('stop' in postgres) postgres.stop();
    if (serverCpus)
      execFileSync('taskset', ['-a', '-p', '-c', `0-${availableParallelism() - 1}`, String(process.pid)], {
        stdio: 'ignore',
      });
    rmSync(directory, { recursive: true, force: true });
  }
  console.log('server: normal requests beside slow clients');
  const slowClients = await measureSlowClients(ourEnv('memory:'));
  const skipped = 'skipped' in postgres ? [`PostgreSQL skipped: ${postgres.skipped}.`] : [];
  return {
    part: 'server',
    title: 'Server load',
    description: `Saturation: autocannon, ${CONNECTIONS} connections, ${duration} s per target in ${SATURATION_ROUNDS} rounds that run every target in turn (req/s and p50: medians of the rounds; p99: the worst round). Fixed rate: evenly spaced requests, open loop, over ${CONNECTIONS} keep-alive connections opened and warmed for 1 s first, latency counted from each request's scheduled time (bench/server/load.mjs, pacedLoad). Client and servers on this machine${serverCpus ? `, the client pinned to CPU 0 and the servers to CPU ${serverCpus} (PostgreSQL not pinned)` : ', not pinned to CPUs'}; our server run by \`tsx server/main.ts\` with LOG_LEVEL=warn, RATE_LIMIT_PER_MINUTE=0 (SQLite: synchronous=FULL). The 2-process fleet shares one PostgreSQL database; each process gets half the connections and every other request of the fixed rate.`,
    tables: [
      {
        title: 'Goals',
        columns: [
          'figure',
          'bare Fastify',
          'ours, SQLite',
          'goal',
          'met',
          'ours, PostgreSQL',
          'PostgreSQL, 2 processes',
        ],
        rows: goalRows(measured),
        notes: [
          '"met" judges the SQLite figure, as docs/decisions/server-throughput.md does; the PostgreSQL columns are for comparison (fsync=off cluster).',
        ],
      },
      {
        title: 'Saturation',
        columns: [
          'route',
          'target',
          'req/s median / p90',
          'vs bare',
          'latency ms p50 / p99',
          'errors',
          'durable writes/s',
        ],
        rows: saturationRows(measured),
        notes: [
          'req/s: per round, median / p90 of the per-second samples (the 2-process fleet: its requests / seconds, no p90); the median of the rounds is shown. Durable writes/s: audit-log rows added during the rounds / their seconds.',
          ...skipped,
        ],
      },
      {
        title: 'Fixed rate',
        columns: ['route', 'target', 'req/s offered', 'req/s achieved', 'latency ms p50 / p99', 'errors'],
        rows: fixedRateRows(measured),
        notes: ['The bare app answers from memory: its figures are the ceiling of this machine, client included.'],
      },
      slowClientTable(slowClients),
    ],
    data: { measured, slowClients },
  };
}
