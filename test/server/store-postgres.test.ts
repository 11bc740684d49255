import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, inject, it } from 'vitest';
import { openPostgresStore } from '../../server/store/postgres-store.ts';
import { runStoreContract } from './store-contract.ts';

const adminUrl = inject('postgresUrl');
const skipReason = inject('postgresSkipReason');

async function adminQuery<T extends pg.QueryResultRow>(sql: string, url = adminUrl!): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/**
 * The file of every table, index and TOAST table of the database, as on disk once a
 * checkpoint has written every changed page (the write-ahead log is the server's, not the
 * database's: docs/server.md, "Key rotation").
 */
async function relationFiles(url: string): Promise<Buffer[]> {
  await adminQuery('CHECKPOINT', url);
  const relations = await adminQuery<{ bytes: Buffer }>(
    `SELECT pg_read_binary_file(pg_relation_filepath(oid)) AS bytes FROM pg_class
     WHERE relkind IN ('r', 't', 'i', 'm', 'S') AND pg_relation_filepath(oid) IS NOT NULL AND pg_relation_size(oid) > 0`,
    url,
  );
  return relations.map((relation) => relation.bytes);
}

if (!adminUrl) {
  describe('postgres store', () => {
    it.skip(`is skipped: ${skipReason}`, () => {});
  });
} else {
  let database = '';
  const urlOf = (name: string) => adminUrl.replace(/\/[^/]*$/, `/${name}`);
  runStoreContract('postgres', {
    async open() {
      database = `page_test_${randomBytes(6).toString('hex')}`;
      await adminQuery(`CREATE DATABASE ${database}`);
      return openPostgresStore(urlOf(database));
    },
    reopen: async () => openPostgresStore(urlOf(database)),
    databaseFiles: async () => relationFiles(urlOf(database)),
    async cleanup() {
      await adminQuery(`DROP DATABASE IF EXISTS ${database}`);
    },
  });
}
