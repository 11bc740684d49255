/**
 * The decision cache of the SQL stores and the returning reader's check: this process's own
 * updates and erasures are seen at once; another process's on PostgreSQL as soon as the NOTIFY
 * arrives (two apps on one real database stand for two server processes), long before
 * INSTANCE_CACHE_MS; on SQLite within INSTANCE_CACHE_MS.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { openPostgresStore } from '../../server/store/postgres-store.ts';
import { openSqliteStore } from '../../server/store/sqlite-store.ts';
import type { ConsentStore, NewAuditEntry } from '../../server/store/store.ts';
import { defaultInstanceConfig } from '../../server/store/store.ts';
import { bearer, buildApp, json } from './app-harness.ts';

const adminUrl = inject('postgresUrl');
const opened: ConsentStore[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  for (const store of opened.splice(0)) await store.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const entry = (overrides: Partial<NewAuditEntry> = {}): NewAuditEntry => ({
  instanceId: 'site',
  userId: 'user-a',
  pageUserId: 'page-a',
  state: 'accepted',
  consentString: null,
  purposeConsents: null,
  geoGroup: null,
  consentMetadata: null,
  tcfPolicyVersion: null,
  policyVersion: 1,
  time: 1,
  origin: null,
  userAgent: null,
  ipHash: null,
  gpc: false,
  ...overrides,
});

function sqlitePair(instanceCacheMs: number) {
  const dir = mkdtempSync(join(tmpdir(), 'page-decisions-'));
  const file = join(dir, 'page.db');
  const stores = [openSqliteStore(file, { instanceCacheMs }), openSqliteStore(file, { instanceCacheMs })] as const;
  opened.push(...stores);
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return stores;
}

describe('decision cache (SQLite)', () => {
  it("peeks at a decision it holds, and sees this process's own updates and erasures at once", async () => {
    const [store] = sqlitePair(60_000);
    expect(store.peekDecision('site', 'user-a')).toBeUndefined();
    expect(await store.getDecision('site', 'user-a')).toBeNull();
    expect(store.peekDecision('site', 'user-a')).toBeNull();
    await store.recordDecision(entry());
    expect(store.peekDecision('site', 'user-a')?.state).toBe('accepted');
    await store.recordDecision(entry({ state: 'rejected', time: 2 }));
    expect(store.peekDecision('site', 'user-a')).toMatchObject({ state: 'rejected', time: 2, pageUserId: 'page-a' });
    expect(await store.getDecision('site', 'user-a')).toEqual(store.peekDecision('site', 'user-a'));
    await store.eraseUser('site', 'user-a');
    expect(store.peekDecision('site', 'user-a')).toBeUndefined();
    expect(await store.getDecision('site', 'user-a')).toBeNull();
  });

  it("sees another process's update within INSTANCE_CACHE_MS, and reads every time with 0", async () => {
    const [one, other] = sqlitePair(200);
    await one.getDecision('site', 'user-a');
    await other.recordDecision(entry());
    expect(one.peekDecision('site', 'user-a')).toBeNull();
    await sleep(250);
    expect(one.peekDecision('site', 'user-a')).toBeUndefined();
    expect((await one.getDecision('site', 'user-a'))?.state).toBe('accepted');
    const [uncached, writer] = sqlitePair(0);
    await uncached.getDecision('site', 'user-a');
    expect(uncached.peekDecision('site', 'user-a')).toBeUndefined();
    await writer.recordDecision(entry());
    expect((await uncached.getDecision('site', 'user-a'))?.state).toBe('accepted');
  });
});

describe('returning reader (SQLite)', () => {
  it("answers a returning reader's checks from memory: the store is read once per INSTANCE_CACHE_MS at most", async () => {
    const [store] = sqlitePair(60_000);
    let reads = 0;
    const counted: ConsentStore = {
      ...store,
      getDecision: (instanceId, userId) => (reads++, store.getDecision(instanceId, userId)),
    };
    const { app } = await buildApp({ store: counted });
    const cookie = 'page_uid=returning-reader-0000001';
    const payload = { consentInstanceId: 'site', consentStateValue: 'unknown', matchedGeoGroup: null };
    await app.inject({
      method: 'POST',
      url: '/consent/update',
      headers: { ...json, cookie },
      payload: { consentInstanceId: 'site', pageUserId: 'p', consentStateValue: 'accepted' },
    });
    for (let index = 0; index < 20; index++) {
      const answer = await app.inject({ method: 'POST', url: '/consent/check', headers: { ...json, cookie }, payload });
      expect(answer.json()).toMatchObject({ consentStateValue: 'accepted' });
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
    expect(reads).toBe(0);
  });
});

describe.skipIf(!adminUrl)(
  `returning readers on two processes, one PostgreSQL (${inject('postgresSkipReason') ?? 'available'})`,
  () => {
    async function admin(sql: string) {
      const client = new pg.Client({ connectionString: adminUrl! });
      await client.connect();
      await client.query(sql).finally(() => client.end());
    }

    async function twoApps() {
      const database = `page_decisions_${randomBytes(6).toString('hex')}`;
      await admin(`CREATE DATABASE ${database}`);
      cleanups.push(() => admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
      const url = adminUrl!.replace(/\/[^/]*$/, `/${database}`);
      const stores = [
        await openPostgresStore(url, { instanceCacheMs: 60_000 }),
        await openPostgresStore(url, { instanceCacheMs: 60_000 }),
      ];
      opened.push(...stores);
      const [one, other] = [await buildApp({ store: stores[0]! }), await buildApp({ store: stores[1]! })];
      return { one, other, url };
    }

    const cookie = 'page_uid=returning-reader-0000001';
    const check = async (app: Awaited<ReturnType<typeof buildApp>>['app']) =>
      (
        await app.inject({
          method: 'POST',
          url: '/consent/check',
          headers: { ...json, cookie },
          payload: { consentInstanceId: 'site', consentStateValue: 'unknown', matchedGeoGroup: null },
        })
      ).json();
    const update = (app: Awaited<ReturnType<typeof buildApp>>['app'], consentStateValue: string) =>
      app.inject({
        method: 'POST',
        url: '/consent/update',
        headers: { ...json, cookie },
        payload: { consentInstanceId: 'site', pageUserId: 'p', consentStateValue },
      });

    /**
     * Waits until `store` no longer holds a copy of the reader's decision. Nothing in this process
     * drops it before INSTANCE_CACHE_MS (60 s, longer than a test may run) but the NOTIFY of a change.
     */
    const untilDropped = (store: ConsentStore, userId: string) =>
      vi.waitFor(() => expect(store.peekDecision('site', userId)).toBeUndefined(), { timeout: 20_000, interval: 5 });

    it("answers a returning reader from memory, and another process's update or erasure as soon as PostgreSQL notifies it", async () => {
      const { one, other } = await twoApps();
      expect((await update(one.app, 'accepted')).statusCode).toBe(200);
      expect(await check(one.app)).toMatchObject({ consentStateValue: 'accepted' });
      const userId = cookie.split('=')[1]!;
      expect(one.store.peekDecision('site', userId)?.state).toBe('accepted');
      expect((await update(other.app, 'rejected')).statusCode).toBe(200);
      await untilDropped(one.store, userId);
      expect(await check(one.app)).toMatchObject({ consentStateValue: 'rejected' });
      expect(one.store.peekDecision('site', userId)?.state).toBe('rejected');
      expect(
        (
          await other.app.inject({
            method: 'DELETE',
            url: `/admin/api/instances/site/users?userId=${userId}`,
            headers: bearer,
          })
        ).statusCode,
      ).toBe(200);
      await untilDropped(one.store, userId);
      expect((await check(one.app)).consentStateValue).toBeNull();
    });

    it('drops a cached decision changed by hand in SQL', async () => {
      const { one, url } = await twoApps();
      await one.store.ensureInstance('site', defaultInstanceConfig, 1);
      await update(one.app, 'accepted');
      expect(await check(one.app)).toMatchObject({ consentStateValue: 'accepted' });
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query("UPDATE decisions SET state = 'rejected'").finally(() => client.end());
      await untilDropped(one.store, cookie.split('=')[1]!);
      expect(await check(one.app)).toMatchObject({ consentStateValue: 'rejected' });
    });
  },
);
