/**
 * PostgreSQL adapter (pg). Every write is one transaction; the update is acknowledged after
 * COMMIT returns, which with the default `synchronous_commit = on` means it is on disk.
 * Updates are group-committed: the ones that arrive together are written by one statement, one
 * round trip and one commit (docs/decisions/server-throughput.md). Several server processes can
 * share one database; each caches instances and decisions and drops a cached one when the
 * database NOTIFYs a change (change-listener.ts: LISTEN on a connection of its own).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { ExperimentArmTotals, GroupDecisions, PromptAction } from '../api-types.ts';
import { guardPlainText } from './plain-text-guard.ts';
import { createGroupCommit, defaultMaxBatch } from './group-commit.ts';
import { createChangeListener } from './change-listener.ts';
import { type DecisionWatch, withDecisionCache } from './decision-cache.ts';
import { defaultInstanceCacheMs, type InstanceWatch, withInstanceCache } from './instance-cache.ts';
import {
  autoInstanceLockKey,
  decisionChangeChannel,
  decisionKeyOf,
  instanceChangeChannel,
  migrationLockKey,
  postgresMigrations,
} from './postgres-schema.ts';
import {
  type ReceiptRow,
  receiptFromRow,
  retireKeysSql,
  type SigningKeyRow,
  signingKeyFromRow,
} from './receipt-rows.ts';
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
import type { SqlStoreOptions } from './sqlite-store.ts';
import type { AuditEntry, ConsentStore, InstanceConfig, InstanceRecord, NewAuditEntry, NewReceipt } from './store.ts';
import { defaultPageLimit } from './store.ts';

type PendingDecision = { readonly entry: NewAuditEntry; readonly receipt: NewReceipt | undefined };

const auditColumns = `${decisionColumns}, origin, user_agent, ip_hash, gpc, geo_group`;
const decisionUpdates = decisionColumns
  .split(', ')
  .map((column) => `${column} = excluded.${column}`)
  .join(', ');

/**
 * A whole group of updates in one statement (one round trip; one transaction, so all or none):
 * the rows arrive as one array per column, audit ids are drawn from the sequence first so each
 * receipt names its row, and a user updated twice in the group keeps the later decision.
 */
const recordBatchSql = `
  WITH input AS MATERIALIZED (
    SELECT t.*, nextval(pg_get_serial_sequence('audit_log', 'id')) AS id
    FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::jsonb[], $8::integer[],
                $9::integer[], $10::bigint[], $11::text[], $12::text[], $13::text[], $14::boolean[], $15::text[],
                $16::text[], $17::text[])
      WITH ORDINALITY AS t(instance_id, user_id, page_user_id, state, consent_string, purpose_consents, consent_metadata,
                           tcf_policy_version, policy_version, time, origin, user_agent, ip_hash, gpc, geo_group,
                           receipt_id, jws, ord)
  ),
  audit AS (
    INSERT INTO audit_log (id, ${auditColumns}) SELECT id, ${auditColumns} FROM input ORDER BY ord
  ),
  receipt AS (
    INSERT INTO receipts (id, audit_id, instance_id, user_id, time, jws)
    SELECT receipt_id, id, instance_id, user_id, time, jws FROM input WHERE receipt_id IS NOT NULL
  ),
  decision AS (
    INSERT INTO decisions (${decisionColumns})
    SELECT DISTINCT ON (instance_id, user_id) ${decisionColumns} FROM input ORDER BY instance_id, user_id, ord DESC
    ON CONFLICT (instance_id, user_id) DO UPDATE SET ${decisionUpdates}
  )
  SELECT id FROM input ORDER BY ord`;

/** The statement's parameters: one array per column, in the order of recordBatchSql. */
function batchParameters(batch: readonly PendingDecision[]): unknown[][] {
  const columns: unknown[][] = Array.from({ length: 17 }, () => []);
  for (const { entry, receipt } of batch) {
    const values = [
      ...decisionValues(entry),
      entry.origin,
      entry.userAgent,
      entry.ipHash,
      entry.gpc,
      entry.geoGroup,
      receipt?.id ?? null,
      receipt?.jws ?? null,
    ];
    for (const [index, value] of values.entries()) columns[index]!.push(value);
  }
  return columns;
}

type Queryable = Pick<pg.Pool, 'query'>;

/** An error PostgreSQL answered for one statement on a live connection (SQLSTATE), not a lost or silent server. */
export function isStatementError(error: unknown): boolean {
  // 08 connection exception, 53 insufficient resources, 57 operator intervention (57014: statement_timeout), 58 system error.
  return error instanceof pg.DatabaseError && !/^(08|53|57|58)/.test(error.code ?? '');
}

async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    // A connection that timed out or broke is dropped (the server rolls back when it closes);
    // on a live one, the transaction is rolled back and the connection reused.
    const isLive =
      error instanceof pg.DatabaseError &&
      (await client.query('ROLLBACK').then(
        () => true,
        () => false,
      ));
    client.release(isLive ? undefined : true);
    throw error;
  }
}

async function migrate(pool: pg.Pool): Promise<void> {
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [migrationLockKey]);
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER NOT NULL)');
    const { rows } = await client.query<{ version: number | null }>(
      'SELECT MAX(version) AS version FROM schema_migrations',
    );
    const current = rows[0]?.version ?? 0;
    for (const [index, sql] of postgresMigrations.slice(current).entries()) {
      await client.query(sql);
      await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [current + index + 1]);
    }
    await client.query('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
      'ip_hash_salt',
      randomBytes(16).toString('hex'),
    ]);
  });
}

/** The names of the text columns the aggregate queries return; every other column is a number. */
const TEXT_COLUMNS = new Set(['day', 'purpose', 'experiment', 'arm', 'group']);
const numbers = <T extends object>(row: T): T =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, TEXT_COLUMNS.has(k) ? v : Number(v)])) as T;

/** decision-kinds.ts's split of an audit row, in SQL. */
const postgresDecisionKind = `CASE
  WHEN state = 'unknown' THEN 'unknown'
  WHEN state = 'rejected' AND COALESCE(consent_metadata ->> 'usOptOuts', '') <> '' THEN 'optOut'
  WHEN jsonb_path_exists(purpose_consents, '$.* ? (@ == true)')
    AND jsonb_path_exists(purpose_consents, '$.* ? (@ == false)') THEN 'custom'
  ELSE state END`;

/** How soon a lost LISTEN connection is opened again. */
export const listenRetryMs = 1000;

/**
 * Longest wait, in ms, for a connection and for one statement (PostgreSQL `statement_timeout`),
 * so that no request waits forever on a database that stopped answering (docs/server.md, Store).
 */
export const databaseTimeoutMs = 5000;

/** pg's own limit on a query's answer comes this much later: a live server cancels first, keeping the connection. */
const clientTimeoutMarginMs = 1000;

/** Migrations may wait for another process's migration lock and rewrite tables. */
export const migrationTimeoutMs = 60_000;

/** The pg options that bound every wait: connecting, each statement (server side) and each answer (client side). */
export function postgresTimeouts(statementMs: number, connectMs = statementMs) {
  return {
    connectionTimeoutMillis: connectMs,
    statement_timeout: statementMs,
    query_timeout: statementMs + clientTimeoutMarginMs,
  };
}

/** Runs the migrations on a connection of their own, with their longer time-out. */
async function migrateWithin(connectionString: string, timeoutMs: number): Promise<void> {
  const pool = new pg.Pool({ connectionString, max: 1, ...postgresTimeouts(migrationTimeoutMs, timeoutMs) });
  pool.on('error', () => {});
  try {
    await migrate(pool);
  } finally {
    await pool.end();
  }
}

export async function openPostgresStore(
  connectionString: string,
  options: SqlStoreOptions = {},
): Promise<ConsentStore> {
  const timeoutMs = options.databaseTimeoutMs ?? databaseTimeoutMs;
  await migrateWithin(connectionString, timeoutMs);
  const pool = new pg.Pool({ connectionString, max: 10, ...postgresTimeouts(timeoutMs) });
  pool.on('error', () => {}); // idle client errors surface on the next query instead of crashing

  const rows = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = [], db: Queryable = pool) =>
    (await db.query<T>(sql, params)).rows;
  const getInstance = async (id: string, db: Queryable = pool) => {
    const [row] = await rows<InstanceRow>('SELECT * FROM instances WHERE id = $1', [id], db);
    return row ? instanceFromRow(row) : null;
  };
  /** Counts and inserts under an advisory lock, so racing first uses cannot pass the cap together. */
  const createAutoInstance = (id: string, config: InstanceConfig, now: number, cap: number) =>
    inTransaction(pool, async (client): Promise<InstanceRecord | null> => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [autoInstanceLockKey]);
      const [row] = await rows<InstanceRow>(
        `INSERT INTO instances (id, config, policy_version, created_at, updated_at, auto_created)
         SELECT $1, $2, 1, $3, $3, true WHERE (SELECT COUNT(*) FROM instances WHERE auto_created) < $4
         ON CONFLICT (id) DO NOTHING RETURNING *`,
        [id, toJson(config), now, cap],
        client,
      );
      return row ? instanceFromRow(row) : getInstance(id, client);
    });
  const decisions = createGroupCommit(
    async (batch: readonly PendingDecision[]): Promise<AuditEntry[]> => {
      const { rows: ids } = await pool.query<{ id: string }>(recordBatchSql, batchParameters(batch));
      return batch.map(({ entry }, index) => ({ ...entry, id: Number(ids[index]!.id) }));
    },
    // A silent or lost server fails the whole group at once: retried one by one, each update would wait its own time-out.
    { windowMs: options.commitWindowMs ?? 0, maxBatch: defaultMaxBatch, isItemError: isStatementError },
  );
  const cacheMs = options.instanceCacheMs ?? defaultInstanceCacheMs;
  const listener =
    cacheMs > 0
      ? createChangeListener(connectionString, { retryMs: listenRetryMs, clientOptions: postgresTimeouts(timeoutMs) })
      : null;

  const store = guardPlainText({
    kind: 'postgres',
    async ping() {
      await pool.query('SELECT 1');
    },
    async ipHashSalt() {
      const [row] = await rows<{ value: string }>("SELECT value FROM settings WHERE key = 'ip_hash_salt'");
      return row!.value;
    },
    getInstance: (id) => getInstance(id),
    // Only the instance cache (withInstanceCache) holds copies.
    peekInstance: () => null,
    // Only the decision cache (withDecisionCache) holds copies.
    peekDecision: () => undefined,
    async ensureInstance(id, config, now, maxAutoInstances = Number.POSITIVE_INFINITY) {
      const existing = await getInstance(id);
      if (existing) return existing;
      if (Number.isFinite(maxAutoInstances)) return createAutoInstance(id, config, now, maxAutoInstances);
      await pool.query(
        `INSERT INTO instances (id, config, policy_version, created_at, updated_at, auto_created)
         VALUES ($1, $2, 1, $3, $3, true) ON CONFLICT (id) DO NOTHING`,
        [id, toJson(config), now],
      );
      return getInstance(id);
    },
    async putInstance(id, config, now) {
      const [row] = await rows<InstanceRow>(
        `INSERT INTO instances (id, config, policy_version, created_at, updated_at, auto_created) VALUES ($1, $2, 1, $3, $3, false)
         ON CONFLICT (id) DO UPDATE SET config = excluded.config, updated_at = excluded.updated_at, auto_created = false
         RETURNING *`,
        [id, toJson(config), now],
      );
      return instanceFromRow(row!);
    },
    async bumpPolicyVersion(id, now) {
      const [row] = await rows<InstanceRow>(
        'UPDATE instances SET policy_version = policy_version + 1, updated_at = $2 WHERE id = $1 RETURNING *',
        [id, now],
      );
      return row ? instanceFromRow(row) : null;
    },
    listInstances: async ({ after, limit } = { after: '', limit: defaultPageLimit }) =>
      (
        await rows<InstanceRow>('SELECT * FROM instances WHERE id COLLATE "C" > $1 ORDER BY id COLLATE "C" LIMIT $2', [
          after,
          limit,
        ])
      ).map(instanceFromRow),

    recordDecision: (entry: NewAuditEntry, receipt?: NewReceipt) => decisions.submit({ entry, receipt }),
    async getDecision(instanceId, userId) {
      const [row] = await rows<DecisionRow>('SELECT * FROM decisions WHERE instance_id = $1 AND user_id = $2', [
        instanceId,
        userId,
      ]);
      return row ? decisionFromRow(row) : null;
    },
    getHistory: async (instanceId, userId, { after, limit } = { after: 0, limit: Number.POSITIVE_INFINITY }) =>
      (
        await rows<AuditRow>(
          'SELECT * FROM audit_log WHERE instance_id = $1 AND user_id = $2 AND id > $3 ORDER BY id LIMIT $4',
          [instanceId, userId, after, Number.isFinite(limit) ? limit : null],
        )
      ).map(auditFromRow),
    findUserIds: async (instanceId, pageUserId, { after, limit } = { after: '', limit: defaultPageLimit }) =>
      (
        await rows<{ user_id: string }>(
          `SELECT DISTINCT user_id COLLATE "C" AS user_id FROM audit_log
           WHERE instance_id = $1 AND page_user_id = $2 AND user_id COLLATE "C" > $3 ORDER BY 1 LIMIT $4`,
          [instanceId, pageUserId, after, limit],
        )
      ).map((row) => row.user_id),
    async getReceipt(id) {
      const [row] = await rows<ReceiptRow>('SELECT * FROM receipts WHERE id = $1', [id]);
      return row ? receiptFromRow(row) : null;
    },
    async addSigningKey({ kid, publicJwk, privateJwk, createdAt }) {
      await pool.query(
        'INSERT INTO receipt_keys (kid, public_jwk, private_jwk, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (kid) DO NOTHING',
        [kid, JSON.stringify(publicJwk), privateJwk && JSON.stringify(privateJwk), createdAt],
      );
    },
    listSigningKeys: async () =>
      (await rows<SigningKeyRow>('SELECT * FROM receipt_keys ORDER BY created_at DESC, kid DESC')).map(
        signingKeyFromRow,
      ),
    async retireSigningKeys(keepKid, at) {
      await pool.query(retireKeysSql('$1', '$2'), [keepKid, at]);
      // The row versions from before the update still hold the private parts until the table is
      // rewritten into a new file (docs/server.md, "Key rotation"); VACUUM skips, with only a
      // warning, a table the database user does not own.
      const fileSql = "SELECT pg_relation_filenode('receipt_keys')::text AS file";
      const [before] = await rows<{ file: string }>(fileSql);
      await pool.query('VACUUM FULL receipt_keys');
      const [after] = await rows<{ file: string }>(fileSql);
      if (after?.file === before?.file) {
        throw new Error(
          'receipt key retirement: expected VACUUM FULL to rewrite receipt_keys, got it skipped (is the table owned by another database user?); its old row versions keep the retired private key',
        );
      }
    },
    eraseUser: (instanceId, userId) =>
      inTransaction(pool, async (client) => ({
        receipts: await client.query('DELETE FROM receipts WHERE instance_id = $1 AND user_id = $2', [
          instanceId,
          userId,
        ]),
        decisions:
          (await client.query('DELETE FROM decisions WHERE instance_id = $1 AND user_id = $2', [instanceId, userId]))
            .rowCount ?? 0,
        auditEntries:
          (await client.query('DELETE FROM audit_log WHERE instance_id = $1 AND user_id = $2', [instanceId, userId]))
            .rowCount ?? 0,
      })).then(({ decisions, auditEntries }) => ({ decisions, auditEntries })),
    listAuditEntries: async (instanceId, afterId, limit) =>
      (
        await rows<AuditRow>('SELECT * FROM audit_log WHERE instance_id = $1 AND id > $2 ORDER BY id LIMIT $3', [
          instanceId,
          afterId,
          limit,
        ])
      ).map(auditFromRow),

    async countInstance(instanceId) {
      const states = await rows<{ state: 'accepted' | 'rejected' | 'unknown'; n: string }>(
        'SELECT state, COUNT(*) AS n FROM decisions WHERE instance_id = $1 GROUP BY state',
        [instanceId],
      );
      const decisions = zeroCounts();
      for (const row of states) decisions[row.state] = Number(row.n);
      const [audit] = await rows<{ n: string }>('SELECT COUNT(*) AS n FROM audit_log WHERE instance_id = $1', [
        instanceId,
      ]);
      return { users: states.reduce((sum, row) => sum + Number(row.n), 0), auditEntries: Number(audit!.n), decisions };
    },
    dailyDecisions: async (instanceId, since) =>
      (
        await rows(
          `SELECT to_char(to_timestamp(time / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
             COUNT(*) FILTER (WHERE state = 'accepted') AS accepted,
             COUNT(*) FILTER (WHERE state = 'rejected') AS rejected,
             COUNT(*) FILTER (WHERE state = 'unknown') AS unknown
           FROM audit_log WHERE instance_id = $1 AND time >= $2 GROUP BY day ORDER BY day`,
          [instanceId, since],
        )
      ).map((row) => numbers(row as { day: string; accepted: number; rejected: number; unknown: number })),
    groupDecisions: async (instanceId, since) =>
      (
        await rows<GroupDecisions>(
          `SELECT geo_group AS "group", COUNT(*) FILTER (WHERE kind = 'accepted') AS accepted,
             COUNT(*) FILTER (WHERE kind = 'custom') AS custom, COUNT(*) FILTER (WHERE kind = 'rejected') AS rejected,
             COUNT(*) FILTER (WHERE kind = 'optOut') AS "optOut", COUNT(*) FILTER (WHERE kind = 'unknown') AS unknown
           FROM (SELECT geo_group, ${postgresDecisionKind} AS kind FROM audit_log
                 WHERE instance_id = $1 AND time >= $2) AS kinds
           GROUP BY geo_group ORDER BY geo_group COLLATE "C" NULLS FIRST`,
          [instanceId, since],
        )
      ).map(numbers),
    purposeAcceptance: async (instanceId) =>
      (
        await rows(
          `SELECT p.key AS purpose, COUNT(*) FILTER (WHERE p.value = 'true'::jsonb) AS accepted,
             COUNT(*) FILTER (WHERE p.value = 'false'::jsonb) AS rejected
           FROM decisions d, jsonb_each(d.purpose_consents) p
           WHERE d.instance_id = $1 AND jsonb_typeof(d.purpose_consents) = 'object'
           GROUP BY p.key ORDER BY p.key COLLATE "C"`,
          [instanceId],
        )
      ).map((row) => numbers(row as { purpose: string; accepted: number; rejected: number })),
    async recordPromptOutcome(instanceId, day, action: PromptAction) {
      await pool.query(
        `INSERT INTO prompt_outcomes (instance_id, day, action, count) VALUES ($1, $2, $3, 1)
         ON CONFLICT (instance_id, day, action) DO UPDATE SET count = prompt_outcomes.count + 1`,
        [instanceId, day, action],
      );
    },
    promptOutcomes: async (instanceId, sinceDay) =>
      (
        await rows(
          `SELECT day, COALESCE(SUM(count) FILTER (WHERE action = 'accept'), 0) AS accept,
             COALESCE(SUM(count) FILTER (WHERE action = 'reject'), 0) AS reject,
             COALESCE(SUM(count) FILTER (WHERE action = 'dismiss'), 0) AS dismiss
           FROM prompt_outcomes WHERE instance_id = $1 AND day >= $2 GROUP BY day ORDER BY day`,
          [instanceId, sinceDay],
        )
      ).map((row) => numbers(row as { day: string; accept: number; reject: number; dismiss: number })),
    async getAdsConfig(client) {
      const [row] = await rows<{ document: unknown }>('SELECT document FROM ads_configs WHERE client = $1', [client]);
      return row ? row.document : null;
    },
    async putAdsConfig(client, document, now) {
      await pool.query(
        `INSERT INTO ads_configs (client, document, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (client) DO UPDATE SET document = excluded.document, updated_at = excluded.updated_at`,
        [client, JSON.stringify(document), now],
      );
    },
    async recordExperimentView(client, view) {
      await pool.query(
        `INSERT INTO ads_experiment_arms
           (client, experiment, arm, page_views, ads_placed, viewable, viewable_squares, layout_shift)
         VALUES ($1, $2, $3, 1, $4, $5, $6, $7)
         ON CONFLICT (client, experiment, arm) DO UPDATE SET page_views = ads_experiment_arms.page_views + 1,
           ads_placed = ads_experiment_arms.ads_placed + excluded.ads_placed,
           viewable = ads_experiment_arms.viewable + excluded.viewable,
           viewable_squares = ads_experiment_arms.viewable_squares + excluded.viewable_squares,
           layout_shift = ads_experiment_arms.layout_shift + excluded.layout_shift`,
        [client, view.experiment, view.arm, view.adsPlaced, view.viewable, view.viewable ** 2, view.layoutShift],
      );
    },
    experimentArms: async (client) =>
      (
        await rows(
          `SELECT experiment, arm, page_views AS "pageViews", ads_placed AS "adsPlaced", viewable,
             viewable_squares AS "viewableSquares", layout_shift AS "layoutShift"
           FROM ads_experiment_arms WHERE client = $1 ORDER BY experiment COLLATE "C", arm COLLATE "C"`,
          [client],
        )
      ).map((row) => numbers(row as ExperimentArmTotals)),
    async close() {
      await decisions.drain();
      await listener?.stop();
      if (!pool.ended) await pool.end();
    },
  });
  let onInstance: Parameters<InstanceWatch>[0] = () => {};
  let onDecision: Parameters<DecisionWatch>[0] = () => {};
  const instanceWatch: InstanceWatch = (handler) => (onInstance = handler);
  const decisionWatch: DecisionWatch = (handler) => (onDecision = handler);
  const cached = withDecisionCache(
    withInstanceCache(store, { ttlMs: cacheMs, ...(listener ? { watch: instanceWatch } : {}) }),
    {
      ttlMs: cacheMs,
      ...(listener ? { watch: decisionWatch } : {}),
    },
  );
  // Start listening before serving, so a change made from now on is heard.
  await listener?.start({
    [instanceChangeChannel]: (payload) => onInstance(payload),
    [decisionChangeChannel]: (payload) => onDecision(payload === null ? null : decisionKeyOf(payload)),
  });
  return cached;
}
