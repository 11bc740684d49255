/**
 * `POST /ads/experiment` and the admin's experiment view, through app.inject() on the memory,
 * SQLite and PostgreSQL stores.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createMemoryStore } from '../../server/store/memory-store.ts';
import { openPostgresStore } from '../../server/store/postgres-store.ts';
import { openSqliteStore } from '../../server/store/sqlite-store.ts';
import type { ConsentStore } from '../../server/store/store.ts';
import { bearer, buildApp } from './app-harness.ts';

const experimentConfig = {
  placements: [],
  onExperimentHref: '/ads/experiment?client=exp',
  experiment: {
    id: 'max-ads',
    arms: [
      { id: 'three', weight: 50, settings: { maxAdCount: 3 } },
      { id: 'five', weight: 50, settings: { maxAdCount: 5 } },
    ],
  },
};
const view = { experiment: 'max-ads', arm: 'three', adsPlaced: 3, viewable: 2, layoutShift: 0 };
const beacon = { 'content-type': 'text/plain;charset=UTF-8' };

const adminUrl = inject('postgresUrl');
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function postgresStore(): Promise<ConsentStore> {
  const database = `page_exp_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl! });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await admin(`CREATE DATABASE ${database}`);
  const store = await openPostgresStore(adminUrl!.replace(/\/[^/]*$/, `/${database}`));
  cleanups.push(async () => {
    await store.close();
    await admin(`DROP DATABASE IF EXISTS ${database}`);
  });
  return store;
}

function sqliteStore(): ConsentStore {
  const dir = mkdtempSync(join(tmpdir(), 'page-exp-'));
  const store = openSqliteStore(join(dir, 'store.db'));
  cleanups.push(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

const stores: [string, () => Promise<ConsentStore> | ConsentStore, boolean][] = [
  ['memory', createMemoryStore, true],
  ['sqlite', sqliteStore, true],
  [`postgres (${inject('postgresSkipReason') ?? 'available'})`, postgresStore, Boolean(adminUrl)],
];

for (const [name, open, isAvailable] of stores) {
  describe.skipIf(!isAvailable)(`ads experiment routes on ${name}`, () => {
    const setUp = async () => {
      const store = await open();
      await store.putAdsConfig('exp', experimentConfig, 1);
      return buildApp({ store });
    };

    it('adds a beaconed page view to its arm, and the admin shows the arms side by side', async () => {
      const { app } = await setUp();
      const views = [
        view,
        { ...view, viewable: 0 },
        { ...view, arm: 'five', adsPlaced: 5, viewable: 5, layoutShift: 0.1 },
      ];
      for (const payload of views) {
        const response = await app.inject({
          method: 'POST',
          url: '/ads/experiment?client=exp',
          headers: beacon,
          payload: JSON.stringify(payload),
        });
        expect(response.statusCode).toBe(204);
        expect(response.headers['access-control-allow-origin']).toBe('*');
      }
      const shown = await app.inject({ url: '/admin/api/ads-experiments/exp', headers: bearer });
      expect(shown.statusCode).toBe(200);
      const [experiment] = shown.json().experiments;
      expect(experiment.experiment).toBe('max-ads');
      expect(experiment.arms).toEqual([
        {
          arm: 'five',
          pageViews: 1,
          adsPlacedPerView: 5,
          viewablePerView: 5,
          viewableInterval: null,
          meanLayoutShift: expect.closeTo(0.1, 9),
        },
        {
          arm: 'three',
          pageViews: 2,
          adsPlacedPerView: 3,
          viewablePerView: 1,
          // mean 1, s² = (4 - 2) / 1 = 2, margin 1.96 · √(2 / 2)
          viewableInterval: { low: 0, high: expect.closeTo(2.96, 9) },
          meanLayoutShift: 0,
        },
      ]);
    });

    it('takes a JSON body too', async () => {
      const { app, store } = await setUp();
      const response = await app.inject({ method: 'POST', url: '/ads/experiment?client=exp', payload: view });
      expect(response.statusCode).toBe(204);
      expect((await store.experimentArms('exp')).map((row) => row.pageViews)).toEqual([1]);
    });

    it('refuses a bad report naming the field, and writes nothing', async () => {
      const { app, store } = await setUp();
      const cases: [unknown, number, string][] = [
        [{ ...view, viewable: 'two' }, 400, 'invalid-field'],
        [{ ...view, arm: 'seven' }, 404, 'ads-experiment-unknown'],
        [{ ...view, experiment: 'other' }, 404, 'ads-experiment-unknown'],
      ];
      for (const [payload, status, code] of cases) {
        const response = await app.inject({
          method: 'POST',
          url: '/ads/experiment?client=exp',
          headers: beacon,
          payload: JSON.stringify(payload),
        });
        expect([response.statusCode, response.json().error.code]).toEqual([status, code]);
      }
      const notJson = await app.inject({
        method: 'POST',
        url: '/ads/experiment?client=exp',
        headers: beacon,
        payload: '{',
      });
      expect([notJson.statusCode, notJson.json().error.code]).toEqual([400, 'invalid-json']);
      const field = await app.inject({
        method: 'POST',
        url: '/ads/experiment?client=exp',
        headers: beacon,
        payload: JSON.stringify({ ...view, adsPlaced: -1 }),
      });
      expect(field.json().error.message).toMatch(/^adsPlaced: expected an integer from 0 to 1000, got -1/);
      const unknown = await app.inject({
        method: 'POST',
        url: '/ads/experiment?client=nobody',
        headers: beacon,
        payload: JSON.stringify(view),
      });
      expect([unknown.statusCode, unknown.json().error.code]).toEqual([404, 'ads-client-not-found']);
      expect(await store.experimentArms('exp')).toEqual([]);
    });

    it('refuses a body over 1 KiB', async () => {
      const { app, store } = await setUp();
      const response = await app.inject({
        method: 'POST',
        url: '/ads/experiment?client=exp',
        headers: beacon,
        payload: JSON.stringify({ ...view, padding: 'x'.repeat(1100) }),
      });
      expect([response.statusCode, response.json().error.code]).toEqual([413, 'body-too-large']);
      expect(await store.experimentArms('exp')).toEqual([]);
    });
  });
}

describe('ads experiment route limits', () => {
  it('shares the rate limit of the other public routes', async () => {
    const store = createMemoryStore();
    await store.putAdsConfig('exp', experimentConfig, 1);
    const { app } = await buildApp({ store, rateLimitPerMinute: 2 });
    const send = () =>
      app.inject({ method: 'POST', url: '/ads/experiment?client=exp', headers: beacon, payload: JSON.stringify(view) });
    expect((await send()).statusCode).toBe(204);
    expect((await app.inject({ method: 'POST', url: '/cmp/outcome?instance=x&action=accept' })).statusCode).toBe(404);
    const limited = await send();
    expect([limited.statusCode, limited.json().error.code]).toEqual([429, 'rate-limited']);
    expect((await store.experimentArms('exp'))[0]?.pageViews).toBe(1);
  });

  it('refuses an ads config whose experiment is invalid, naming the field', async () => {
    const { app } = await buildApp();
    const response = await app.inject({
      method: 'PUT',
      url: '/admin/api/ads-config/exp',
      headers: bearer,
      payload: { ...experimentConfig, experiment: { ...experimentConfig.experiment, arms: [] } },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/^config\.experiment\.arms: expected an array of 2 or 3 arms/);
  });
});
