/**
 * The real server process: an acknowledged update survives SIGKILL, SIGTERM finishes the
 * request in flight, and start-up problems are reported clearly.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ServerProcess, runServer, startServer } from './server-process.ts';

const adminToken = 'durability-admin-token';
const cookie = 'page_uid=abcdefghijklmnopqrstuv';
let dir = '';
const running: ServerProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'page-durability-'));
});
afterEach(() => {
  for (const server of running.splice(0)) server.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

async function start(extra: Record<string, string> = {}): Promise<ServerProcess> {
  const server = await startServer({
    DATABASE_URL: `sqlite:${join(dir, 'page.db')}`,
    ADMIN_TOKEN: adminToken,
    ...extra,
  });
  running.push(server);
  return server;
}

const update = (index: number) => ({
  consentInstanceId: 'durable',
  pageUserId: `page-${index}`,
  consentStateValue: 'accepted',
  purposeConsents: { ads: index % 2 === 0 },
});

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

describe('server process', () => {
  it('keeps acknowledged updates after SIGKILL and a restart', async () => {
    const first = await start();
    const acknowledged = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(`${first.url}/consent/update`, update(i), i === 0 ? { cookie } : {})),
    );
    expect(acknowledged.map((r) => r.status)).toEqual(Array(20).fill(200));
    first.child.kill('SIGKILL');
    expect((await first.exited()).signal).toBe('SIGKILL');

    const second = await start();
    const exported = await fetch(`${second.url}/admin/api/instances/durable/export`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const pageUserIds = (await exported.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).pageUserId);
    expect(pageUserIds.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `page-${i}`).sort());
    const check = await post(
      `${second.url}/consent/check`,
      { consentInstanceId: 'durable', consentStateValue: 'unknown', matchedGeoGroup: null },
      { cookie },
    );
    expect(await check.json()).toMatchObject({ consentStateValue: 'accepted', purposeConsents: { ads: true } });
  });

  it('loses no acknowledged update to SIGKILL during group commits, and splits no row from its receipt (20 trials)', async () => {
    // Each trial restarts the server on the same database, keeps 16 updates in flight (so they
    // are group-committed) and kills it after a different number of acknowledgements.
    const trials = 20;
    const acknowledged: string[] = [];
    for (let trial = 0; trial < trials; trial++) {
      const server = await start({ RATE_LIMIT_PER_MINUTE: '0' });
      const killAfter = acknowledged.length + 10 + ((trial * 37) % 90);
      let killed = false;
      const kill = () => {
        if (killed) return;
        killed = true;
        server.child.kill('SIGKILL');
      };
      const worker = async (lane: number) => {
        for (let i = 0; !killed; i++) {
          const response = await post(`${server.url}/consent/update`, update(trial * 100_000 + lane * 1000 + i)).catch(
            () => null,
          );
          if (response?.status !== 200) return;
          const { receiptId } = (await response.json().catch(() => ({}))) as { receiptId?: string };
          if (!receiptId) return;
          acknowledged.push(receiptId);
          if (acknowledged.length >= killAfter) kill();
        }
      };
      await Promise.all(Array.from({ length: 16 }, (_, lane) => worker(lane)));
      kill();
      expect((await server.exited()).signal).toBe('SIGKILL');
      running.splice(running.indexOf(server), 1);
    }
    const db = new Database(join(dir, 'page.db'), { readonly: true });
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    expect(
      count('SELECT COUNT(*) AS n FROM audit_log a LEFT JOIN receipts r ON r.audit_id = a.id WHERE r.id IS NULL'),
    ).toBe(0);
    expect(
      count('SELECT COUNT(*) AS n FROM receipts r LEFT JOIN audit_log a ON r.audit_id = a.id WHERE a.id IS NULL'),
    ).toBe(0);
    const stored = new Set((db.prepare('SELECT id FROM receipts').all() as { id: string }[]).map((row) => row.id));
    db.close();
    const lost = acknowledged.filter((id) => !stored.has(id));
    expect(acknowledged.length).toBeGreaterThanOrEqual(trials * 10);
    expect(lost).toEqual([]);
  }, 300_000);

  it('finishes the request in flight on SIGTERM, then exits 0', async () => {
    // The drain ends while the request is in flight, so it is still running when the app closes.
    const server = await start({ SHUTDOWN_DRAIN_MS: '100' });
    const body = JSON.stringify(update(1));
    const { port } = new URL(server.url);
    const response = new Promise<{ status: number; text: string; connection: string | undefined }>(
      (resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/consent/update',
            headers: { 'content-type': 'application/json', 'content-length': body.length },
          },
          (res) => {
            let text = '';
            res.on('data', (chunk) => {
              text += chunk;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text, connection: res.headers.connection }));
          },
        );
        req.on('error', reject);
        req.write(body.slice(0, 10));
        setTimeout(() => {
          server.child.kill('SIGTERM');
          setTimeout(() => req.end(body.slice(10)), 300);
        }, 300);
      },
    );
    const { status, text, connection } = await response;
    expect(status).toBe(200);
    expect(connection).toBe('close');
    expect(JSON.parse(text)).toEqual({ recorded: true, policyVersion: 1, receiptId: expect.stringMatching(/^rcpt_/) });
    expect(await server.exited()).toEqual({ code: 0, signal: null });
    expect(server.lines.some((line) => line.includes('shutting down'))).toBe(true);
  });

  it('in production, starts without ADMIN_TOKEN or a CDN build and says so, the admin and the vendor list off', async () => {
    const server = await startServer({
      NODE_ENV: 'production',
      DATABASE_URL: 'memory:',
      CDN_ROOT: join(dir, 'no-cdn'),
    });
    running.push(server);
    const log = server.lines.join('\n');
    expect(log).toContain('admin API disabled');
    expect(log).toContain('v0.js is missing');
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const cdn = await fetch(`${server.url}/v0.js`);
    expect(cdn.status).toBe(404);
    expect((await cdn.json()).error.code).toBe('cdn-not-built');
    const admin = await fetch(`${server.url}/admin/api/instances`, { headers: { authorization: 'Bearer x' } });
    expect((await admin.json()).error.code).toBe('admin-disabled');
    expect(log).not.toContain('admin dashboard:');
    expect((await (await fetch(`${server.url}/tcf/vendor-list.json`)).json()).error.code).toBe(
      'tcf-vendor-list-missing',
    );
  });

  it('in development (npm start as is), prints a generated admin token with the admin URL, serves the labelled fixture vendor list and configures the example instances', async () => {
    const server = await startServer({ DATABASE_URL: 'memory:' });
    running.push(server);
    const entries = server.lines.map((line) => JSON.parse(line) as { msg: string; adminUrl?: string });
    const adminUrl = entries.find((entry) => entry.adminUrl)?.adminUrl;
    expect(adminUrl).toMatch(new RegExp(`^${server.url}/admin/#token=[A-Za-z0-9_-]{32}$`));
    const token = new URL(adminUrl!).hash.slice('#token='.length);
    const instances = await fetch(`${server.url}/admin/api/instances`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(instances.status).toBe(200);
    expect((await instances.json()).instances.map((instance: { id: string }) => instance.id).sort()).toEqual([
      'examples-cmp',
      'examples-hosted-cmp',
    ]);
    expect(entries.some((entry) => entry.msg.includes('fixtures/tcf/vendor-list.json, a FIXTURE'))).toBe(true);
    const list = await fetch(`${server.url}/tcf/vendor-list.json`);
    expect(list.status).toBe(200);
    expect(list.headers.get('x-vendor-list')).toMatch(/^fixture /);
  });

  it('starts with a short ADMIN_TOKEN, warns, and serves the admin API with it', async () => {
    const server = await startServer({ NODE_ENV: 'production', DATABASE_URL: 'memory:', ADMIN_TOKEN: 'secret' });
    running.push(server);
    expect(server.lines.join('\n')).toContain('admin-token-weak');
    const admin = await fetch(`${server.url}/admin/api/instances`, { headers: { authorization: 'Bearer secret' } });
    expect(admin.status).toBe(200);
    expect(await admin.json()).toEqual({ instances: [], nextCursor: null });
  });

  it('refuses to start with an invalid ads config file, naming it', async () => {
    writeFileSync(
      join(dir, 'broken.json'),
      JSON.stringify({ placements: [{ anchor: { selector: 'p' }, pos: 7, type: 1 }] }),
    );
    const server = runServer({ DATABASE_URL: 'memory:', ADS_CONFIG_DIR: dir });
    const { code } = await server.exited();
    expect(code).toBe(1);
    expect(server.stderr.join('\n')).toContain(
      `page server did not start: ads-config-invalid: ${join(dir, 'broken.json')}: config.placements[0].pos`,
    );
  });

  it('refuses to start with an invalid DATABASE_URL', async () => {
    const server = runServer({ DATABASE_URL: 'mysql://user:secret@db/x' });
    expect((await server.exited()).code).toBe(1);
    const stderr = server.stderr.join('\n');
    expect(stderr).toContain('database-url-invalid');
    expect(stderr).not.toContain('secret');
  });
});
