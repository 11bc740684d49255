#!/usr/bin/env node
/**
 * `npm run soak`: the real server (`node --import tsx server/main.ts`, SQLite file store) on
 * loopback under a fixed load for SOAK_SECONDS (default 60): SOAK_RATE requests per second
 * (default 500) of consent checks and updates, 3 to 1, from an allowed origin, with autocannon
 * over SOAK_CONNECTIONS connections (default 100).
 * Fails (exit 1) on any error, time-out or non-2xx answer, on a rate more than 5% below the
 * target, or when the server's heap after a full GC grows by more than SOAK_HEAP_GROWTH_MB
 * (default 16) between the end of the warm-up (the first 10 s, or a fifth of a shorter run) and
 * the end. Memory is sampled each second inside the server (a preloaded probe that runs
 * `gc()` and reports `process.memoryUsage()` over IPC). Prints one summary line.
 * Not part of `npm test` (docs/reliability.md, "Server"; docs/server.md, "Tests").
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { findFreePort } from '../bench/server/child-server.mjs';

const seconds = Number(process.env.SOAK_SECONDS || 60);
const rate = Number(process.env.SOAK_RATE || 500);
const heapBoundMb = Number(process.env.SOAK_HEAP_GROWTH_MB || 16);
/** Enough connections that the rate holds while answers take up to 200 ms (no pipelining). */
const connections = Number(process.env.SOAK_CONNECTIONS || 100);
const warmupSeconds = Math.min(10, Math.max(1, Math.floor(seconds / 5)));
const MB = 1024 * 1024;

/** Runs in the server process: a full GC, then its memory, every second, to the parent. */
const probe = `setInterval(() => { globalThis.gc?.(); process.send?.({ time: Date.now(), ...process.memoryUsage() }); }, 1000).unref();`;

async function waitHealthy(url, child) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`soak: the server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('soak: the server did not answer /healthz within 30 s');
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? 0;
};

const dir = mkdtempSync(join(tmpdir(), 'page-soak-'));
const port = await findFreePort();
const origin = `http://127.0.0.1:${port}`;
const child = spawn(
  process.execPath,
  ['--expose-gc', '--import', 'tsx', '--import', `data:text/javascript,${encodeURIComponent(probe)}`, 'server/main.ts'],
  {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: `sqlite:${join(dir, 'soak.db')}`,
      RATE_LIMIT_PER_MINUTE: '0',
      SHUTDOWN_DRAIN_MS: '0',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  },
);
const samples = [];
child.on('message', (sample) => samples.push(sample));

let failed = true;
try {
  await waitHealthy(origin, child);
  const headers = { 'content-type': 'application/json', origin };
  const check = JSON.stringify({
    consentInstanceId: 'soak',
    consentStateValue: 'unknown',
    matchedGeoGroup: 'eea',
    isDirty: false,
  });
  let user = 0;
  const started = Date.now();
  const result = await autocannon({
    url: origin,
    connections,
    overallRate: rate,
    duration: seconds,
    timeout: 10,
    requests: [
      { method: 'POST', path: '/consent/check', headers, body: check },
      { method: 'POST', path: '/consent/check', headers, body: check },
      { method: 'POST', path: '/consent/check', headers, body: check },
      {
        method: 'POST',
        path: '/consent/update',
        headers,
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({
            consentInstanceId: 'soak',
            pageUserId: `soak-${user++}`,
            consentStateValue: user % 2 ? 'accepted' : 'rejected',
            purposeConsents: { ads: user % 3 === 0 },
          }),
        }),
      },
    ],
  });
  const elapsed = (Date.now() - started) / 1000;
  const warm = samples.filter((sample) => sample.time - started >= warmupSeconds * 1000);
  const window = Math.max(1, Math.min(5, Math.floor(warm.length / 3)));
  const heapStart = median(warm.slice(0, window).map((sample) => sample.heapUsed)) / MB;
  const heapEnd = median(warm.slice(-window).map((sample) => sample.heapUsed)) / MB;
  const growth = heapEnd - heapStart;
  const rssMax = Math.max(...samples.map((sample) => sample.rss)) / MB;
  const achieved = result.requests.total / (result.duration || elapsed);
  const problems = [];
  if (result.errors) problems.push(`${result.errors} errors`);
  if (result.timeouts) problems.push(`${result.timeouts} time-outs`);
  if (result.non2xx) problems.push(`${result.non2xx} non-2xx`);
  if (achieved < rate * 0.95) problems.push(`rate ${achieved.toFixed(0)} req/s below ${rate * 0.95}`);
  if (warm.length < 2) problems.push(`only ${warm.length} memory samples after warm-up`);
  if (growth > heapBoundMb) problems.push(`heap grew ${growth.toFixed(1)} MB > ${heapBoundMb} MB`);
  failed = problems.length > 0;
  console.log(
    `soak: ${seconds} s at ${rate} req/s (check:update 3:1, SQLite, ${connections} connections): ${result.requests.total} requests (${achieved.toFixed(0)} req/s), ` +
      `${result.errors} errors, ${result.timeouts} time-outs, ${result.non2xx} non-2xx; latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms; ` +
      `heap after GC ${heapStart.toFixed(1)} -> ${heapEnd.toFixed(1)} MB (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB after ${warmupSeconds} s warm-up, bound ${heapBoundMb} MB), ` +
      `RSS max ${rssMax.toFixed(0)} MB, ${samples.length} samples: ${failed ? `FAIL (${problems.join('; ')})` : 'PASS'}`,
  );
} catch (error) {
  console.error(String(error instanceof Error ? error.message : error));
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.on('exit', resolve)));
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
