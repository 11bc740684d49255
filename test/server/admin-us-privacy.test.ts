/**
 * US privacy by state through the admin API, on SQLite and PostgreSQL: an instance's `gpp`
 * settings (validated by the page's parser, stored, returned) and the stats per geo group of
 * decisions from readers the CDN places in different groups (Cloudflare headers behind
 * TRUST_PROXY).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { openPostgresStore } from '../../server/store/postgres-store.ts';
import { openSqliteStore } from '../../server/store/sqlite-store.ts';
import type { ConsentStore } from '../../server/store/store.ts';
import { bearer, buildApp, json } from './app-harness.ts';

const postgresUrl = inject('postgresUrl');

async function postgresAdmin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl! });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

type Opened = { readonly store: ConsentStore; readonly remove: () => Promise<void> };

const stores: readonly (readonly [string, (() => Promise<Opened>) | null])[] = [
  [
    'sqlite',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'page-us-privacy-'));
      return { store: openSqliteStore(join(dir, 'page.db')), remove: async () => rmSync(dir, { recursive: true }) };
    },
  ],
  [
    'postgres',
    postgresUrl
      ? async () => {
          const database = `page_us_${randomBytes(6).toString('hex')}`;
          await postgresAdmin(`CREATE DATABASE ${database}`);
          const store = await openPostgresStore(postgresUrl.replace(/\/[^/]*$/, `/${database}`));
          return { store, remove: () => postgresAdmin(`DROP DATABASE IF EXISTS ${database}`) };
        }
      : null,
  ],
];

const gpp = {
  approach: 'state',
  usnat: { SaleOptOutNotice: 1, SharingOptOutNotice: 1, MspaCoveredTransaction: 2 },
  usca: { SaleOptOutNotice: 1, SensitiveDataLimitUseNotice: 2 },
};

const removals: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const remove of removals.splice(0)) await remove();
});

describe.each(stores)('US privacy admin on %s', (name, open) => {
  /** The app on a fresh store, trusting Cloudflare's geo headers from the loopback proxy. */
  async function app() {
    const opened = await open!();
    const harness = await buildApp({ store: opened.store, geoHeaders: ['cloudflare'], trustProxy: 'loopback' }, true);
    removals.push(async () => {
      await harness.close();
      await opened.store.close();
      await opened.remove();
    });
    return harness;
  }
  const put = (harness: Awaited<ReturnType<typeof app>>, body: unknown, method: 'PUT' | 'PATCH' = 'PUT') =>
    harness.app.inject({
      method,
      url: '/admin/api/instances/news',
      headers: { ...json, ...bearer },
      payload: JSON.stringify(body),
    });
  const getConfig = async (harness: Awaited<ReturnType<typeof app>>) =>
    (await harness.app.inject({ url: '/admin/api/instances/news', headers: bearer })).json().config;

  it.skipIf(!open)(
    `refuses a bad approach or a notice field of the wrong type with one diagnostic (${name})`,
    async () => {
      const harness = await app();
      expect((await put(harness, { gpp })).statusCode).toBe(200);
      const cases: [unknown, string][] = [
        [{ approach: 'State' }, 'gpp.approach: expected one of state, national, got "State"'],
        [{ usnat: { SaleOptOutNotice: '1' } }, 'gpp.usnat.SaleOptOutNotice: expected an integer from 0 to 2, got "1"'],
        [{ usca: { SaleOptOutNotice: 3 } }, 'gpp.usca.SaleOptOutNotice: expected an integer from 0 to 2, got 3'],
        [{ usca: { Sale: 1 } }, 'gpp.usca.Sale: expected a notice or MSPA field (SaleOptOutNotice), got 1'],
        [
          { usxx: {} },
          'gpp.usxx: expected approach, usnat or a US state section the library encodes (usca to usri), got {}',
        ],
        ['state', 'gpp: expected a JSON object, got "state"'],
      ];
      for (const [bad, message] of cases) {
        for (const method of ['PUT', 'PATCH'] as const) {
          const response = await put(harness, { gpp: bad }, method);
          expect(response.statusCode).toBe(400);
          expect(response.json()).toEqual({ error: { code: 'invalid-field', message } });
        }
      }
      // Nothing of a refused body is stored.
      expect((await getConfig(harness)).gpp).toEqual(gpp);
    },
  );

  it.skipIf(!open)(`stores the gpp settings with the instance and returns them (${name})`, async () => {
    const harness = await app();
    const config = { geoGroups: { california: ['preset-us-ca'] }, gpp };
    expect((await put(harness, config)).json().config.gpp).toEqual(gpp);
    expect((await getConfig(harness)).gpp).toEqual(gpp);
    // What GET returns is accepted back as it is.
    expect((await put(harness, await getConfig(harness))).statusCode).toBe(200);
    expect((await getConfig(harness)).gpp).toEqual(gpp);
    await put(harness, { gpp: { approach: 'national' } }, 'PATCH');
    expect(await getConfig(harness)).toMatchObject({
      gpp: { approach: 'national' },
      geoGroups: { california: ['preset-us-ca'] },
    });
    await put(harness, { gpp: null }, 'PATCH');
    expect((await getConfig(harness)).gpp).toBeNull();
  });

  it.skipIf(!open)(`answers checks of an instance with gpp settings as before (${name})`, async () => {
    const harness = await app();
    await put(harness, { consentRequired: { default: false, california: true }, geoGroups: { california: ['us-ca'] } });
    const check = async () =>
      (
        await harness.app.inject({
          method: 'POST',
          url: '/consent/check',
          headers: { ...json, 'cf-ipcountry': 'US', 'cf-region-code': 'CA' },
          payload: { consentInstanceId: 'news', consentStateValue: 'unknown', matchedGeoGroup: null },
        })
      ).json();
    const before = await check();
    await put(harness, { gpp }, 'PATCH');
    expect(await check()).toEqual(before);
    expect(before).toMatchObject({ consentRequired: true });
  });

  it.skipIf(!open)(
    `splits the stats by the geo group the server matched, as the receipt names it (${name})`,
    async () => {
      const harness = await app();
      await put(harness, { geoGroups: { california: ['preset-us-ca'], eea: ['preset-eea'] }, gpp });
      const update = async (headers: Record<string, string>, body: Record<string, unknown>) => {
        const response = await harness.app.inject({
          method: 'POST',
          url: '/consent/update',
          headers: { ...json, ...headers },
          payload: { consentInstanceId: 'news', pageUserId: `p-${randomBytes(4).toString('hex')}`, ...body },
        });
        expect(response.statusCode).toBe(200);
        return response.json().receiptId as string;
      };
      const ca = { 'cf-ipcountry': 'US', 'cf-region-code': 'CA' };
      const de = { 'cf-ipcountry': 'DE' };
      const receiptId = await update(ca, { consentStateValue: 'accepted' });
      await update(ca, { consentStateValue: 'accepted', purposeConsents: { ads: true, analytics: false } });
      await update(ca, {
        consentStateValue: 'rejected',
        consentMetadata: { usOptOuts: 'sale,sharing,targetedAdvertising' },
      });
      await update(de, { consentStateValue: 'rejected' });
      await update(de, { consentStateValue: 'rejected' });
      await update({ 'cf-ipcountry': 'US', 'cf-region-code': 'NY' }, { consentStateValue: 'unknown' });
      const stats = (await harness.app.inject({ url: '/admin/api/instances/news/stats', headers: bearer })).json();
      const none = { accepted: 0, custom: 0, rejected: 0, optOut: 0, unknown: 0 };
      expect(stats.decisionsPerGroup).toEqual([
        { group: 'california', accepted: 1, custom: 1, rejected: 0, optOut: 1, unknown: 0 },
        { ...none, group: 'default', unknown: 1 },
        { ...none, group: 'eea', rejected: 2 },
      ]);
      const receipt = await harness.store.getReceipt(receiptId);
      const payload = JSON.parse(Buffer.from(receipt!.jws.split('.')[1]!, 'base64url').toString());
      const [logged] = await harness.store.listAuditEntries('news', receipt!.auditId - 1, 1);
      expect([payload.geo_group, logged!.geoGroup]).toEqual(['california', 'california']);
    },
  );
});
