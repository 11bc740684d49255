/**
 * The consent-record store: one interface, three adapters (memory, SQLite, PostgreSQL),
 * one contract test suite (test/server/store-contract.ts).
 */
import type { ConsentMetadata, ConsentStateValue, PurposeConsents } from '../../src/wire/consent.ts';
import type { ExperimentReport } from '../../src/wire/auto-ads-experiment.ts';
import type {
  DailyDecisions,
  ExperimentArmTotals,
  DailyPromptOutcomes,
  GroupDecisions,
  InstanceCounts,
  PromptAction,
  PurposeAcceptance,
} from '../api-types.ts';
import type { InstanceConfig } from '../../src/wire/instance-config.ts';

export type { InstanceConfig };

export type InstanceRecord = {
  readonly id: string;
  readonly config: InstanceConfig;
  /** Starts at 1; a bump makes every older decision stale (`expireCache: true`). */
  readonly policyVersion: number;
  readonly createdAt: number;
  readonly updatedAt: number;
};

/** A user's current decision for one instance. `userId` is the server's cookie id. */
export type DecisionRecord = {
  readonly instanceId: string;
  readonly userId: string;
  readonly pageUserId: string;
  readonly state: ConsentStateValue;
  readonly consentString: string | null;
  readonly purposeConsents: PurposeConsents | null;
  readonly consentMetadata: ConsentMetadata | null;
  readonly tcfPolicyVersion: number | null;
  readonly policyVersion: number;
  /** Milliseconds since the epoch. */
  readonly time: number;
};

/** One append-only audit log row. */
export type AuditEntry = DecisionRecord & {
  readonly id: number;
  readonly origin: string | null;
  readonly userAgent: string | null;
  /** Salted SHA-256 of the client IP, hex. */
  readonly ipHash: string | null;
  /** The update said the browser sent Global Privacy Control (docs/consent.md, "Global Privacy Control"). */
  readonly gpc: boolean;
  /** The geo group the server matched for the update (the receipt's `geo_group`); null in rows logged before it was kept. */
  readonly geoGroup: string | null;
};

export type NewAuditEntry = Omit<AuditEntry, 'id'>;

/** A signed receipt of one stored update (docs/server.md, "Proving consent"), kept with its audit row. */
export type ReceiptRecord = {
  readonly id: string;
  readonly auditId: number;
  readonly instanceId: string;
  readonly userId: string;
  readonly time: number;
  /** The receipt, signed: JWS compact serialisation. */
  readonly jws: string;
};

export type NewReceipt = Pick<ReceiptRecord, 'id' | 'jws'>;

/**
 * A receipt signing key; `privateJwk` is null for a key that lives outside the store
 * (RECEIPT_SIGNING_KEY) and for a retired key (its private part is deleted when it retires).
 */
export type SigningKeyRecord = {
  readonly kid: string;
  readonly publicJwk: Readonly<Record<string, string>>;
  readonly privateJwk: Readonly<Record<string, string>> | null;
  readonly createdAt: number;
  /** When a rotation retired it (ms); null while it may sign. */
  readonly retiredAt: number | null;
};

export type ErasedCounts = { readonly decisions: number; readonly auditEntries: number };

export type StoreKind = 'memory' | 'sqlite' | 'postgres';

/** A keyset page: the items after `after` in the list's order, at most `limit` of them. */
export type Page<Cursor> = { readonly after: Cursor; readonly limit: number };

/** Every list without a page argument stops here. */
export const defaultPageLimit = 1000;

export interface ConsentStore {
  readonly kind: StoreKind;
  /** Throws when the database cannot answer (used by /healthz). */
  ping(): Promise<void>;
  /** A random salt created with the database and shared by every process using it. */
  ipHashSalt(): Promise<string>;

  getInstance(id: string): Promise<InstanceRecord | null>;
  /**
   * The instance when this process holds a current copy of it, read without I/O; null when only
   * the database can say. Lets a consent check answer without waiting on a promise.
   */
  peekInstance(id: string): InstanceRecord | null;
  /**
   * Returns the instance, creating it with `config` when missing (race-free, "created on first
   * use"); null, writing nothing, when it is missing and `maxAutoInstances` instances created
   * this way (and not configured through putInstance since) exist already.
   */
  ensureInstance(
    id: string,
    config: InstanceConfig,
    now: number,
    maxAutoInstances?: number,
  ): Promise<InstanceRecord | null>;
  /** Creates or replaces the config; the policy version is kept. The instance no longer counts as created on first use. */
  putInstance(id: string, config: InstanceConfig, now: number): Promise<InstanceRecord>;
  bumpPolicyVersion(id: string, now: number): Promise<InstanceRecord | null>;
  /** Instances by id in code-unit order, after `page.after` (default: from the start, 1,000). */
  listInstances(page?: Page<string>): Promise<readonly InstanceRecord[]>;

  /**
   * Appends to the audit log and replaces the current decision, atomically and durably, with
   * the receipt (if given) in the same transaction: both are stored or neither.
   */
  recordDecision(entry: NewAuditEntry, receipt?: NewReceipt): Promise<AuditEntry>;
  getReceipt(id: string): Promise<ReceiptRecord | null>;
  /** Keeps a signing key (a kid already kept is left as it is). */
  addSigningKey(key: SigningKeyRecord): Promise<void>;
  /** Every signing key ever kept, newest first. */
  listSigningKeys(): Promise<readonly SigningKeyRecord[]>;
  /**
   * Retires every key but `keepKid` not retired yet: its private part is deleted, with no copy
   * left in the database files (docs/server.md, "Key rotation"), `retiredAt` set to `at`.
   */
  retireSigningKeys(keepKid: string, at: number): Promise<void>;
  getDecision(instanceId: string, userId: string): Promise<DecisionRecord | null>;
  /**
   * The user's decision (null: none) when this process holds a current copy of it, read without
   * I/O; undefined when only the database can say. Lets a returning reader's check answer at once.
   */
  peekDecision(instanceId: string, userId: string): DecisionRecord | null | undefined;
  /** Audit entries of one user, oldest first, with ids after `page.after` (default: all). */
  getHistory(instanceId: string, userId: string, page?: Page<number>): Promise<readonly AuditEntry[]>;
  /** The user ids that sent `pageUserId`, in code-unit order after `page.after` (default: from the start, 1,000). */
  findUserIds(instanceId: string, pageUserId: string, page?: Page<string>): Promise<readonly string[]>;
  eraseUser(instanceId: string, userId: string): Promise<ErasedCounts>;
  /** Keyset page of an instance's audit log by ascending id (for streamed exports). */
  listAuditEntries(instanceId: string, afterId: number, limit: number): Promise<readonly AuditEntry[]>;

  countInstance(instanceId: string): Promise<InstanceCounts>;
  /** Audit entries per UTC day and state, from `since` (ms) on, days ascending. */
  dailyDecisions(instanceId: string, since: number): Promise<readonly DailyDecisions[]>;
  /**
   * Audit entries from `since` (ms) on, per geo group (null: logged before the group was kept)
   * and kind of decision (server/decision-kinds.ts), groups in code-unit order, null first.
   */
  groupDecisions(instanceId: string, since: number): Promise<readonly GroupDecisions[]>;
  /** Purpose choices among current decisions, purposes sorted by name. */
  purposeAcceptance(instanceId: string): Promise<readonly PurposeAcceptance[]>;
  recordPromptOutcome(instanceId: string, day: string, action: PromptAction): Promise<void>;
  /** Hosted-prompt outcome counters from `sinceDay` (YYYY-MM-DD) on, days ascending. */
  promptOutcomes(instanceId: string, sinceDay: string): Promise<readonly DailyPromptOutcomes[]>;

  /** Auto-ads config documents kept in the database (same format as an ads-config file). */
  getAdsConfig(client: string): Promise<unknown>;
  putAdsConfig(client: string, document: unknown, now: number): Promise<void>;
  /** Adds one page view's counts to its arm's totals (one row per client, experiment and arm). */
  recordExperimentView(client: string, view: ExperimentReport): Promise<void>;
  /** The totals of every arm of the client's experiments, by experiment then arm (code-unit order). */
  experimentArms(client: string): Promise<readonly ExperimentArmTotals[]>;

  close(): Promise<void>;
}

export const defaultInstanceConfig: InstanceConfig = {
  consentRequired: { default: true },
  geoGroups: {},
  subdivisionUnknown: 'strictest',
  sharedData: null,
  purposeConsentRequired: null,
  xssiPrefix: null,
  prompt: null,
  tcf: null,
  gpp: null,
};

/** `YYYY-MM-DD` of a time in UTC. */
export function utcDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}
