/**
 * The development defaults of `npm start` (docs/server.md, "Development defaults"): the fixture
 * vendor list, labelled; a loopback admin token; the example instances configured at start; none
 * of it under NODE_ENV=production. And the admin page saying it is disabled before Connect.
 */
import { describe, expect, it } from 'vitest';
import { parseServerConfig } from '../../server/config.ts';
import {
  configureExampleInstances,
  developmentDefaults,
  FIXTURE_VENDOR_LIST,
  FIXTURE_VENDOR_LIST_HEADER,
  FIXTURE_ATP_LIST,
  FIXTURE_ATP_LIST_HEADER,
} from '../../server/development.ts';
import { adminDisabledText } from '../../server/routes/admin-page.ts';
import { createMemoryStore } from '../../server/store/memory-store.ts';
import { defaultInstanceConfig } from '../../server/store/store.ts';
import { buildApp } from './app-harness.ts';

const defaultsFor = (env: Record<string, string>) => developmentDefaults(parseServerConfig(env), env);

describe('development defaults', () => {
  it('in development, serve the fixture vendor list and generate a loopback admin token', () => {
    const first = defaultsFor({});
    expect(first).toMatchObject({ isDevelopment: true, fixtureVendorList: true, generatedAdminToken: true });
    expect(first.config.tcfVendorList).toBe(FIXTURE_VENDOR_LIST);
    expect(first.config.adminToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(defaultsFor({}).config.adminToken, 'a new token each start').not.toBe(first.config.adminToken);
  });

  it('keep what the operator set', () => {
    const set = defaultsFor({ TCF_VENDOR_LIST: '/srv/gvl.json', ADMIN_TOKEN: 'operator-token-0123456789' });
    expect(set).toMatchObject({ fixtureVendorList: false, generatedAdminToken: false });
    expect([set.config.tcfVendorList, set.config.adminToken]).toEqual(['/srv/gvl.json', 'operator-token-0123456789']);
  });

  it('generate no admin token when the server listens beyond loopback', () => {
    for (const HOST of ['0.0.0.0', '::', '192.168.1.20']) {
      const result = defaultsFor({ HOST });
      expect(result.generatedAdminToken, HOST).toBe(false);
      expect(result.config.adminToken, HOST).toBeNull();
    }
    for (const HOST of ['localhost', 'LOCALHOST', '127.8.0.1', '::1'])
      expect(defaultsFor({ HOST }).generatedAdminToken, HOST).toBe(true);
  });

  it('add nothing under NODE_ENV=production: no vendor list, no admin without their settings', () => {
    const production = defaultsFor({ NODE_ENV: 'production' });
    expect(production).toMatchObject({ isDevelopment: false, fixtureVendorList: false, generatedAdminToken: false });
    expect([production.config.tcfVendorList, production.config.adminToken]).toEqual([null, null]);
  });

  it('in development, read the fixture ATP list unless GOOGLE_ATP_LIST is set; never under production', () => {
    expect(defaultsFor({})).toMatchObject({ fixtureAtpList: true, config: { googleAtpList: FIXTURE_ATP_LIST } });
    expect(defaultsFor({ GOOGLE_ATP_LIST: '/srv/atps.csv' })).toMatchObject({
      fixtureAtpList: false,
      config: { googleAtpList: '/srv/atps.csv' },
    });
    expect(defaultsFor({ NODE_ENV: 'production' })).toMatchObject({
      fixtureAtpList: false,
      config: { googleAtpList: null },
    });
    expect(developmentDefaults(parseServerConfig({}), {}, undefined, 'no/such/atps.csv')).toMatchObject({
      fixtureAtpList: false,
      config: { googleAtpList: null },
    });
    expect(FIXTURE_ATP_LIST_HEADER).toMatch(/^fixture .*made-up ATPs.*GOOGLE_ATP_LIST/);
  });

  it('take no fixture that is not there', () => {
    expect(developmentDefaults(parseServerConfig({}), {}, 'no/such/vendor-list.json')).toMatchObject({
      fixtureVendorList: false,
      config: { tcfVendorList: null },
    });
  });
});

describe('example instances', () => {
  it('are configured at start: TCF settings for the hosted CMP, described purposes and partners for the CMP iframe', async () => {
    const store = createMemoryStore();
    expect(await configureExampleInstances(store, 1, FIXTURE_VENDOR_LIST)).toEqual([
      'examples-hosted-cmp: configured',
      'examples-cmp: configured',
    ]);
    const hosted = await store.getInstance('examples-hosted-cmp');
    expect(hosted?.config.tcf).toMatchObject({
      cmpId: 300,
      vendors: [1, 2, 8, 25, 52],
      purposes: { ads: [1, 2, 3, 4], measurement: [1, 7, 8, 9] },
    });
    const cmp = await store.getInstance('examples-cmp');
    expect(cmp?.config.prompt?.purposes.map((p) => [p.id, p.label, Boolean(p.description)])).toEqual([
      ['measurement', 'Audience measurement', true],
      ['ads', 'Personalised ads', true],
    ]);
    expect(cmp?.config.prompt?.vendors.length).toBe(3);
  });

  it('replace an instance still as created on first use, and keep one an admin configured', async () => {
    const store = createMemoryStore();
    await store.ensureInstance('examples-hosted-cmp', defaultInstanceConfig, 1);
    const admins = { ...defaultInstanceConfig, consentRequired: { default: false } };
    await store.putInstance('examples-cmp', admins, 1);
    expect(await configureExampleInstances(store, 2, FIXTURE_VENDOR_LIST)).toEqual([
      'examples-hosted-cmp: configured',
      'examples-cmp: kept its config',
    ]);
    expect((await store.getInstance('examples-hosted-cmp'))?.config.tcf?.cmpId).toBe(300);
    expect((await store.getInstance('examples-cmp'))?.config).toEqual(admins);
  });

  it('leave out the TCF instance without a vendor list', async () => {
    const store = createMemoryStore();
    const done = await configureExampleInstances(store, 1, null);
    expect(done[0]).toMatch(/^examples-hosted-cmp: not configured: no vendor list/);
    expect(await store.getInstance('examples-hosted-cmp')).toBeNull();
    expect(await store.getInstance('examples-cmp')).not.toBeNull();
  });
});

describe('labels and the admin page', () => {
  it("the fixture vendor list says it is a fixture; the operator's does not", async () => {
    const fixture = await (
      await buildApp({ tcfVendorList: FIXTURE_VENDOR_LIST, tcfVendorListIsFixture: true })
    ).app.inject({ url: '/tcf/vendor-list.json' });
    expect(fixture.statusCode).toBe(200);
    expect(fixture.headers['x-vendor-list']).toBe(FIXTURE_VENDOR_LIST_HEADER);
    expect(FIXTURE_VENDOR_LIST_HEADER).toMatch(/^fixture .*TCF_VENDOR_LIST/);
    const operators = await (await buildApp({ tcfVendorList: FIXTURE_VENDOR_LIST })).app.inject({
      url: '/tcf/vendor-list.json',
    });
    expect(operators.headers['x-vendor-list']).toBeUndefined();
  });

  it('the admin page says the admin is disabled before Connect, with its form disabled', async () => {
    const disabled = (await (await buildApp({ adminToken: null })).app.inject({ url: '/admin/' })).body;
    expect(disabled).toContain(`class="error">${adminDisabledText}</p>`);
    expect(disabled).toMatch(/<input id="token"[^>]* disabled>/);
    expect(disabled).toMatch(/<button class="primary" type="submit" disabled>Connect/);
    const enabled = (await (await buildApp()).app.inject({ url: '/admin/' })).body;
    expect(enabled).not.toContain(adminDisabledText);
    expect(enabled).not.toMatch(/disabled>|__ADMIN/);
  });
});
