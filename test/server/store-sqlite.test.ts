import { mkdtempSync, rmSync } from 'node:fs';
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
  async cleanup() {
    rmSync(dir, { recursive: true, force: true });
  },
});
