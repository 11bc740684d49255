/**
 * One contract suite for every ConsentStore adapter (memory, SQLite, PostgreSQL).
 * Each test gets a fresh, empty store from the adapter's harness.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConsentStore, InstanceConfig, NewAuditEntry } from '../../server/store/store.ts';
import { defaultInstanceConfig } from '../../server/store/store.ts';

export type StoreHarness = {
  /** A fresh empty store. */
  open(): Promise<ConsentStore>;
  /** Opens the same database again (persistent adapters only). */
  reopen?: () => Promise<ConsentStore>;
  /** Every file the database keeps on disk, byte for byte, as they are now (persistent adapters only). */
  databaseFiles?: () => Promise<Buffer[]>;
  /** Removes what open() created; called after the store is closed. */
  cleanup?: () => Promise<void>;
};

const day1 = Date.UTC(2025, 0, 1, 10);
const day2 = Date.UTC(2025, 0, 2, 23, 59);

export function entry(overrides: Partial<NewAuditEntry> = {}): NewAuditEntry {
  return {
    instanceId: 'site',
    userId: 'user-a',
    pageUserId: 'page-a',
    state: 'accepted',
    consentString: null,
    purposeConsents: null,
    consentMetadata: null,
    tcfPolicyVersion: null,
    policyVersion: 1,
    time: day1,
    origin: 'https://news.example',
    userAgent: 'test agent',
    ipHash: 'ab12',
    gpc: false,
    geoGroup: null,
    ...overrides,
  };
}

const customConfig: InstanceConfig = {
  ...defaultInstanceConfig,
  consentRequired: { default: false, eea: true },
  geoGroups: { eea: ['preset-eea'] },
  sharedData: { tier: 'gold', visits: 3, subscriber: true },
  purposeConsentRequired: ['analytics'],
  xssiPrefix: ")]}'",
};

export function runStoreContract(name: string, harness: StoreHarness): void {
  describe(`${name} store`, () => {
    let store: ConsentStore;
    beforeEach(async () => {
      store = await harness.open();
    });
    afterEach(async () => {
      await store.close();
      await harness.cleanup?.();
    });

    it('answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    it('keeps one stable hex salt for IP hashes', async () => {
      const salt = await store.ipHashSalt();
      expect(salt).toMatch(/^[0-9a-f]{32}$/);
      expect(await store.ipHashSalt()).toBe(salt);
    });

    it.runIf(harness.reopen)('keeps receipts and signing keys after reopening', async () => {
      await store.recordDecision(entry(), { id: 'rcpt_1', jws: 'a.b.c' });
      await store.addSigningKey({
        kid: 'k',
        publicJwk: { x: 'k' },
        privateJwk: { x: 'k', d: 'd' },
        createdAt: 1,
        retiredAt: null,
      });
      await store.close();
      store = await harness.reopen!();
      expect((await store.getReceipt('rcpt_1'))?.jws).toBe('a.b.c');
      expect((await store.listSigningKeys()).map((key) => key.kid)).toEqual(['k']);
    });

    it('returns null for an unknown instance', async () => {
      expect(await store.getInstance('nope')).toBeNull();
    });

    it('creates an instance once with policy version 1', async () => {
      const created = await store.ensureInstance('site', customConfig, 1000);
      expect(created).toEqual({ id: 'site', config: customConfig, policyVersion: 1, createdAt: 1000, updatedAt: 1000 });
      const again = await store.ensureInstance('site', defaultInstanceConfig, 2000);
      expect(again).toEqual(created);
    });

    it('creates one instance when several requests race', async () => {
      const results = await Promise.all(
        Array.from({ length: 5 }, (_, i) => store.ensureInstance('race', defaultInstanceConfig, i)),
      );
      expect(new Set(results.map((r) => r?.createdAt)).size).toBe(1);
      expect(await store.listInstances()).toHaveLength(1);
    });

    it('replaces the config and keeps the policy version', async () => {
      await store.ensureInstance('site', defaultInstanceConfig, 1000);
      await store.bumpPolicyVersion('site', 1500);
      const updated = await store.putInstance('site', customConfig, 2000);
      expect(updated).toMatchObject({ config: customConfig, policyVersion: 2, createdAt: 1000, updatedAt: 2000 });
      expect(await store.getInstance('site')).toEqual(updated);
    });

    it('creates an instance through putInstance', async () => {
      const created = await store.putInstance('fresh', customConfig, 3000);
      expect(created).toEqual({
        id: 'fresh',
        config: customConfig,
        policyVersion: 1,
        createdAt: 3000,
        updatedAt: 3000,
      });
    });

    it('keeps the key order of a config: the first geo group holding a country wins', async () => {
      // Not sorted by length or name, as PostgreSQL's jsonb would store it.
      const ordered: InstanceConfig = {
        ...defaultInstanceConfig,
        consentRequired: { germany: false, eu: true, default: true },
        geoGroups: { germany: ['de'], eu: ['preset-eea'], b: ['fr'] },
        sharedData: { zeta: 1, a: 2 },
      };
      const keysOf = (config: InstanceConfig | undefined) => [
        Object.keys(config?.geoGroups ?? {}),
        Object.keys(config?.consentRequired ?? {}),
        Object.keys(config?.sharedData ?? {}),
      ];
      const expected = [
        ['germany', 'eu', 'b'],
        ['germany', 'eu', 'default'],
        ['zeta', 'a'],
      ];
      expect(keysOf((await store.putInstance('order', ordered, 1)).config)).toEqual(expected);
      expect(keysOf((await store.ensureInstance('first-use', ordered, 1))?.config)).toEqual(expected);
      for (const instance of await store.listInstances())
        expect(keysOf(instance.config), instance.id).toEqual(expected);
      if (!harness.reopen) return;
      await store.close();
      store = await harness.reopen();
      expect(keysOf((await store.getInstance('order'))?.config)).toEqual(expected);
      expect(keysOf((await store.getInstance('first-use'))?.config)).toEqual(expected);
    });

    it('bumps the policy version and returns null for an unknown instance', async () => {
      await store.ensureInstance('site', defaultInstanceConfig, 1000);
      expect((await store.bumpPolicyVersion('site', 2000))?.policyVersion).toBe(2);
      expect((await store.bumpPolicyVersion('site', 3000))?.policyVersion).toBe(3);
      expect(await store.bumpPolicyVersion('missing', 3000)).toBeNull();
    });

    it('lists instances sorted by id', async () => {
      for (const id of ['b', 'a', 'C']) await store.ensureInstance(id, defaultInstanceConfig, 1);
      expect((await store.listInstances()).map((i) => i.id)).toEqual(['C', 'a', 'b']);
    });

    it('records a decision and answers it as the current one', async () => {
      const full = entry({
        consentString: 'CPXxyz',
        purposeConsents: { analytics: true, ads: false },
        consentMetadata: { consentStringType: 2, gdprApplies: true, additionalConsent: '1~2' },
        tcfPolicyVersion: 4,
        policyVersion: 3,
      });
      const stored = await store.recordDecision(full);
      expect(stored).toEqual({ ...full, id: stored.id });
      expect(await store.getDecision('site', 'user-a')).toEqual({
        instanceId: 'site',
        userId: 'user-a',
        pageUserId: 'page-a',
        state: 'accepted',
        consentString: 'CPXxyz',
        purposeConsents: { analytics: true, ads: false },
        consentMetadata: { consentStringType: 2, gdprApplies: true, additionalConsent: '1~2' },
        tcfPolicyVersion: 4,
        policyVersion: 3,
        time: day1,
      });
    });

    it('replaces the current decision with the latest update', async () => {
      await store.recordDecision(entry({ state: 'accepted', consentString: 'one' }));
      await store.recordDecision(entry({ state: 'rejected', time: day2 }));
      expect(await store.getDecision('site', 'user-a')).toMatchObject({ state: 'rejected', consentString: null });
      expect(await store.getDecision('site', 'user-b')).toBeNull();
      expect(await store.getDecision('other', 'user-a')).toBeNull();
    });

    it('keeps every update in the history, oldest first, per user and instance', async () => {
      const first = await store.recordDecision(entry({ state: 'accepted' }));
      await store.recordDecision(entry({ userId: 'user-b' }));
      await store.recordDecision(entry({ instanceId: 'other' }));
      const second = await store.recordDecision(entry({ state: 'rejected', time: day2 }));
      expect(second.id).toBeGreaterThan(first.id);
      expect(await store.getHistory('site', 'user-a')).toEqual([first, second]);
    });

    it('keeps the GPC flag with the audit entry, not with the current decision', async () => {
      const flagged = await store.recordDecision(entry({ state: 'rejected', gpc: true }));
      const plain = await store.recordDecision(entry({ userId: 'user-b' }));
      expect(flagged.gpc).toBe(true);
      expect(await store.getHistory('site', 'user-a')).toEqual([flagged]);
      expect((await store.getHistory('site', 'user-b'))[0]).toMatchObject({ id: plain.id, gpc: false });
      expect(await store.getDecision('site', 'user-a')).not.toHaveProperty('gpc');
    });

    it('finds the users behind a pageUserId', async () => {
      await store.recordDecision(entry({ userId: 'u2', pageUserId: 'shared' }));
      await store.recordDecision(entry({ userId: 'u1', pageUserId: 'shared' }));
      await store.recordDecision(entry({ userId: 'u1', pageUserId: 'shared' }));
      await store.recordDecision(entry({ userId: 'u3', pageUserId: 'other' }));
      expect(await store.findUserIds('site', 'shared')).toEqual(['u1', 'u2']);
      expect(await store.findUserIds('site', 'missing')).toEqual([]);
    });

    it('erases one user and leaves the others', async () => {
      await store.recordDecision(entry());
      await store.recordDecision(entry({ state: 'rejected' }));
      const kept = await store.recordDecision(entry({ userId: 'user-b' }));
      await store.recordDecision(entry({ instanceId: 'other' }));
      expect(await store.eraseUser('site', 'user-a')).toEqual({ decisions: 1, auditEntries: 2 });
      expect(await store.getDecision('site', 'user-a')).toBeNull();
      expect(await store.getHistory('site', 'user-a')).toEqual([]);
      expect(await store.getHistory('site', 'user-b')).toEqual([kept]);
      expect(await store.getHistory('other', 'user-a')).toHaveLength(1);
      expect(await store.eraseUser('site', 'user-a')).toEqual({ decisions: 0, auditEntries: 0 });
    });

    it('pages through an instance audit log by id', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) ids.push((await store.recordDecision(entry({ userId: `u${i}` }))).id);
      await store.recordDecision(entry({ instanceId: 'other' }));
      const page1 = await store.listAuditEntries('site', 0, 2);
      const page2 = await store.listAuditEntries('site', page1[1]!.id, 2);
      const page3 = await store.listAuditEntries('site', page2[1]!.id, 2);
      expect([...page1, ...page2, ...page3].map((e) => e.id)).toEqual(ids);
      expect(await store.listAuditEntries('site', ids[4]!, 2)).toEqual([]);
    });

    it('counts users, audit entries and current states per instance', async () => {
      await store.recordDecision(entry({ userId: 'a', state: 'rejected' }));
      await store.recordDecision(entry({ userId: 'a', state: 'accepted' }));
      await store.recordDecision(entry({ userId: 'b', state: 'rejected' }));
      await store.recordDecision(entry({ userId: 'c', state: 'unknown' }));
      await store.recordDecision(entry({ instanceId: 'other' }));
      expect(await store.countInstance('site')).toEqual({
        users: 3,
        auditEntries: 4,
        decisions: { accepted: 1, rejected: 1, unknown: 1 },
      });
      expect(await store.countInstance('none')).toEqual({
        users: 0,
        auditEntries: 0,
        decisions: { accepted: 0, rejected: 0, unknown: 0 },
      });
    });

    it('keeps the geo group with the audit entry, not with the current decision', async () => {
      const grouped = await store.recordDecision(entry({ geoGroup: 'california' }));
      expect(grouped.geoGroup).toBe('california');
      expect(await store.getHistory('site', 'user-a')).toEqual([grouped]);
      expect(await store.getDecision('site', 'user-a')).not.toHaveProperty('geoGroup');
    });

    it('counts audit entries per geo group and kind of decision from a start time', async () => {
      const optOut = { usOptOuts: 'sale,sharing,targetedAdvertising' };
      const california = { geoGroup: 'california' };
      await store.recordDecision(entry({ ...california, state: 'accepted', purposeConsents: { ads: true } }));
      await store.recordDecision(entry({ ...california, state: 'accepted', purposeConsents: { ads: true, a: false } }));
      await store.recordDecision(entry({ ...california, state: 'rejected', consentMetadata: optOut }));
      await store.recordDecision(entry({ ...california, state: 'rejected', consentMetadata: { usOptOuts: '' } }));
      await store.recordDecision(entry({ ...california, state: 'unknown' }));
      await store.recordDecision(entry({ geoGroup: 'eea', state: 'rejected', purposeConsents: { ads: false } }));
      await store.recordDecision(entry({ geoGroup: 'eea', time: day1 - 1 }));
      await store.recordDecision(entry({ state: 'accepted' }));
      await store.recordDecision(entry({ instanceId: 'other', geoGroup: 'eea' }));
      const none = { accepted: 0, custom: 0, rejected: 0, optOut: 0, unknown: 0 };
      expect(await store.groupDecisions('site', day1)).toEqual([
        { ...none, group: null, accepted: 1 },
        { group: 'california', accepted: 1, custom: 1, rejected: 1, optOut: 1, unknown: 1 },
        { ...none, group: 'eea', rejected: 1 },
      ]);
      expect(await store.groupDecisions('site', day2)).toEqual([]);
    });

    it('groups audit entries per UTC day from a start time', async () => {
      await store.recordDecision(entry({ time: day1 - 86_400_000 }));
      await store.recordDecision(entry({ time: day1, state: 'accepted' }));
      await store.recordDecision(entry({ time: day1 + 1000, state: 'rejected' }));
      await store.recordDecision(entry({ time: day2, state: 'unknown' }));
      await store.recordDecision(entry({ time: day2, state: 'accepted', instanceId: 'other' }));
      expect(await store.dailyDecisions('site', Date.UTC(2025, 0, 1))).toEqual([
        { day: '2025-01-01', accepted: 1, rejected: 1, unknown: 0 },
        { day: '2025-01-02', accepted: 0, rejected: 0, unknown: 1 },
      ]);
    });

    it('counts purpose choices among current decisions only', async () => {
      await store.recordDecision(entry({ userId: 'a', purposeConsents: { ads: true } }));
      await store.recordDecision(entry({ userId: 'a', purposeConsents: { ads: false, analytics: true } }));
      await store.recordDecision(entry({ userId: 'b', purposeConsents: { analytics: true } }));
      await store.recordDecision(entry({ userId: 'c' }));
      expect(await store.purposeAcceptance('site')).toEqual([
        { purpose: 'ads', accepted: 0, rejected: 1 },
        { purpose: 'analytics', accepted: 2, rejected: 0 },
      ]);
    });

    it('counts hosted prompt outcomes per day', async () => {
      await store.recordPromptOutcome('site', '2025-01-01', 'accept');
      await store.recordPromptOutcome('site', '2025-01-01', 'accept');
      await store.recordPromptOutcome('site', '2025-01-01', 'dismiss');
      await store.recordPromptOutcome('site', '2025-01-02', 'reject');
      await store.recordPromptOutcome('site', '2024-12-31', 'reject');
      await store.recordPromptOutcome('other', '2025-01-01', 'reject');
      expect(await store.promptOutcomes('site', '2025-01-01')).toEqual([
        { day: '2025-01-01', accept: 2, reject: 0, dismiss: 1 },
        { day: '2025-01-02', accept: 0, reject: 1, dismiss: 0 },
      ]);
    });

    it('adds up experiment page views per client, experiment and arm', async () => {
      const view = { experiment: 'max-ads', arm: 'a', adsPlaced: 3, viewable: 2, layoutShift: 0.25 };
      await store.recordExperimentView('demo', view);
      await store.recordExperimentView('demo', { ...view, adsPlaced: 1, viewable: 1, layoutShift: 0.5 });
      await store.recordExperimentView('demo', { ...view, arm: 'b', viewable: 0, layoutShift: 0 });
      await store.recordExperimentView('demo', { ...view, experiment: 'anchor' });
      await store.recordExperimentView('other', view);
      expect(await store.experimentArms('demo')).toEqual([
        { ...view, experiment: 'anchor', pageViews: 1, viewableSquares: 4 },
        {
          experiment: 'max-ads',
          arm: 'a',
          pageViews: 2,
          adsPlaced: 4,
          viewable: 3,
          viewableSquares: 5,
          layoutShift: 0.75,
        },
        {
          experiment: 'max-ads',
          arm: 'b',
          pageViews: 1,
          adsPlaced: 3,
          viewable: 0,
          viewableSquares: 0,
          layoutShift: 0,
        },
      ]);
      expect(await store.experimentArms('none')).toEqual([]);
    });

    it('keeps ads config documents per client', async () => {
      expect(await store.getAdsConfig('demo')).toBeNull();
      await store.putAdsConfig('demo', { placements: [] }, 1);
      await store.putAdsConfig('demo', { placements: [{ anchor: { selector: 'p' }, pos: 4, type: 1 }] }, 2);
      expect(await store.getAdsConfig('demo')).toEqual({
        placements: [{ anchor: { selector: 'p' }, pos: 4, type: 1 }],
      });
    });

    it('refuses to create an instance on first use beyond the cap, writing nothing', async () => {
      expect(await store.ensureInstance('a', defaultInstanceConfig, 1, 2)).not.toBeNull();
      expect(await store.ensureInstance('b', defaultInstanceConfig, 2, 2)).not.toBeNull();
      expect(await store.ensureInstance('c', defaultInstanceConfig, 3, 2)).toBeNull();
      expect(await store.getInstance('c')).toBeNull();
      expect((await store.listInstances()).map((i) => i.id)).toEqual(['a', 'b']);
      expect((await store.ensureInstance('a', defaultInstanceConfig, 4, 2))?.createdAt).toBe(1);
      expect(await store.ensureInstance('none', defaultInstanceConfig, 5, 0)).toBeNull();
    });

    it('creates no more than the cap when first uses race', async () => {
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => store.ensureInstance(`race-${i}`, defaultInstanceConfig, i, 5)),
      );
      expect(results.filter((r) => r !== null)).toHaveLength(5);
      expect(await store.listInstances()).toHaveLength(5);
    });

    it('counts only instances created on first use and not configured since', async () => {
      await store.putInstance('configured', customConfig, 1);
      expect(await store.ensureInstance('auto', defaultInstanceConfig, 2, 1)).not.toBeNull();
      expect(await store.ensureInstance('refused', defaultInstanceConfig, 3, 1)).toBeNull();
      await store.putInstance('auto', customConfig, 4);
      expect(await store.ensureInstance('now-allowed', defaultInstanceConfig, 5, 1)).not.toBeNull();
    });

    it('pages instances by id', async () => {
      for (const id of ['d', 'b', 'e', 'a', 'c']) await store.putInstance(id, defaultInstanceConfig, 1);
      expect((await store.listInstances({ after: '', limit: 2 })).map((i) => i.id)).toEqual(['a', 'b']);
      expect((await store.listInstances({ after: 'b', limit: 2 })).map((i) => i.id)).toEqual(['c', 'd']);
      expect((await store.listInstances({ after: 'd', limit: 2 })).map((i) => i.id)).toEqual(['e']);
    });

    it('pages the users behind a pageUserId and a user history', async () => {
      for (const userId of ['u3', 'u1', 'u2']) await store.recordDecision(entry({ userId, pageUserId: 'shared' }));
      expect(await store.findUserIds('site', 'shared', { after: '', limit: 2 })).toEqual(['u1', 'u2']);
      expect(await store.findUserIds('site', 'shared', { after: 'u2', limit: 2 })).toEqual(['u3']);
      const first = await store.recordDecision(entry({ userId: 'u1', state: 'rejected' }));
      const history = await store.getHistory('site', 'u1', { after: 0, limit: 1 });
      expect(history).toHaveLength(1);
      expect(await store.getHistory('site', 'u1', { after: history[0]!.id, limit: 5 })).toEqual([first]);
    });

    it.each([
      ['NUL', 'a\u0000b'],
      ['a lone surrogate', 'a\uD800b'],
    ])('refuses %s in every stored string with invalid-field naming it, and writes nothing', async (_name, bad) => {
      const refused = { status: 400, code: 'invalid-field' };
      await expect(store.recordDecision(entry({ pageUserId: bad }))).rejects.toMatchObject({
        ...refused,
        message: expect.stringMatching(/^pageUserId: expected text without NUL or lone surrogates/),
      });
      await expect(store.recordDecision(entry({ purposeConsents: { [bad]: true } }))).rejects.toMatchObject(refused);
      await expect(store.recordDecision(entry({ consentMetadata: { additionalConsent: bad } }))).rejects.toMatchObject({
        message: expect.stringMatching(/^consentMetadata\.additionalConsent: /),
      });
      await expect(store.ensureInstance(bad, defaultInstanceConfig, 1)).rejects.toMatchObject(refused);
      await expect(store.putInstance('site', { ...customConfig, sharedData: { tier: bad } }, 1)).rejects.toMatchObject({
        message: expect.stringMatching(/^config\.sharedData\.tier: /),
      });
      await expect(
        store.putAdsConfig('demo', { placements: [{ anchor: { selector: bad } }] }, 1),
      ).rejects.toMatchObject({
        message: expect.stringMatching(/^document\.placements\[0\]\.anchor\.selector: /),
      });
      await expect(store.recordPromptOutcome(bad, '2025-01-01', 'accept')).rejects.toMatchObject(refused);
      await expect(store.getDecision('site', bad)).rejects.toMatchObject(refused);
      await expect(store.findUserIds('site', bad)).rejects.toMatchObject(refused);
      expect(await store.listInstances()).toEqual([]);
      expect(await store.listAuditEntries('site', 0, 10)).toEqual([]);
      expect(await store.getAdsConfig('demo')).toBeNull();
    });

    it('keeps well-formed text: emoji, accents and every other control character', async () => {
      const text = 'caf\u00e9 \u{1F600} \u0001\t\n';
      const stored = await store.recordDecision(entry({ pageUserId: text, purposeConsents: { [text]: true } }));
      expect(await store.getHistory('site', 'user-a')).toEqual([stored]);
      expect(stored.pageUserId).toBe(text);
    });

    it('stores a receipt with its audit row and finds it by id', async () => {
      const stored = await store.recordDecision(entry({ time: day2 }), { id: 'rcpt_1', jws: 'a.b.c' });
      expect(await store.getReceipt('rcpt_1')).toEqual({
        id: 'rcpt_1',
        auditId: stored.id,
        instanceId: 'site',
        userId: 'user-a',
        time: day2,
        jws: 'a.b.c',
      });
      expect(await store.getReceipt('rcpt_2')).toBeNull();
    });

    it('stores neither the audit row nor the decision when the receipt cannot be stored', async () => {
      await store.recordDecision(entry(), { id: 'rcpt_1', jws: 'a.b.c' });
      await expect(
        store.recordDecision(entry({ userId: 'user-b', state: 'rejected' }), { id: 'rcpt_1', jws: 'x.y.z' }),
      ).rejects.toThrow();
      expect(await store.getHistory('site', 'user-b')).toEqual([]);
      expect(await store.getDecision('site', 'user-b')).toBeNull();
      expect((await store.getReceipt('rcpt_1'))?.jws).toBe('a.b.c');
    });

    it('stores concurrent updates each with its own row and receipt, the last one of a user current', async () => {
      // Submitted together: the SQL adapters commit them as one group (docs/decisions/server-throughput.md).
      const updates = Array.from({ length: 60 }, (_, i) =>
        entry({
          userId: `user-${i % 20}`,
          pageUserId: `page-${i}`,
          time: day1 + i,
          state: i < 40 ? 'accepted' : 'rejected',
        }),
      );
      const stored = await Promise.all(
        updates.map((update, i) => store.recordDecision(update, { id: `rcpt_${i}`, jws: `j.${i}.s` })),
      );
      expect(new Set(stored.map((row) => row.id)).size).toBe(60);
      for (const [i, row] of stored.entries()) {
        expect(row).toEqual({ ...updates[i], id: row.id });
        expect(await store.getReceipt(`rcpt_${i}`)).toMatchObject({
          auditId: row.id,
          userId: `user-${i % 20}`,
          jws: `j.${i}.s`,
        });
      }
      expect(await store.getDecision('site', 'user-3')).toMatchObject({
        pageUserId: 'page-43',
        state: 'rejected',
        time: day1 + 43,
      });
      expect((await store.getHistory('site', 'user-3')).map((row) => row.pageUserId)).toEqual([
        'page-3',
        'page-23',
        'page-43',
      ]);
      expect((await store.countInstance('site')).auditEntries).toBe(60);
    });

    it('refuses only the concurrent update that cannot be stored; the others are stored', async () => {
      const results = await Promise.allSettled([
        store.recordDecision(entry({ userId: 'user-a' }), { id: 'rcpt_same', jws: 'a.a.a' }),
        store.recordDecision(entry({ userId: 'user-b' }), { id: 'rcpt_same', jws: 'b.b.b' }),
        store.recordDecision(entry({ userId: 'user-c' }), { id: 'rcpt_c', jws: 'c.c.c' }),
      ]);
      expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(await store.getDecision('site', 'user-b')).toBeNull();
      expect(await store.getHistory('site', 'user-b')).toEqual([]);
      expect((await store.getReceipt('rcpt_same'))?.jws).toBe('a.a.a');
      expect((await store.getReceipt('rcpt_c'))?.userId).toBe('user-c');
    });

    it('erases the receipts of an erased user', async () => {
      await store.recordDecision(entry(), { id: 'rcpt_a', jws: 'a.b.c' });
      await store.recordDecision(entry({ userId: 'user-b' }), { id: 'rcpt_b', jws: 'a.b.c' });
      expect(await store.eraseUser('site', 'user-a')).toEqual({ decisions: 1, auditEntries: 1 });
      expect(await store.getReceipt('rcpt_a')).toBeNull();
      expect(await store.getReceipt('rcpt_b')).not.toBeNull();
    });

    it('keeps signing keys, newest first, and the first copy of a kid', async () => {
      const key = (kid: string, createdAt: number, d: string | null) => ({
        kid,
        publicJwk: { kty: 'OKP', crv: 'Ed25519', x: kid },
        privateJwk: d === null ? null : { kty: 'OKP', crv: 'Ed25519', x: kid, d },
        createdAt,
        retiredAt: null,
      });
      expect(await store.listSigningKeys()).toEqual([]);
      await store.addSigningKey(key('old', 1, 'secret'));
      await store.addSigningKey(key('new', 2, null));
      await store.addSigningKey(key('old', 3, 'other'));
      expect(await store.listSigningKeys()).toEqual([key('new', 2, null), key('old', 1, 'secret')]);
    });

    it('retires every other key once: its private part deleted, its retirement time kept', async () => {
      const key = (kid: string, createdAt: number) => ({
        kid,
        publicJwk: { x: kid },
        privateJwk: { x: kid, d: `secret-${kid}` },
        createdAt,
        retiredAt: null,
      });
      await store.addSigningKey(key('first', 1));
      await store.addSigningKey(key('second', 2));
      await store.retireSigningKeys('second', 50);
      await store.addSigningKey(key('third', 3));
      await store.retireSigningKeys('third', 90);
      expect(await store.listSigningKeys()).toEqual([
        key('third', 3),
        { ...key('second', 2), privateJwk: null, retiredAt: 90 },
        { ...key('first', 1), privateJwk: null, retiredAt: 50 },
      ]);
      expect(JSON.stringify(await store.listSigningKeys())).not.toMatch(/secret-(first|second)/);
    });

    it.runIf(harness.databaseFiles)('leaves no byte of a retired private key in the database files', async () => {
      const secrets = ['first', 'second', 'third'].map(() => randomBytes(32).toString('base64url'));
      const key = (index: number) => ({
        kid: `k${index}`,
        publicJwk: { x: `k${index}` },
        privateJwk: { x: `k${index}`, d: secrets[index]! },
        createdAt: index,
        retiredAt: null,
      });
      await store.addSigningKey(key(0));
      await store.addSigningKey(key(1));
      await store.retireSigningKeys('k1', 50);
      await store.addSigningKey(key(2));
      await store.retireSigningKeys('k2', 90);
      const files = await harness.databaseFiles!();
      const holding = (secret: string) => files.filter((bytes) => bytes.includes(secret)).length;
      expect(secrets.map(holding)).toEqual([0, 0, 1]);
    });

    it.runIf(harness.reopen)('keeps instances and decisions after reopening', async () => {
      await store.ensureInstance('site', customConfig, 1000);
      const stored = await store.recordDecision(entry({ purposeConsents: { ads: true } }));
      const salt = await store.ipHashSalt();
      await store.close();
      store = await harness.reopen!();
      expect((await store.getInstance('site'))?.config).toEqual(customConfig);
      expect(await store.getHistory('site', 'user-a')).toEqual([stored]);
      expect(await store.ipHashSalt()).toBe(salt);
    });
  });
}
