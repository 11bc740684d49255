/**
 * A database written by the previous schema (every migration but the last, applied as the
 * stores apply them) opened by this code: it gains the audit log's `geo_group` column and loses
 * nothing. SQLite on a file, PostgreSQL on the throwaway cluster.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { postgresMigrations } from '../../server/store/postgres-schema.ts';
import { openPostgresStore } from '../../server/store/postgres-store.ts';
import { sqliteMigrations } from '../../server/store/sqlite-schema.ts';
import { openSqliteStore } from '../../server/store/sqlite-store.ts';
import type { ConsentStore } from '../../server/store/store.ts';

const postgresUrl = inject('postgresUrl');
const time = Date.UTC(2025, 0, 1, 10);
const oldConfig = { consentRequired: { default: true }, geoGroups: { eea: ['preset-eea'] } };

/** One instance, one decision and its audit row, as the previous schema holds them. */
const oldRows = [
  [
    'INSERT INTO instances (id, config, policy_version, created_at, updated_at) VALUES ($1, $2, 1, $3, $4)',
    ['site', JSON.stringify(oldConfig), time, time],
  ],
  [
    `INSERT INTO audit_log (instance_id, user_id, page_user_id, state, purpose_consents, policy_version, time, gpc)
     VALUES ('site', 'u1', 'p1', 'accepted', $1, 1, $2, $3)`,
    [JSON.stringify({ ads: true }), time, false],
  ],
  [
    `INSERT INTO decisions (instance_id, user_id, page_user_id, state, purpose_consents, policy_version, time)
     VALUES ('site', 'u1', 'p1', 'accepted', $1, 1, $2)`,
    [JSON.stringify({ ads: true }), time],
  ],
] as const;

/** What the new code finds in the old database, and that it writes a group there from now on. */
async function expectMigrated(store: ConsentStore): Promise<void> {
  expect((await store.getInstance('site'))?.config).toMatchObject({ ...oldConfig, gpp: null });
  expect(await store.getHistory('site', 'u1')).toEqual([
    expect.objectContaining({ userId: 'u1', state: 'accepted', purposeConsents: { ads: true }, geoGroup: null }),
  ]);
  expect(await store.getDecision('site', 'u1')).toMatchObject({ state: 'accepted', time });
  const entry = (await store.getHistory('site', 'u1'))[0]!;
  const { id: _id, ...again } = { ...entry, userId: 'u2', geoGroup: 'eea' };
  await store.recordDecision(again);
  const none = { accepted: 0, custom: 0, rejected: 0, optOut: 0, unknown: 0 };
  expect(await store.groupDecisions('site', 0)).toEqual([
    { ...none, group: null, accepted: 1 },
    { ...none, group: 'eea', accepted: 1 },
  ]);
  expect(await store.countInstance('site')).toMatchObject({ users: 2, auditEntries: 2 });
}

describe('store migrations', () => {
  it('adds geo_group to an SQLite database of the previous schema and keeps its rows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'page-migrate-'));
    const file = join(dir, 'page.db');
    try {
      const db = new Database(file);
      db.exec('CREATE TABLE schema_migrations (version INTEGER NOT NULL)');
      sqliteMigrations.slice(0, -1).forEach((sql, index) => {
        db.exec(sql);
        db.prepare('INSERT INTO schema_migrations (version) VALUES (?)').run(index + 1);
      });
      const columns = () => (db.pragma('table_info(audit_log)') as { name: string }[]).map((column) => column.name);
      expect(columns()).not.toContain('geo_group');
      for (const [sql, params] of oldRows) db.prepare(sql.replace(/\$\d/g, '?')).run(...params.map(sqliteValue));
      db.close();

      const store = openSqliteStore(file);
      try {
        await expectMigrated(store);
      } finally {
        await store.close();
      }
      const reopened = new Database(file, { readonly: true });
      expect((reopened.pragma('table_info(audit_log)') as { name: string }[]).map((c) => c.name)).toContain(
        'geo_group',
      );
      expect(reopened.prepare('SELECT MAX(version) AS v FROM schema_migrations').get()).toEqual({
        v: sqliteMigrations.length,
      });
      reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!postgresUrl)(
    'adds geo_group to a PostgreSQL database of the previous schema and keeps its rows',
    async () => {
      const database = `page_migrate_${randomBytes(6).toString('hex')}`;
      const admin = async (sql: string) => {
        const client = new pg.Client({ connectionString: postgresUrl! });
        await client.connect();
        await client.query(sql).finally(() => client.end());
      };
      const url = postgresUrl!.replace(/\/[^/]*$/, `/${database}`);
      await admin(`CREATE DATABASE ${database}`);
      try {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query('CREATE TABLE schema_migrations (version INTEGER NOT NULL)');
        for (const [index, sql] of postgresMigrations.slice(0, -1).entries()) {
          await client.query(sql);
          await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [index + 1]);
        }
        for (const [sql, params] of oldRows) await client.query(sql, [...params]);
        await client.end();

        const store = await openPostgresStore(url);
        try {
          await expectMigrated(store);
        } finally {
          await store.close();
        }
      } finally {
        await admin(`DROP DATABASE IF EXISTS ${database}`);
      }
    },
  );
});

/** SQLite binds booleans as 0/1. */
const sqliteValue = (value: unknown) => (typeof value === 'boolean' ? Number(value) : value);
