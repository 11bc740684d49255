import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../server/store/sqlite-store.ts';
import { runStoreContract } from './store-contract.ts';

let dir = '';

runStoreContract('sqlite', {
  async open() {
    dir = mkdtempSync(join(tmpdir(), 'page-sqlite-'));
    return openSqliteStore(join(dir, 'nested', 'page.db'));
  },
  reopen: async () => openSqliteStore(join(dir, 'nested', 'page.db')),
  // The database file and its write-ahead log.
  databaseFiles: async () =>
    ['page.db', 'page.db-wal']
      .map((name) => join(dir, 'nested', name))
      .filter(existsSync)
      .map((file) => readFileSync(file)),
  async cleanup() {
    rmSync(dir, { recursive: true, force: true });
  },
});
