/**
 * PostgreSQL time-outs: no request waits forever on a database that stopped answering (paused,
 * partitioned). A loopback TCP server that accepts and never answers, and a proxy to the test
 * cluster that can stop forwarding, make both cases deterministic and fast.
 */
import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { databaseTimeoutMs, openPostgresStore, postgresTimeouts } from '../../server/store/postgres-store.ts';
import { buildApp, json } from './app-harness.ts';

const adminUrl = inject('postgresUrl');
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Resolves 'hung' after `ms`, for a clean-up that must not wait for the test time-out. */
const hung = (ms: number) => new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), ms).unref());

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return (server.address() as { port: number }).port;
}

/** A TCP proxy to the test cluster; after pause() it forwards nothing more, either way, like a stopped server. */
async function pausableProxy(target: URL): Promise<{ url: string; pause(): void }> {
  let paused = false;
  const server = createServer((client) => {
    if (paused) return;
    const upstream = connect(Number(target.port), target.hostname);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('data', (chunk) => paused || upstream.write(chunk));
    upstream.on('data', (chunk) => paused || client.write(chunk));
    for (const socket of [client, upstream]) socket.on('close', close).on('error', close);
    cleanups.push(async () => close());
  });
  const port = await listen(server);
  return { url: `postgres://postgres@127.0.0.1:${port}`, pause: () => (paused = true) };
}

describe('postgres time-outs', () => {
  it('bounds every wait by default: connecting, each statement (server side) and each query (client side)', () => {
    expect(databaseTimeoutMs).toBe(5000);
    expect(postgresTimeouts(databaseTimeoutMs)).toEqual({
      connectionTimeoutMillis: 5000,
      statement_timeout: 5000,
      query_timeout: 6000,
    });
  });

  it('gives up opening a store on a server that accepts connections and never answers, by its connection time-out', async () => {
    const port = await listen(createServer(() => {}));
    // The server never answers: only the time-out can end the wait, and the error names it.
    const outcome = await openPostgresStore(`postgres://postgres@127.0.0.1:${port}/page`, {
      databaseTimeoutMs: 200,
    }).then(
      () => 'opened',
      (error: Error) => error.message,
    );
    expect(outcome).toBe('Connection terminated due to connection timeout');
  });
});

describe.skipIf(!adminUrl)(
  `postgres time-outs on a server that stops answering (${inject('postgresSkipReason') ?? 'available'})`,
  () => {
    it('cancels a statement running longer than the statement time-out', async () => {
      const pool = new pg.Pool({ connectionString: adminUrl!, ...postgresTimeouts(200, 5000) });
      cleanups.push(() => pool.end());
      const error = await pool.query('SELECT pg_sleep(3)').then(
        () => null,
        (refused: { code?: string }) => refused,
      );
      expect(error?.code).toBe('57014');
    });

    it('answers /healthz with 503 and every update with an error, none waiting forever, once PostgreSQL stops answering', async () => {
      const database = `page_timeouts_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: adminUrl! });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${database}`);
      cleanups.push(async () => {
        await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        await admin.end();
      });
      const proxy = await pausableProxy(new URL(adminUrl!));
      const store = await openPostgresStore(`${proxy.url}/${database}`, {
        databaseTimeoutMs: 1000,
        instanceCacheMs: 60_000,
      });
      cleanups.push(() => Promise.race([store.close(), hung(2000)]).then(() => {}));
      const { app } = await buildApp({ store, healthTimeoutMs: 500 });
      const update = { consentInstanceId: 'paused', pageUserId: 'p', consentStateValue: 'accepted' };
      const send = () => app.inject({ method: 'POST', url: '/consent/update', headers: json, payload: update });
      expect((await send()).statusCode).toBe(200);

      proxy.pause();
      // The health time-out (500 ms) answers, not the query time-out behind it (1,000 ms and more).
      const health = await app.inject({ url: '/healthz' });
      expect(health.statusCode).toBe(503);
      expect(health.json().error).toEqual({
        code: 'store-unavailable',
        message: 'the postgres store does not answer within 500 ms',
      });

      // Every update ends in an error from a time-out (the proxy never answers), none waits forever.
      const updates = await Promise.all([send(), send(), send()]);
      for (const response of updates) expect(response.statusCode).toBeGreaterThanOrEqual(500);
      await expect(store.ping()).rejects.toThrow();
    });
  },
);
