/**
 * Instance policy cache of the SQL adapters (docs/decisions/server-throughput.md): every consent
 * check needs its instance, which changes only through the admin API, so the record is kept in
 * memory. An entry is dropped when this process changes the instance (the new record replaces
 * it), when the database says another process changed it (`watch`: PostgreSQL LISTEN/NOTIFY),
 * and in any case once it is `ttlMs` old, which bounds how long another process's change can go
 * unseen when no notification arrives (SQLite shared by several processes, a lost listener).
 */
import type { ConsentStore, InstanceRecord } from './store.ts';

/** Calls `onChange(id)` for each instance changed by anyone, `onChange(null)` when changes may have been missed. */
export type InstanceWatch = (onChange: (id: string | null) => void) => void;

export type InstanceCacheOptions = {
  /** Longest time an entry is used without reading the database again; 0 disables the cache. */
  readonly ttlMs: number;
  readonly watch?: InstanceWatch;
  /** Clock for the entries' age; defaults to performance.now(). */
  readonly clock?: () => number;
};

/** Default `ttlMs` (INSTANCE_CACHE_MS). */
export const defaultInstanceCacheMs = 1000;

type Entry = {
  readonly record: Promise<InstanceRecord | null>;
  /** The record once `record` has settled on one (what peekInstance answers). */
  settled: InstanceRecord | null;
  readonly loadedAt: number;
  readonly generation: number;
};

export function withInstanceCache(store: ConsentStore, options: InstanceCacheOptions): ConsentStore {
  if (options.ttlMs <= 0) return store;
  const clock = options.clock ?? (() => performance.now());
  const entries = new Map<string, Entry>();
  // Bumped by every invalidation, so a read that started before a change is not cached after it.
  let generation = 0;

  const forget = (id: string | null) => {
    generation++;
    if (id === null) entries.clear();
    else entries.delete(id);
  };
  options.watch?.(forget);

  const freshEntry = (id: string): Entry | undefined => {
    const entry = entries.get(id);
    if (!entry || clock() - entry.loadedAt < options.ttlMs) return entry;
    entries.delete(id);
    return undefined;
  };
  const fresh = (id: string) => freshEntry(id)?.record ?? null;
  /** Caches the answer of `load` unless it is null (a missing instance may appear), refused, or overtaken by a change. */
  const remember = (id: string, load: () => Promise<InstanceRecord | null>) => {
    const entry: Entry = { record: load(), settled: null, loadedAt: clock(), generation };
    entries.set(id, entry);
    entry.record.then(
      (record) => {
        if (record !== null && entry.generation === generation) entry.settled = record;
        else if (entries.get(id) === entry) entries.delete(id);
      },
      () => {
        if (entries.get(id) === entry) entries.delete(id);
      },
    );
    return entry.record;
  };
  const replace = (record: InstanceRecord | null, id: string) => {
    forget(id);
    if (record) entries.set(id, { record: Promise.resolve(record), settled: record, loadedAt: clock(), generation });
    return record;
  };

  return {
    ...store,
    getInstance: (id) => fresh(id) ?? remember(id, () => store.getInstance(id)),
    peekInstance: (id) => freshEntry(id)?.settled ?? null,
    // A cached "missing" (a getInstance still in flight) must not read as "refused by the cap".
    ensureInstance: async (id, config, now, maxAutoInstances) =>
      (await fresh(id)) ?? remember(id, () => store.ensureInstance(id, config, now, maxAutoInstances)),
    putInstance: async (id, config, now) => replace(await store.putInstance(id, config, now), id)!,
    bumpPolicyVersion: async (id, now) => replace(await store.bumpPolicyVersion(id, now), id),
  };
}
