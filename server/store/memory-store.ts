/** In-memory store for tests and throwaway demos (`DATABASE_URL=memory:`). Nothing survives a restart. */
import { randomBytes } from 'node:crypto';
import type {
  DailyDecisions,
  DailyPromptOutcomes,
  ExperimentArmTotals,
  GroupDecisions,
  PromptAction,
  PurposeAcceptance,
} from '../api-types.ts';
import { decisionKindOf, zeroKinds } from '../decision-kinds.ts';
import { guardPlainText } from './plain-text-guard.ts';
import type {
  AuditEntry,
  ConsentStore,
  DecisionRecord,
  InstanceConfig,
  InstanceRecord,
  NewAuditEntry,
  NewReceipt,
  ReceiptRecord,
  SigningKeyRecord,
} from './store.ts';
import { defaultPageLimit, utcDay } from './store.ts';

const key = (instanceId: string, userId: string) => `${instanceId}\u0000${userId}`;

export function createMemoryStore(): ConsentStore {
  const salt = randomBytes(16).toString('hex');
  const instances = new Map<string, InstanceRecord>();
  /** Ids of the instances created on first use and not configured since. */
  const autoCreated = new Set<string>();
  const decisions = new Map<string, DecisionRecord>();
  const receipts = new Map<string, ReceiptRecord>();
  const signingKeys: SigningKeyRecord[] = [];
  let audit: AuditEntry[] = [];
  const outcomes = new Map<string, number>();
  const adsConfigs = new Map<string, unknown>();
  /** Arm totals by client, experiment and arm. */
  const arms = new Map<string, ExperimentArmTotals & { readonly client: string }>();
  let nextId = 1;

  const forInstance = (instanceId: string) => audit.filter((entry) => entry.instanceId === instanceId);
  const decisionsOf = (instanceId: string) => [...decisions.values()].filter((d) => d.instanceId === instanceId);

  return guardPlainText({
    kind: 'memory',
    ping: async () => {},
    ipHashSalt: async () => salt,
    getInstance: async (id) => instances.get(id) ?? null,
    peekInstance: (id) => instances.get(id) ?? null,
    async ensureInstance(id, config, now, maxAutoInstances = Number.POSITIVE_INFINITY) {
      const existing = instances.get(id);
      if (existing) return existing;
      if (autoCreated.size >= maxAutoInstances) return null;
      const record = { id, config, policyVersion: 1, createdAt: now, updatedAt: now };
      instances.set(id, record);
      autoCreated.add(id);
      return record;
    },
    async putInstance(id: string, config: InstanceConfig, now: number) {
      const existing = instances.get(id);
      const record = existing
        ? { ...existing, config, updatedAt: now }
        : { id, config, policyVersion: 1, createdAt: now, updatedAt: now };
      instances.set(id, record);
      autoCreated.delete(id);
      return record;
    },
    async bumpPolicyVersion(id, now) {
      const existing = instances.get(id);
      if (!existing) return null;
      const record = { ...existing, policyVersion: existing.policyVersion + 1, updatedAt: now };
      instances.set(id, record);
      return record;
    },
    listInstances: async ({ after, limit } = { after: '', limit: defaultPageLimit }) =>
      [...instances.values()]
        .filter((instance) => instance.id > after)
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .slice(0, limit),

    async recordDecision(entry: NewAuditEntry, receipt?: NewReceipt) {
      if (receipt && receipts.has(receipt.id)) throw new Error(`receipt ${receipt.id} exists`);
      const stored = { ...entry, id: nextId++ };
      const { instanceId, userId, time } = entry;
      if (receipt) receipts.set(receipt.id, { ...receipt, auditId: stored.id, instanceId, userId, time });
      audit.push(stored);
      const {
        id: _id,
        origin: _origin,
        userAgent: _userAgent,
        ipHash: _ipHash,
        gpc: _gpc,
        geoGroup: _geoGroup,
        ...decision
      } = stored;
      decisions.set(key(entry.instanceId, entry.userId), decision);
      return stored;
    },
    getDecision: async (instanceId, userId) => decisions.get(key(instanceId, userId)) ?? null,
    peekDecision: (instanceId, userId) => decisions.get(key(instanceId, userId)) ?? null,
    getHistory: async (instanceId, userId, { after, limit } = { after: 0, limit: Number.POSITIVE_INFINITY }) =>
      forInstance(instanceId)
        .filter((entry) => entry.userId === userId && entry.id > after)
        .slice(0, limit),
    async findUserIds(instanceId, pageUserId, { after, limit } = { after: '', limit: defaultPageLimit }) {
      const ids = forInstance(instanceId).filter((entry) => entry.pageUserId === pageUserId && entry.userId > after);
      return [...new Set(ids.map((entry) => entry.userId))].sort().slice(0, limit);
    },
    async eraseUser(instanceId, userId) {
      const before = audit.length;
      audit = audit.filter((entry) => entry.instanceId !== instanceId || entry.userId !== userId);
      const hadDecision = decisions.delete(key(instanceId, userId));
      for (const [id, receipt] of receipts)
        if (receipt.instanceId === instanceId && receipt.userId === userId) receipts.delete(id);
      return { decisions: hadDecision ? 1 : 0, auditEntries: before - audit.length };
    },
    getReceipt: async (id) => receipts.get(id) ?? null,
    async addSigningKey(signingKey) {
      if (!signingKeys.some((kept) => kept.kid === signingKey.kid)) signingKeys.push(signingKey);
    },
    listSigningKeys: async () => [...signingKeys].reverse().sort((a, b) => b.createdAt - a.createdAt),
    async retireSigningKeys(keepKid, at) {
      for (const [index, kept] of signingKeys.entries()) {
        if (kept.kid !== keepKid && kept.retiredAt === null)
          signingKeys[index] = { ...kept, privateJwk: null, retiredAt: at };
      }
    },
    listAuditEntries: async (instanceId, afterId, limit) =>
      forInstance(instanceId)
        .filter((entry) => entry.id > afterId)
        .slice(0, limit),

    async countInstance(instanceId) {
      const current = decisionsOf(instanceId);
      const count = (state: string) => current.filter((d) => d.state === state).length;
      return {
        users: current.length,
        auditEntries: forInstance(instanceId).length,
        decisions: { accepted: count('accepted'), rejected: count('rejected'), unknown: count('unknown') },
      };
    },
    async dailyDecisions(instanceId, since) {
      const days = new Map<string, { accepted: number; rejected: number; unknown: number }>();
      for (const entry of forInstance(instanceId)) {
        if (entry.time < since) continue;
        const day = utcDay(entry.time);
        const row = days.get(day) ?? { accepted: 0, rejected: 0, unknown: 0 };
        row[entry.state]++;
        days.set(day, row);
      }
      return [...days].sort(([a], [b]) => a.localeCompare(b)).map(([day, row]): DailyDecisions => ({ day, ...row }));
    },
    async groupDecisions(instanceId, since) {
      const groups = new Map<string | null, ReturnType<typeof zeroKinds>>();
      for (const entry of forInstance(instanceId)) {
        if (entry.time < since) continue;
        const row = groups.get(entry.geoGroup) ?? zeroKinds();
        row[decisionKindOf(entry)]++;
        groups.set(entry.geoGroup, row);
      }
      const order = (group: string | null) => (group === null ? '' : `_${group}`);
      return [...groups]
        .sort(([a], [b]) => (order(a) < order(b) ? -1 : 1))
        .map(([group, row]): GroupDecisions => ({ group, ...row }));
    },
    async purposeAcceptance(instanceId) {
      const purposes = new Map<string, { accepted: number; rejected: number }>();
      for (const decision of decisionsOf(instanceId)) {
        for (const [purpose, granted] of Object.entries(decision.purposeConsents ?? {})) {
          const row = purposes.get(purpose) ?? { accepted: 0, rejected: 0 };
          row[granted ? 'accepted' : 'rejected']++;
          purposes.set(purpose, row);
        }
      }
      return [...purposes]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([purpose, row]): PurposeAcceptance => ({ purpose, ...row }));
    },
    async recordPromptOutcome(instanceId, day, action: PromptAction) {
      const outcomeKey = `${instanceId}\u0000${day}\u0000${action}`;
      outcomes.set(outcomeKey, (outcomes.get(outcomeKey) ?? 0) + 1);
    },
    async promptOutcomes(instanceId, sinceDay) {
      const days = new Map<string, { accept: number; reject: number; dismiss: number }>();
      for (const [outcomeKey, count] of outcomes) {
        const [instance, day = '', action] = outcomeKey.split('\u0000') as [string, string, PromptAction];
        if (instance !== instanceId || day < sinceDay) continue;
        const row = days.get(day) ?? { accept: 0, reject: 0, dismiss: 0 };
        row[action] += count;
        days.set(day, row);
      }
      return [...days]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([day, row]): DailyPromptOutcomes => ({ day, ...row }));
    },
    getAdsConfig: async (client) => adsConfigs.get(client) ?? null,
    async putAdsConfig(client, document) {
      adsConfigs.set(client, structuredClone(document));
    },
    async recordExperimentView(client, { experiment, arm, adsPlaced, viewable, layoutShift }) {
      const armKey = `${client}\u0000${experiment}\u0000${arm}`;
      const row = arms.get(armKey);
      arms.set(armKey, {
        client,
        experiment,
        arm,
        pageViews: (row?.pageViews ?? 0) + 1,
        adsPlaced: (row?.adsPlaced ?? 0) + adsPlaced,
        viewable: (row?.viewable ?? 0) + viewable,
        viewableSquares: (row?.viewableSquares ?? 0) + viewable * viewable,
        layoutShift: (row?.layoutShift ?? 0) + layoutShift,
      });
    },
    experimentArms: async (client) =>
      [...arms]
        .filter(([, row]) => row.client === client)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([, { client: _client, ...totals }]) => totals),
    close: async () => {},
  });
}
