/**
 * Drain on SIGTERM with the real server process: keep-alive traffic keeps getting 2xx answers
 * while /healthz answers 503, a request still in flight when the drain ends finishes, and the
 * process exits 0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createShutdown } from '../../server/shutdown.ts';
import { buildApp } from './app-harness.ts';
import { type ServerProcess, startServer } from './server-process.ts';

let dir = '';
const running: ServerProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'page-shutdown-'));
});
afterEach(() => {
  for (const server of running.splice(0)) server.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

type Answer = { status: number; body: string; connection: string | undefined };

/** One request; `bodyParts` are written with `pauseMs` between them (a slow upload). */
function send(
  port: number,
  options: { method?: string; path: string; agent?: Agent; bodyParts?: string[]; pauseMs?: number },
): Promise<Answer> {
  const parts = options.bodyParts ?? [];
  const length = parts.reduce((sum, part) => sum + Buffer.byteLength(part), 0);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        agent: options.agent ?? false,
        headers: parts.length ? { 'content-type': 'application/json', 'content-length': length } : {},
      },
      (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
      },
    );
    req.on('error', reject);
    const writeFrom = (index: number) => {
      if (index >= parts.length) return void req.end();
      req.write(parts[index]);
      setTimeout(() => writeFrom(index + 1), options.pauseMs ?? 0);
    };
    writeFrom(0);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const checkBody = JSON.stringify({ consentInstanceId: 'drain', consentStateValue: 'unknown', matchedGeoGroup: null });

describe('shutdown', () => {
  it('drains on SIGTERM: keep-alive requests all get 2xx, /healthz 503, in-flight requests finish, exit 0', async () => {
    const server = await startServer({
      DATABASE_URL: `sqlite:${join(dir, 'page.db')}`,
      SHUTDOWN_DRAIN_MS: '3000',
      RATE_LIMIT_PER_MINUTE: '0',
    });
    running.push(server);
    const port = Number(new URL(server.url).port);
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const statuses: number[] = [];
    const failures: unknown[] = [];
    // The clients stop sending well before the drain ends: what arrives after the close is refused.
    let stopAt = Number.POSITIVE_INFINITY;
    let sigtermAt = 0;
    let afterSigterm = 0;
    const loop = async () => {
      while (Date.now() < stopAt) {
        if (sigtermAt) afterSigterm++;
        try {
          const answer = await send(port, { method: 'POST', path: '/consent/check', agent, bodyParts: [checkBody] });
          statuses.push(answer.status);
          if (answer.status !== 200)
            failures.push(`${Date.now() - sigtermAt} ms after SIGTERM: ${answer.status} ${answer.body}`);
        } catch (error) {
          failures.push(`${Date.now() - sigtermAt} ms after SIGTERM: ${String(error)}`);
        }
      }
    };
    const loops = Array.from({ length: 16 }, loop);
    await sleep(300);
    sigtermAt = Date.now();
    stopAt = sigtermAt + 900;
    server.child.kill('SIGTERM');
    await sleep(300);
    // Starts during the drain and is still uploading when the drain ends and the app closes.
    const update = JSON.stringify({ consentInstanceId: 'drain', pageUserId: 'slow', consentStateValue: 'accepted' });
    const parts = [update.slice(0, 10), update.slice(10)];
    const slow = send(port, { method: 'POST', path: '/consent/update', bodyParts: parts, pauseMs: 3300 }).catch(
      (error: unknown): Answer => ({ status: 0, body: String(error), connection: undefined }),
    );
    const health = await send(port, { path: '/healthz' });
    const other = await send(port, { path: '/examples/' });
    await Promise.all(loops);
    agent.destroy();

    expect(failures).toEqual([]);
    expect(afterSigterm).toBeGreaterThan(32);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(health.status).toBe(503);
    expect(JSON.parse(health.body).error.code).toBe('shutting-down');
    expect(other.status).toBe(200);
    const slowAnswer = await slow;
    expect(slowAnswer.status).toBe(200);
    expect(JSON.parse(slowAnswer.body)).toEqual({
      recorded: true,
      policyVersion: 1,
      receiptId: expect.stringMatching(/^rcpt_/),
    });
    expect(await server.exited()).toEqual({ code: 0, signal: null });
    const log = server.lines.join('\n');
    expect(log).toContain('shutting down: /healthz answers 503 for 3000 ms');
    expect(log).toContain('drain over');
  });

  it('answers /healthz 503 shutting-down while draining and keeps other routes serving', async () => {
    let draining = false;
    const { app } = await buildApp({ isDraining: () => draining });
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    draining = true;
    const health = await app.inject({ url: '/healthz' });
    expect(health.statusCode).toBe(503);
    expect(health.json().error.code).toBe('shutting-down');
    const cdn = await app.inject({ url: '/v0.js' });
    expect(cdn.statusCode).toBe(200);
    expect(cdn.headers.connection).toBe('close');
  });

  it('closes after the drain, and at once on a second signal', async () => {
    const { app } = await buildApp({}, true);
    const exits: number[] = [];
    const shutdown = createShutdown(() => app, { closeTimeoutMs: 5000, exit: (code) => exits.push(code) });
    shutdown.begin('SIGTERM', 60_000);
    expect(shutdown.isDraining()).toBe(true);
    await sleep(50);
    expect(exits).toEqual([]);
    shutdown.begin('SIGTERM', 60_000);
    await sleep(100);
    expect(exits).toEqual([0]);
  });
});
