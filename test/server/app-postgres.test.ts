/** The consent flow end to end through app.inject() on a real PostgreSQL database. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPostgresStore } from '../../server/store/postgres-store.ts';
import type { ConsentStore } from '../../server/store/store.ts';
import { bearer, buildApp, cookieOf, json } from './app-harness.ts';

const adminUrl = inject('postgresUrl');
const database = `page_app_${randomBytes(6).toString('hex')}`;
let store: ConsentStore;

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl! });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

beforeAll(async () => {
  if (!adminUrl) return;
  await admin(`CREATE DATABASE ${database}`);
  store = await openPostgresStore(adminUrl.replace(/\/[^/]*$/, `/${database}`));
});
afterAll(async () => {
  if (!adminUrl) return;
  await store.close();
  await admin(`DROP DATABASE IF EXISTS ${database}`);
});

describe.skipIf(!adminUrl)(`app on postgres (${inject('postgresSkipReason') ?? 'available'})`, () => {
  it('records an update, answers it on check, and exports it', async () => {
    const { app } = await buildApp({ store });
    const updated = await app.inject({
      method: 'POST',
      url: '/consent/update',
      headers: json,
      payload: {
        consentInstanceId: 'pg-site',
        pageUserId: 'page-9',
        consentStateValue: 'accepted',
        purposeConsents: { ads: true },
      },
    });
    expect(updated.json()).toEqual({ recorded: true, policyVersion: 1, receiptId: expect.stringMatching(/^rcpt_/) });
    const cookie = cookieOf(updated.headers['set-cookie']);
    const checked = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: { ...json, cookie },
      payload: { consentInstanceId: 'pg-site', consentStateValue: 'unknown', matchedGeoGroup: null },
    });
    expect(checked.json()).toMatchObject({ consentStateValue: 'accepted', purposeConsents: { ads: true } });
    const exported = await app.inject({ url: '/admin/api/instances/pg-site/export?format=csv', headers: bearer });
    expect(exported.body.split('\r\n')[1]).toContain('"page-9","accepted","","{""ads"":true}"');
    const stats = await app.inject({ url: '/admin/api/instances/pg-site/stats', headers: bearer });
    expect(stats.json().purposes).toEqual([{ purpose: 'ads', accepted: 1, rejected: 0 }]);
  });

  it('takes the first geo group holding the country, in the order the admin gave', async () => {
    const { app } = await buildApp({ store, trustedCountryHeader: 'CF-IPCountry', trustProxy: 'loopback' });
    const config = {
      geoGroups: { germany: ['de'], eu: ['preset-eea'] },
      consentRequired: { germany: false, eu: true, default: true },
    };
    const put = await app.inject({
      method: 'PUT',
      url: '/admin/api/instances/order',
      headers: { ...json, ...bearer },
      payload: config,
    });
    expect(put.statusCode).toBe(200);
    const checked = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: { ...json, 'cf-ipcountry': 'DE' },
      payload: { consentInstanceId: 'order', consentStateValue: 'unknown', matchedGeoGroup: null },
    });
    expect(checked.json().consentRequired).toBe(false);
  });

  it.each([
    ['NUL', 'p\u0000'],
    ['a lone surrogate', 'p\uD800'],
  ])('answers %s in a body string with 400 naming the field, not 500, and writes nothing', async (_name, bad) => {
    const { app } = await buildApp({ store });
    const payload = JSON.stringify({ consentInstanceId: 'pg-strings', pageUserId: bad, consentStateValue: 'accepted' });
    const response = await app.inject({ method: 'POST', url: '/consent/update', headers: json, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'invalid-field',
      message: expect.stringMatching(/^pageUserId: /),
    });
    expect(await store.getInstance('pg-strings')).toBeNull();
    const lookup = await app.inject({ url: '/admin/api/instances/pg-site/users?userId=p%00', headers: bearer });
    expect(lookup.statusCode).toBe(400);
  });
});
