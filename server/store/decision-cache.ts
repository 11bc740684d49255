/**
 * Decision cache of the SQL adapters (docs/decisions/server-throughput.md, "Returning
 * readers"): a returning reader's check needs that reader's current decision, which changes
 * only by an update or an erasure, so the record (or its absence) is kept in memory and a check
 * answers without I/O. An entry is replaced when this process records a decision, dropped when
 * it erases one, dropped when the database says another process changed it (`watch`:
 * PostgreSQL LISTEN/NOTIFY), and in any case once it is `ttlMs` old (SQLite shared by several
 * processes, a lost listener). A read in flight when its entry is dropped or replaced is not
 * cached, so no answer older than a change is kept after it.
 */
import type { ConsentStore, DecisionRecord, NewAuditEntry } from './store.ts';

/** Calls `onChange(instanceId, userId)` for each decision changed by anyone, `onChange(null)` when changes may have been missed. */
export type DecisionWatch = (
  onChange: (key: { readonly instanceId: string; readonly userId: string } | null) => void,
) => void;

export type DecisionCacheOptions = {
  /** Longest time an entry is used without reading the database again; 0 disables the cache. */
  readonly ttlMs: number;
  readonly watch?: DecisionWatch;
  /** Entries kept at most; the oldest go first. */
  readonly maxEntries?: number;
  readonly clock?: () => number;
};

export const defaultMaxDecisionEntries = 100_000;

type Entry = {
  readonly record: Promise<DecisionRecord | null>;
  settled: DecisionRecord | null | undefined;
  readonly loadedAt: number;
};

const keyOf = (instanceId: string, userId: string) => `${instanceId}\n${userId}`;

/** The decision an audit entry leaves behind (the audit-only fields dropped). */
export function decisionOf(entry: NewAuditEntry): DecisionRecord {
  const {
    instanceId,
    userId,
    pageUserId,
    state,
    consentString,
    purposeConsents,
    consentMetadata,
    tcfPolicyVersion,
    policyVersion,
    time,
  } = entry;
  return {
    instanceId,
    userId,
    pageUserId,
    state,
    consentString,
    purposeConsents,
    consentMetadata,
    tcfPolicyVersion,
    policyVersion,
    time,
  };
}

export function withDecisionCache(store: ConsentStore, options: DecisionCacheOptions): ConsentStore {
  if (options.ttlMs <= 0) return store;
  const clock = options.clock ?? (() => performance.now());
  const maxEntries = options.maxEntries ?? defaultMaxDecisionEntries;
  const entries = new Map<string, Entry>();
  options.watch?.((key) => (key === null ? entries.clear() : entries.delete(keyOf(key.instanceId, key.userId))));

  const put = (key: string, entry: Entry) => {
    entries.delete(key);
    if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
    entries.set(key, entry);
  };
  const fresh = (key: string) => {
    const entry = entries.get(key);
    if (!entry || clock() - entry.loadedAt < options.ttlMs) return entry;
    entries.delete(key);
    return undefined;
  };
  const load = (instanceId: string, userId: string) => {
    const key = keyOf(instanceId, userId);
    const entry: Entry = { record: store.getDecision(instanceId, userId), settled: undefined, loadedAt: clock() };
    put(key, entry);
    entry.record.then(
      (record) => {
        if (entries.get(key) === entry) entry.settled = record;
      },
      () => entries.get(key) === entry && entries.delete(key),
    );
    return entry.record;
  };

  return {
    ...store,
    getDecision: (instanceId, userId) => fresh(keyOf(instanceId, userId))?.record ?? load(instanceId, userId),
    peekDecision: (instanceId, userId) => fresh(keyOf(instanceId, userId))?.settled,
    async recordDecision(entry, receipt) {
      const key = keyOf(entry.instanceId, entry.userId);
      entries.delete(key);
      const stored = await store.recordDecision(entry, receipt);
      const decision = decisionOf(entry);
      put(key, { record: Promise.resolve(decision), settled: decision, loadedAt: clock() });
      return stored;
    },
    async eraseUser(instanceId, userId) {
      entries.delete(keyOf(instanceId, userId));
      const erased = await store.eraseUser(instanceId, userId);
      entries.delete(keyOf(instanceId, userId));
      return erased;
    },
  };
}
