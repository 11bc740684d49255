/**
 * Picks the store adapter from `DATABASE_URL`:
 * `postgres://...` / `postgresql://...` -> PostgreSQL, `sqlite:<path>` -> SQLite file,
 * `memory:` -> in memory, absent -> SQLite at the default path (./data/page.db).
 */
import { ConfigError } from '../errors.ts';
import { createMemoryStore } from './memory-store.ts';
import { openPostgresStore } from './postgres-store.ts';
import { openSqliteStore, type SqlStoreOptions } from './sqlite-store.ts';
import type { ConsentStore } from './store.ts';

export const defaultSqlitePath = './data/page.db';

/** `options` (group commit window, instance cache) apply to the SQL stores. */
export async function openStore(databaseUrl: string | undefined, options: SqlStoreOptions = {}): Promise<ConsentStore> {
  const url = databaseUrl?.trim() || `sqlite:${defaultSqlitePath}`;
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgresStore(url, options);
  if (url.startsWith('sqlite:')) return openSqliteStore(url.slice('sqlite:'.length) || defaultSqlitePath, options);
  if (url === 'memory:') return createMemoryStore();
  throw new ConfigError(
    'database-url-invalid',
    `DATABASE_URL: expected postgres://..., sqlite:<path> or memory:, got "${url.replace(/\/\/[^@/]*@/, '//***@')}"`,
  );
}
