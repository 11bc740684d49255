/**
 * The store boundary refuses text that not every database can hold: PostgreSQL rejects NUL in
 * text and jsonb and lone surrogates in jsonb, while SQLite and memory would keep them. Every
 * adapter wraps itself in `guardPlainText`, so each one refuses the same values with the same
 * 400 `invalid-field` naming the argument, before any query runs. Routes validate earlier; this
 * is the defence for any path that forgets.
 */
import { isPlainText } from '../../src/wire/values.ts';
import { invalidField } from '../errors.ts';
import type { ConsentStore } from './store.ts';

// `peekInstance` and `peekDecision` are synchronous and only look ids up in memory: nothing to guard.
/** What a string that is not plain text was expected to be. */
export const PLAIN_TEXT = 'text without NUL or lone surrogates';

type Method = Exclude<keyof ConsentStore, 'kind' | 'peekInstance' | 'peekDecision'>;

/**
 * Each method's parameter names, for messages. An empty name spreads an object's fields
 * (`pageUserId` rather than `entry.pageUserId`).
 */
const parameterNames: Readonly<Record<Method, readonly string[]>> = {
  ping: [],
  ipHashSalt: [],
  getInstance: ['id'],
  ensureInstance: ['id', 'config'],
  putInstance: ['id', 'config'],
  bumpPolicyVersion: ['id'],
  listInstances: ['page'],
  recordDecision: ['', 'receipt'],
  getReceipt: ['id'],
  addSigningKey: ['key'],
  listSigningKeys: [],
  retireSigningKeys: ['keepKid'],
  getDecision: ['instanceId', 'userId'],
  getHistory: ['instanceId', 'userId'],
  findUserIds: ['instanceId', 'pageUserId', 'page'],
  eraseUser: ['instanceId', 'userId'],
  listAuditEntries: ['instanceId'],
  countInstance: ['instanceId'],
  groupDecisions: ['instanceId'],
  dailyDecisions: ['instanceId'],
  purposeAcceptance: ['instanceId'],
  recordPromptOutcome: ['instanceId', 'day', 'action'],
  promptOutcomes: ['instanceId', 'sinceDay'],
  getAdsConfig: ['client'],
  putAdsConfig: ['client', 'document'],
  recordExperimentView: ['client', 'view'],
  experimentArms: ['client'],
  close: [],
};

const childPath = (path: string, key: string, isArray: boolean) =>
  isArray ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;

/** Throws `invalid-field` for the first string or object key that is not plain text (iterative: any depth). */
export function assertPlainText(value: unknown, field: string): void {
  const pending: [unknown, string][] = [[value, field]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, path] = next;
    if (typeof item === 'string' && !isPlainText(item)) throw invalidField(path || 'value', PLAIN_TEXT, item);
    if (typeof item !== 'object' || item === null) continue;
    for (const [key, child] of Object.entries(item)) {
      const keyPath = childPath(path, key, Array.isArray(item));
      if (!isPlainText(key)) throw invalidField(path || 'value', `keys of ${PLAIN_TEXT}`, key);
      pending.push([child, keyPath]);
    }
  }
}

/** The same store, with every argument of every method checked first. */
export function guardPlainText(store: ConsentStore): ConsentStore {
  const guarded: Record<string, unknown> = {
    kind: store.kind,
    peekInstance: (id: string) => store.peekInstance(id),
    peekDecision: (instanceId: string, userId: string) => store.peekDecision(instanceId, userId),
  };
  for (const method of Object.keys(parameterNames) as Method[]) {
    const names = parameterNames[method];
    const call = store[method] as (...args: unknown[]) => Promise<unknown>;
    guarded[method] = async (...args: unknown[]) => {
      for (const [index, arg] of args.entries()) assertPlainText(arg, names[index] ?? `argument ${index + 1}`);
      return call.apply(store, args);
    };
  }
  return guarded as unknown as ConsentStore;
}
