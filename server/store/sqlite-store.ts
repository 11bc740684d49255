/**
 * SQLite adapter (better-sqlite3). WAL journal with `synchronous = FULL`: a commit returns
 * only after the WAL is fsynced, so an acknowledged update survives a process kill and a
 * power loss (docs/decisions/server-durability.md). Updates are group-committed: the ones
 * that arrive together share one transaction and one fsync (docs/decisions/server-throughput.md).
 * Statements are prepared once; instances are cached (instance-cache.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { GroupDecisions, PromptAction } from '../api-types.ts';
import type { AuditRow, DecisionRow, InstanceRow } from './rows.ts';
import {
  auditFromRow,
  decisionColumns,
  decisionFromRow,
  decisionValues,
  instanceFromRow,
  toJson,
  zeroCounts,
} from './rows.ts';
import {
  type ReceiptRow,
  receiptFromRow,
  retireKeysSql,
  type SigningKeyRow,
  signingKeyFromRow,
} from './receipt-rows.ts';
import { sqliteMigrations } from './sqlite-schema.ts';
import { createGroupCommit, defaultMaxBatch } from './group-commit.ts';
import { withDecisionCache } from './decision-cache.ts';
import { defaultInstanceCacheMs, withInstanceCache } from './instance-cache.ts';
import { guardPlainText } from './plain-text-guard.ts';
import type { AuditEntry, ConsentStore, NewAuditEntry, NewReceipt } from './store.ts';
import { defaultPageLimit } from './store.ts';

/** Throughput settings shared by the SQL adapters (COMMIT_WINDOW_MS, INSTANCE_CACHE_MS). */
export type SqlStoreOptions = {
  /** How long the first update of a group commit waits for others; default 0 (see group-commit.ts). */
  readonly commitWindowMs?: number;
  /** Longest use of a cached instance or decision without reading it again; 0 disables both caches. Default 1,000. */
  readonly instanceCacheMs?: number;
  /** PostgreSQL: longest wait for a connection and for a statement (default `databaseTimeoutMs`, postgres-store.ts). */
  readonly databaseTimeoutMs?: number;
};

/** decision-kinds.ts's split of an audit row, in SQL. */
const sqliteDecisionKind = `CASE
  WHEN state = 'unknown' THEN 'unknown'
  WHEN state = 'rejected' AND COALESCE(json_extract(consent_metadata, '$.usOptOuts'), '') <> '' THEN 'optOut'
  WHEN EXISTS (SELECT 1 FROM json_each(purpose_consents) WHERE type = 'true')
    AND EXISTS (SELECT 1 FROM json_each(purpose_consents) WHERE type = 'false') THEN 'custom'
  ELSE state END`;

type PendingDecision = { readonly entry: NewAuditEntry; readonly receipt: NewReceipt | undefined };

function migrate(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER NOT NULL)');
  db.transaction(() => {
    const row = db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as { version: number | null };
    const current = row.version ?? 0;
    sqliteMigrations.slice(current).forEach((sql, index) => {
      db.exec(sql);
      db.prepare('INSERT INTO schema_migrations (version) VALUES (?)').run(current + index + 1);
    });
    db.prepare('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)').run(
      'ip_hash_salt',
      randomBytes(16).toString('hex'),
    );
  }).immediate();
}

export function openSqliteStore(file: string, options: SqlStoreOptions = {}): ConsentStore {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  migrate(db);

  // Every statement is compiled once, on first use.
  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  const one = <T>(sql: string, ...params: unknown[]) => prepare(sql).get(...params) as T | undefined;
  const all = <T>(sql: string, ...params: unknown[]) => prepare(sql).all(...params) as T[];
  const getInstance = (id: string) => {
    const row = one<InstanceRow>('SELECT * FROM instances WHERE id = ?', id);
    return row ? instanceFromRow(row) : null;
  };

  const insertAudit = prepare(
    `INSERT INTO audit_log (${decisionColumns}, origin, user_agent, ip_hash, gpc, geo_group) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const replaceDecision = prepare(`INSERT OR REPLACE INTO decisions (${decisionColumns}) VALUES (?,?,?,?,?,?,?,?,?,?)`);
  const insertReceipt = prepare(
    'INSERT INTO receipts (id, audit_id, instance_id, user_id, time, jws) VALUES (?,?,?,?,?,?)',
  );
  /** One transaction (one WAL fsync at COMMIT) for a whole group of updates, in arrival order. */
  const recordAll = db.transaction((batch: readonly PendingDecision[]): AuditEntry[] =>
    batch.map(({ entry, receipt }) => {
      const values = decisionValues(entry);
      const { origin, userAgent, ipHash, gpc, geoGroup } = entry;
      const info = insertAudit.run(...values, origin, userAgent, ipHash, gpc ? 1 : 0, geoGroup);
      replaceDecision.run(...values);
      if (receipt)
        insertReceipt.run(receipt.id, info.lastInsertRowid, entry.instanceId, entry.userId, entry.time, receipt.jws);
      return { ...entry, id: Number(info.lastInsertRowid) };
    }),
  );
  const decisions = createGroupCommit((batch: readonly PendingDecision[]) => recordAll.immediate(batch), {
    windowMs: options.commitWindowMs ?? 0,
    maxBatch: defaultMaxBatch,
  });

  const eraseReceipts = prepare('DELETE FROM receipts WHERE instance_id = ? AND user_id = ?');
  const erase = db.transaction((instanceId: string, userId: string) => ({
    decisions:
      eraseReceipts.run(instanceId, userId) &&
      prepare('DELETE FROM decisions WHERE instance_id = ? AND user_id = ?').run(instanceId, userId).changes,
    auditEntries: prepare('DELETE FROM audit_log WHERE instance_id = ? AND user_id = ?').run(instanceId, userId)
      .changes,
  }));

  /**
   * The retired private parts are zeroed where they were (secure_delete), and the WAL, which
   * still holds the pages as they were before, is copied back and emptied (docs/server.md,
   * "Key rotation").
   */
  const retireKeys = (keepKid: string, at: number) => {
    db.pragma('secure_delete = ON');
    try {
      prepare(retireKeysSql('?', '?')).run(at, keepKid);
    } finally {
      db.pragma('secure_delete = OFF');
    }
    const [checkpoint] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    if (checkpoint?.busy !== 0) {
      throw new Error(
        'receipt key retirement: expected the SQLite WAL emptied, got busy (another connection is reading); the WAL keeps the retired private key until the next checkpoint',
      );
    }
  };

  const store = guardPlainText({
    kind: 'sqlite',
    async ping() {
      one('SELECT 1');
    },
    ipHashSalt: async () => one<{ value: string }>("SELECT value FROM settings WHERE key = 'ip_hash_salt'")!.value,
    getInstance: async (id) => getInstance(id),
    // Only the instance cache (withInstanceCache) holds copies.
    peekInstance: () => null,
    // Only the decision cache (withDecisionCache) holds copies.
    peekDecision: () => undefined,
    async ensureInstance(id, config, now, maxAutoInstances = Number.POSITIVE_INFINITY) {
      const existing = getInstance(id);
      if (existing) return existing;
      const cap = Number.isFinite(maxAutoInstances) ? maxAutoInstances : -1;
      // One statement: the count and the insert cannot interleave with another writer.
      prepare(
        `INSERT OR IGNORE INTO instances (id, config, policy_version, created_at, updated_at, auto_created)
         SELECT ?, ?, 1, ?, ?, 1 WHERE ? < 0 OR (SELECT COUNT(*) FROM instances WHERE auto_created = 1) < ?`,
      ).run(id, toJson(config), now, now, cap, cap);
      return getInstance(id);
    },
    async putInstance(id, config, now) {
      prepare(
        `INSERT INTO instances (id, config, policy_version, created_at, updated_at, auto_created) VALUES (?, ?, 1, ?, ?, 0)
         ON CONFLICT (id) DO UPDATE SET config = excluded.config, updated_at = excluded.updated_at, auto_created = 0`,
      ).run(id, toJson(config), now, now);
      return getInstance(id)!;
    },
    async bumpPolicyVersion(id, now) {
      prepare('UPDATE instances SET policy_version = policy_version + 1, updated_at = ? WHERE id = ?').run(now, id);
      return getInstance(id);
    },
    listInstances: async ({ after, limit } = { after: '', limit: defaultPageLimit }) =>
      all<InstanceRow>('SELECT * FROM instances WHERE id > ? ORDER BY id LIMIT ?', after, limit).map(instanceFromRow),

    recordDecision: (entry, receipt) => decisions.submit({ entry, receipt }),
    async getReceipt(id) {
      const row = one<ReceiptRow>('SELECT * FROM receipts WHERE id = ?', id);
      return row ? receiptFromRow(row) : null;
    },
    async addSigningKey({ kid, publicJwk, privateJwk, createdAt }) {
      prepare('INSERT OR IGNORE INTO receipt_keys (kid, public_jwk, private_jwk, created_at) VALUES (?,?,?,?)').run(
        kid,
        JSON.stringify(publicJwk),
        privateJwk && JSON.stringify(privateJwk),
        createdAt,
      );
    },
    listSigningKeys: async () =>
      all<SigningKeyRow>('SELECT * FROM receipt_keys ORDER BY created_at DESC, rowid DESC').map(signingKeyFromRow),
    async retireSigningKeys(keepKid, at) {
      retireKeys(keepKid, at);
    },
    async getDecision(instanceId, userId) {
      const row = one<DecisionRow>('SELECT * FROM decisions WHERE instance_id = ? AND user_id = ?', instanceId, userId);
      return row ? decisionFromRow(row) : null;
    },
    getHistory: async (instanceId, userId, { after, limit } = { after: 0, limit: -1 }) =>
      all<AuditRow>(
        'SELECT * FROM audit_log WHERE instance_id = ? AND user_id = ? AND id > ? ORDER BY id LIMIT ?',
        instanceId,
        userId,
        after,
        Number.isFinite(limit) ? limit : -1,
      ).map(auditFromRow),
    findUserIds: async (instanceId, pageUserId, { after, limit } = { after: '', limit: defaultPageLimit }) =>
      all<{ user_id: string }>(
        `SELECT DISTINCT user_id FROM audit_log WHERE instance_id = ? AND page_user_id = ? AND user_id > ?
         ORDER BY user_id LIMIT ?`,
        instanceId,
        pageUserId,
        after,
        limit,
      ).map((row) => row.user_id),
    eraseUser: async (instanceId, userId) => erase.immediate(instanceId, userId),
    listAuditEntries: async (instanceId, afterId, limit) =>
      all<AuditRow>(
        'SELECT * FROM audit_log WHERE instance_id = ? AND id > ? ORDER BY id LIMIT ?',
        instanceId,
        afterId,
        limit,
      ).map(auditFromRow),

    async countInstance(instanceId) {
      const states = all<{ state: 'accepted' | 'rejected' | 'unknown'; n: number }>(
        'SELECT state, COUNT(*) AS n FROM decisions WHERE instance_id = ? GROUP BY state',
        instanceId,
      );
      const decisions = zeroCounts();
      for (const row of states) decisions[row.state] = row.n;
      const audit = one<{ n: number }>('SELECT COUNT(*) AS n FROM audit_log WHERE instance_id = ?', instanceId)!;
      return { users: states.reduce((sum, row) => sum + row.n, 0), auditEntries: audit.n, decisions };
    },
    dailyDecisions: async (instanceId, since) =>
      all(
        `SELECT date(time / 1000, 'unixepoch') AS day,
           SUM(state = 'accepted') AS accepted, SUM(state = 'rejected') AS rejected, SUM(state = 'unknown') AS unknown
         FROM audit_log WHERE instance_id = ? AND time >= ? GROUP BY day ORDER BY day`,
        instanceId,
        since,
      ),
    groupDecisions: async (instanceId, since) =>
      all<GroupDecisions>(
        `SELECT geo_group AS "group", SUM(kind = 'accepted') AS accepted, SUM(kind = 'custom') AS custom,
           SUM(kind = 'rejected') AS rejected, SUM(kind = 'optOut') AS optOut, SUM(kind = 'unknown') AS unknown
         FROM (SELECT geo_group, ${sqliteDecisionKind} AS kind FROM audit_log WHERE instance_id = ? AND time >= ?)
         GROUP BY geo_group ORDER BY geo_group`,
        instanceId,
        since,
      ),
    purposeAcceptance: async (instanceId) =>
      all(
        `SELECT p.key AS purpose, SUM(p.type = 'true') AS accepted, SUM(p.type = 'false') AS rejected
         FROM decisions d, json_each(d.purpose_consents) p
         WHERE d.instance_id = ? AND d.purpose_consents IS NOT NULL GROUP BY p.key ORDER BY p.key`,
        instanceId,
      ),
    async recordPromptOutcome(instanceId, day, action: PromptAction) {
      prepare(
        `INSERT INTO prompt_outcomes (instance_id, day, action, count) VALUES (?, ?, ?, 1)
         ON CONFLICT (instance_id, day, action) DO UPDATE SET count = count + 1`,
      ).run(instanceId, day, action);
    },
    promptOutcomes: async (instanceId, sinceDay) =>
      all(
        `SELECT day, SUM(CASE WHEN action = 'accept' THEN count ELSE 0 END) AS accept,
           SUM(CASE WHEN action = 'reject' THEN count ELSE 0 END) AS reject,
           SUM(CASE WHEN action = 'dismiss' THEN count ELSE 0 END) AS dismiss
         FROM prompt_outcomes WHERE instance_id = ? AND day >= ? GROUP BY day ORDER BY day`,
        instanceId,
        sinceDay,
      ),
    async getAdsConfig(client) {
      const row = one<{ document: string }>('SELECT document FROM ads_configs WHERE client = ?', client);
      return row ? JSON.parse(row.document) : null;
    },
    async putAdsConfig(client, document, now) {
      prepare(
        `INSERT INTO ads_configs (client, document, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (client) DO UPDATE SET document = excluded.document, updated_at = excluded.updated_at`,
      ).run(client, JSON.stringify(document), now);
    },
    async recordExperimentView(client, view) {
      prepare(
        `INSERT INTO ads_experiment_arms
           (client, experiment, arm, page_views, ads_placed, viewable, viewable_squares, layout_shift)
         VALUES (?, ?, ?, 1, ?, ?, ?, ?)
         ON CONFLICT (client, experiment, arm) DO UPDATE SET page_views = page_views + 1,
           ads_placed = ads_placed + excluded.ads_placed, viewable = viewable + excluded.viewable,
           viewable_squares = viewable_squares + excluded.viewable_squares,
           layout_shift = layout_shift + excluded.layout_shift`,
      ).run(client, view.experiment, view.arm, view.adsPlaced, view.viewable, view.viewable ** 2, view.layoutShift);
    },
    experimentArms: async (client) =>
      all(
        `SELECT experiment, arm, page_views AS pageViews, ads_placed AS adsPlaced, viewable,
           viewable_squares AS viewableSquares, layout_shift AS layoutShift
         FROM ads_experiment_arms WHERE client = ? ORDER BY experiment, arm`,
        client,
      ),
    async close() {
      await decisions.drain();
      if (!db.open) return;
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
    },
  });
  const ttlMs = options.instanceCacheMs ?? defaultInstanceCacheMs;
  return withDecisionCache(withInstanceCache(store, { ttlMs }), { ttlMs });
}
