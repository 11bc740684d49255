import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, inject, it } from 'vitest';
import { openPostgresStore } from '../../server/store/postgres-store.ts';
import { runStoreContract } from './store-contract.ts';

const adminUrl = inject('postgresUrl');
const skipReason = inject('postgresSkipReason');

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl! });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
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
    async cleanup() {
      await adminQuery(`DROP DATABASE IF EXISTS ${database}`);
    },
  });
}
