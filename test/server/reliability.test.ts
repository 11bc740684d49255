/**
 * Reliability and security of the server (docs/reliability.md, "Server"), beyond the route tests: CORS never
 * grants credentials to a hostile origin, admin routes refuse bad tokens and leak nothing,
 * oversized bodies answer 413 body-too-large everywhere, hostile and Unicode strings round-trip verbatim on
 * SQLite and PostgreSQL, and a slow client cannot hold the server. The SIGKILL trials are in
 * durability.test.ts, the 60 s soak in scripts/soak.mjs.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApp, REQUEST_TIMEOUT_CHECK_MS } from '../../server/app.ts';
import { parseServerConfig } from '../../server/config.ts';
import { adminBodyLimit } from '../../server/routes/admin.ts';
import { consentBodyLimit } from '../../server/routes/consent.ts';
import { createMemoryStore } from '../../server/store/memory-store.ts';
import { openPostgresStore } from '../../server/store/postgres-store.ts';
import { openSqliteStore } from '../../server/store/sqlite-store.ts';
import type { ConsentStore } from '../../server/store/store.ts';
import { adminToken, bearer, buildApp, cookieOf, json, pageOrigin } from './app-harness.ts';
import { chunkedRequest, parseRawAnswer, slowClient, timedRequest } from './reliability-clients.ts';
import { generatedOrigins, lookAlikes } from './reliability-origins.ts';
import { startServer } from './server-process.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
const check = { consentInstanceId: 'site', consentStateValue: 'unknown', matchedGeoGroup: null };
const update = { consentInstanceId: 'site', pageUserId: 'p-1', consentStateValue: 'accepted' };

// ---------------------------------------------------------------------------------------------
// CORS

/** Every route family: its method and path, and a body when it takes one. */
const ROUTE_FAMILIES: {
  name: string;
  method: Method;
  url: string;
  body?: unknown;
  admin?: boolean;
  credentialed?: boolean;
}[] = [
  { name: 'consent check', method: 'POST', url: '/consent/check', body: check, credentialed: true },
  { name: 'consent update', method: 'POST', url: '/consent/update', body: update, credentialed: true },
  { name: 'consent receipt', method: 'GET', url: '/consent/receipt/rcpt_x', credentialed: true },
  { name: 'receipt keys', method: 'GET', url: '/.well-known/page-consent-keys.json' },
  { name: 'ads config', method: 'GET', url: '/ads/config?client=demo' },
  { name: 'CDN runtime', method: 'GET', url: '/v0.js' },
  { name: 'CDN geo', method: 'GET', url: '/v0/page-geo-0.1.js' },
  { name: 'hosted prompt', method: 'GET', url: '/cmp/prompt.html' },
  { name: 'prompt outcome', method: 'POST', url: '/cmp/outcome?instance=site&action=accept' },
  { name: 'admin API', method: 'GET', url: '/admin/api/instances', admin: true },
  { name: 'admin API write', method: 'PUT', url: '/admin/api/instances/site', body: {}, admin: true },
  { name: 'admin key rotation', method: 'POST', url: '/admin/receipt-keys', admin: true },
  { name: 'admin page', method: 'GET', url: '/admin/' },
  { name: 'health', method: 'GET', url: '/healthz' },
  { name: 'examples', method: 'GET', url: '/examples/first.html' },
  { name: 'unknown route', method: 'GET', url: '/nowhere' },
];

describe('reliability: CORS never grants credentials to an origin outside the allow-list', () => {
  const origins = [...new Set([...lookAlikes(pageOrigin), ...generatedOrigins(pageOrigin, 80)])];

  it(`refuses ${origins.length} hostile origins on ${ROUTE_FAMILIES.length} route families, preflight and actual request`, async () => {
    const { app, store } = await buildApp({ rateLimitPerMinute: 0 });
    let checked = 0;
    const failures: string[] = [];
    for (const origin of origins) {
      for (const route of ROUTE_FAMILIES) {
        const auth = route.admin ? bearer : {};
        const preflight = await app.inject({
          method: 'OPTIONS',
          url: route.url,
          headers: {
            origin,
            'access-control-request-method': route.method,
            'access-control-request-headers': 'content-type',
          },
        });
        const actual = await app.inject({
          method: route.method,
          url: route.url,
          headers: { origin, ...auth, ...(route.body ? json : {}) },
          ...(route.body ? { payload: JSON.stringify(route.body) } : {}),
        });
        for (const [kind, response] of [
          ['preflight', preflight],
          ['actual', actual],
        ] as const) {
          checked++;
          const allowOrigin = response.headers['access-control-allow-origin'];
          const label = `${kind} ${route.method} ${route.url} from ${JSON.stringify(origin)}: ${response.statusCode}`;
          if (response.headers['access-control-allow-credentials'] !== undefined)
            failures.push(`${label} grants credentials`);
          if (allowOrigin !== undefined && allowOrigin !== '*') failures.push(`${label} allows origin ${allowOrigin}`);
          if (
            route.credentialed &&
            origin !== '' &&
            (response.statusCode !== 403 || response.json().error.code !== 'origin-not-allowed')
          ) {
            failures.push(`${label}, expected 403 origin-not-allowed`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBe(origins.length * ROUTE_FAMILIES.length * 2);
    // Nothing the refused consent calls carried was written (the admin PUT created `site`).
    expect((await store.listInstances()).map((instance) => instance.id)).toEqual(['site']);
    expect(await store.listAuditEntries('site', 0, 10)).toEqual([]);
    console.log(
      `[reliability] CORS: ${origins.length} hostile origins x ${ROUTE_FAMILIES.length} route families x 2 (preflight, actual) = ${checked} responses, no credentials granted`,
    );
  }, 120_000);

  it('still grants the allowed origin, so the refusals above are not a broken CORS', async () => {
    const { app } = await buildApp({ rateLimitPerMinute: 0 });
    for (const route of ROUTE_FAMILIES.filter((family) => family.credentialed && family.method === 'POST')) {
      const response = await app.inject({
        method: route.method,
        url: route.url,
        headers: { origin: pageOrigin, ...json },
        payload: JSON.stringify(route.body),
      });
      expect(response.headers['access-control-allow-origin']).toBe(pageOrigin);
      expect(response.headers['access-control-allow-credentials']).toBe('true');
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Admin tokens

/** Every admin route (docs/server.md "Admin API"), with a body for the writes. */
const ADMIN_ROUTES: { method: Method; url: string; body?: unknown }[] = [
  { method: 'GET', url: '/admin/api/instances' },
  { method: 'GET', url: '/admin/api/instances/secret-site' },
  { method: 'PUT', url: '/admin/api/instances/secret-site', body: { sharedData: { tier: 'x' } } },
  { method: 'PATCH', url: '/admin/api/instances/secret-site', body: { sharedData: { tier: 'x' } } },
  { method: 'POST', url: '/admin/api/instances/secret-site/policy-version' },
  { method: 'GET', url: '/admin/api/instances/secret-site/users?pageUserId=secret-page-user' },
  { method: 'DELETE', url: '/admin/api/instances/secret-site/users?pageUserId=secret-page-user' },
  { method: 'GET', url: '/admin/api/instances/secret-site/export' },
  { method: 'GET', url: '/admin/api/instances/secret-site/export?format=csv' },
  { method: 'GET', url: '/admin/api/instances/secret-site/export?format=json' },
  { method: 'GET', url: '/admin/api/instances/secret-site/stats' },
  { method: 'GET', url: '/admin/api/ads-config/demo' },
  { method: 'PUT', url: '/admin/api/ads-config/secret-client', body: { placements: [] } },
  { method: 'POST', url: '/admin/receipt-keys' },
];

/** [label, Authorization header (undefined: none), expected code; every one answers 401]. */
const BAD_TOKENS: [string, string | undefined, 'admin-unauthorized' | 'admin-token-invalid'][] = [
  ['no header', undefined, 'admin-unauthorized'],
  ['empty', '', 'admin-unauthorized'],
  ['scheme only', 'Bearer', 'admin-unauthorized'],
  ['scheme and space', 'Bearer ', 'admin-unauthorized'],
  ['token without scheme', adminToken, 'admin-unauthorized'],
  ['scheme glued to token', `Bearer${adminToken}`, 'admin-unauthorized'],
  ['colon after scheme', `Bearer:${adminToken}`, 'admin-unauthorized'],
  ['tab after scheme', `Bearer\t${adminToken}`, 'admin-unauthorized'],
  ['Basic scheme', `Basic ${Buffer.from(`admin:${adminToken}`).toString('base64')}`, 'admin-unauthorized'],
  ['Token scheme', `Token ${adminToken}`, 'admin-unauthorized'],
  ['Digest scheme', `Digest username="admin", response="${adminToken}"`, 'admin-unauthorized'],
  ['two tokens', `Bearer ${adminToken} ${adminToken}`, 'admin-unauthorized'],
  ['wrong value', 'Bearer wrong-token', 'admin-token-invalid'],
  ['near-miss prefix (one character short)', `Bearer ${adminToken.slice(0, -1)}`, 'admin-token-invalid'],
  ['near-miss prefix (first half)', `Bearer ${adminToken.slice(0, adminToken.length / 2)}`, 'admin-token-invalid'],
  ['one character more', `Bearer ${adminToken}x`, 'admin-token-invalid'],
  [
    'last character changed',
    `Bearer ${adminToken.slice(0, -1)}${adminToken.endsWith('0') ? '1' : '0'}`,
    'admin-token-invalid',
  ],
  ['upper-cased token', `Bearer ${adminToken.toUpperCase()}`, 'admin-token-invalid'],
  ['quoted token', `Bearer "${adminToken}"`, 'admin-token-invalid'],
  ['base64 of the token', `Bearer ${Buffer.from(adminToken).toString('base64')}`, 'admin-token-invalid'],
];

describe('reliability: admin routes refuse a missing or wrong token and leak nothing', () => {
  it(`answers ${BAD_TOKENS.length} bad Authorization headers on ${ADMIN_ROUTES.length} admin routes with 401 and a bare envelope`, async () => {
    const { app, store } = await buildApp();
    // Records the answers must not reveal.
    const put = await app.inject({
      method: 'PUT',
      url: '/admin/api/instances/secret-site',
      headers: { ...bearer, ...json },
      payload: { sharedData: { secretMarker: 'config-marker-7f3a' }, xssiPrefix: ')]}' },
    });
    expect(put.statusCode).toBe(200);
    const updated = await app.inject({
      method: 'POST',
      url: '/consent/update',
      headers: json,
      payload: {
        consentInstanceId: 'secret-site',
        pageUserId: 'secret-page-user',
        consentStateValue: 'accepted',
        consentString: 'record-marker-91c2',
      },
    });
    expect(updated.statusCode).toBe(200);
    const keysBefore = (await app.inject({ url: '/.well-known/page-consent-keys.json' })).json().keys.length;
    const secrets = [
      adminToken,
      'config-marker-7f3a',
      'record-marker-91c2',
      'secret-page-user',
      'secretMarker',
      'tier',
      updated.json().receiptId as string,
    ];
    let cases = 0;
    for (const route of ADMIN_ROUTES) {
      for (const [label, authorization, code] of BAD_TOKENS) {
        const headers: Record<string, string> = { ...(route.body ? json : {}) };
        if (authorization !== undefined) headers['authorization'] = authorization;
        const response = await app.inject({
          method: route.method,
          url: route.url,
          headers,
          ...(route.body ? { payload: JSON.stringify(route.body) } : {}),
        });
        const where = `${route.method} ${route.url} with ${label}`;
        cases++;
        expect(response.statusCode, where).toBe(401);
        const body = response.json();
        expect(body, where).toEqual({ error: { code, message: expect.any(String) } });
        expect(response.headers['www-authenticate'], where).toBe(
          code === 'admin-unauthorized'
            ? 'Bearer realm="page-admin"'
            : 'Bearer realm="page-admin", error="invalid_token"',
        );
        expect(response.headers['set-cookie'], where).toBeUndefined();
        expect(response.headers['cache-control'], where).toBe('no-store');
        const text = response.body + JSON.stringify(response.headers);
        for (const secret of secrets) expect(text.includes(secret), `${where} leaks ${secret}`).toBe(false);
        expect(text, where).not.toMatch(/\bat \S+:\d+|\/work\/|server\/|node_modules|Error:|stack/);
      }
    }
    // Nothing was changed by the refused writes.
    const instance = await store.getInstance('secret-site');
    expect(instance?.policyVersion).toBe(1);
    expect(instance?.config.sharedData).toEqual({ secretMarker: 'config-marker-7f3a' });
    expect(await store.findUserIds('secret-site', 'secret-page-user')).toHaveLength(1);
    expect(await store.listAuditEntries('secret-site', 0, 10)).toHaveLength(1);
    expect(await store.getAdsConfig('secret-client')).toBeNull();
    expect((await app.inject({ url: '/.well-known/page-consent-keys.json' })).json().keys.length).toBe(keysBefore);
    // The receipt route reads the admin token too: a bad one finds nothing.
    for (const [label, authorization] of BAD_TOKENS) {
      const headers = authorization === undefined ? {} : { authorization };
      const response = await app.inject({ url: `/consent/receipt/${updated.json().receiptId}`, headers });
      cases++;
      expect(response.statusCode, label).toBe(404);
      expect(response.json().error.code).toBe('receipt-not-found');
      expect(response.body).not.toContain('record-marker-91c2');
    }
    // The right token still works (the refusals are not a broken guard); the scheme is case-insensitive (RFC 7235).
    expect(
      (
        await app.inject({
          url: '/admin/api/instances/secret-site',
          headers: { authorization: `bearer ${adminToken}` },
        })
      ).statusCode,
    ).toBe(200);
    console.log(
      `[reliability] admin: ${BAD_TOKENS.length} bad Authorization headers x ${ADMIN_ROUTES.length} admin routes + ${BAD_TOKENS.length} receipt reads = ${cases} refusals, nothing leaked`,
    );
  }, 60_000);
});

// ---------------------------------------------------------------------------------------------
// Body limits

/** Every route that takes a body, with the limit server/ configures for it. */
const BODY_ROUTES: { method: Method; url: string; limit: number; admin?: boolean }[] = [
  { method: 'POST', url: '/consent/check', limit: consentBodyLimit },
  { method: 'POST', url: '/consent/update', limit: consentBodyLimit },
  { method: 'POST', url: '/cmp/outcome?instance=site&action=accept', limit: consentBodyLimit },
  { method: 'POST', url: '/admin/receipt-keys', limit: consentBodyLimit, admin: true },
  { method: 'POST', url: '/admin/api/instances/site/policy-version', limit: adminBodyLimit, admin: true },
  { method: 'PUT', url: '/admin/api/instances/site', limit: adminBodyLimit, admin: true },
  { method: 'PATCH', url: '/admin/api/instances/site', limit: adminBodyLimit, admin: true },
  { method: 'PUT', url: '/admin/api/ads-config/big', limit: adminBodyLimit, admin: true },
];

/** A JSON object of exactly `bytes` bytes. */
const jsonOfSize = (bytes: number) => `{"pad":"${'a'.repeat(bytes - 10)}"}`;

describe('reliability: oversized bodies answer 413 body-too-large on every route that takes one', () => {
  it.each(BODY_ROUTES)(
    '$method $url: over $limit bytes is 413 body-too-large and writes nothing; at the limit it is read',
    async ({ method, url, limit, admin }) => {
      const { app, store } = await buildApp({ rateLimitPerMinute: 0 });
      const keys = (await store.listSigningKeys()).length;
      const headers = { ...json, ...(admin ? bearer : {}), origin: pageOrigin };
      expect(jsonOfSize(limit)).toHaveLength(limit);
      const over = await app.inject({ method, url, headers, payload: jsonOfSize(limit + 1) });
      expect(over.statusCode).toBe(413);
      expect(over.json()).toEqual({
        error: { code: 'body-too-large', message: `body: expected at most ${limit} bytes, got more` },
      });
      const far = await app.inject({ method, url, headers, payload: jsonOfSize(limit * 4) });
      expect(far.statusCode).toBe(413);
      expect(far.json().error.code).toBe('body-too-large');
      expect(await store.listInstances()).toEqual([]);
      expect(await store.getAdsConfig('big')).toBeNull();
      expect((await store.listSigningKeys()).length).toBe(keys);
      // At the limit the body is read: whatever the route answers, it is not body-too-large.
      const at = await app.inject({ method, url, headers, payload: jsonOfSize(limit) });
      expect(at.body).not.toContain('body-too-large');
    },
  );

  it('answers 413 body-too-large to an oversized chunked body (no Content-Length) on a real socket, consent and admin', async () => {
    const { app, store } = await buildApp({ rateLimitPerMinute: 0 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    for (const { method, url, limit, admin } of [BODY_ROUTES[1]!, BODY_ROUTES[5]!]) {
      const chunk = 'a'.repeat(8192);
      const chunks = ['{"pad":"', ...Array.from({ length: Math.ceil(limit / chunk.length) + 1 }, () => chunk), '"}'];
      const answer = await chunkedRequest(port, {
        method,
        path: url,
        headers: { ...json, ...(admin ? bearer : {}) },
        chunks,
      });
      expect(answer.status, url).toBe(413);
      expect(JSON.parse(answer.body).error.code).toBe('body-too-large');
    }
    expect(await store.listInstances()).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Hostile and Unicode strings through the stores

/** Strings that must come back byte for byte: SQL, quoting, escapes, bidi, astral, combining. */
/** Purpose names are 1-100 UTF-16 units (src/wire/values.ts readMap): the value, cut to that. */
const purposeOf = (value: string) => value.slice(0, 100);

const ROUND_TRIP: [string, string][] = [
  ['single quote', "O'Brien"],
  ['double quote', 'say "hi"'],
  ['SQL injection (drop)', "'; DROP TABLE audit_log; --"],
  ['SQL injection (tautology)', "x' OR '1'='1"],
  ['SQL injection (union)', '1 UNION SELECT config FROM instances --'],
  ['SQL injection (stacked)', "Robert'); DELETE FROM decisions WHERE ('1'='1"],
  ['SQL comment and wildcards', '/* % _ */ -- ;'],
  ['PostgreSQL placeholders and casts', "$1 $$ ::text E'\\x00'"],
  ['backslashes', 'C:\\path\\to\\n\\u0000'],
  ['JSON text', '{"a":[1,null],"b":"\\""}'],
  ['RTL override and Arabic', '\u202Eabc\u202C مرحبا بالعالم'],
  ['Hebrew with marks', 'שָׁלוֹם'],
  ['emoji with skin tone and ZWJ', '👍🏽 👨‍👩‍👧‍👦 🏳️‍🌈'],
  ['4-byte characters', '𝟘𝄞𠀋𐍈'],
  ['CJK', '同意する 동의'],
  ['combining marks', 'e\u0301 Z\u0335\u0321a\u0336lgo'],
  ['BOM, zero-width, line and paragraph separators', '\uFEFFa\u200Bb\u2028c\u2029d'],
  ['control characters', 'tab\there\nline\r\u0001\u001F\u007F'],
  ['noncharacters (well-formed)', '\uFFFE\uFFFF'],
  ['longest pageUserId in 4-byte characters', '😀'.repeat(100)],
];

/** Refused with a coded diagnostic naming the field, not stored (PostgreSQL cannot store them). */
const REFUSED: [string, string][] = [
  ['NUL', 'a\u0000b'],
  ['lone high surrogate', 'a\uD800b'],
  ['lone low surrogate', '\uDC00'],
  ['reversed pair', '\uDE00\uD83D'],
];

const sqliteDir = mkdtempSync(join(tmpdir(), 'page-reliability-'));
const postgresUrl = inject('postgresUrl');
const database = `page_reliability_${randomBytes(6).toString('hex')}`;
const stores: { name: string; open: () => Promise<ConsentStore> }[] = [
  { name: 'memory', open: async () => createMemoryStore() },
  { name: 'SQLite', open: async () => openSqliteStore(join(sqliteDir, 'page.db')) },
];
if (postgresUrl)
  stores.push({ name: 'PostgreSQL', open: () => openPostgresStore(postgresUrl.replace(/\/[^/]*$/, `/${database}`)) });

async function postgresAdmin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl! });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

beforeAll(async () => {
  if (postgresUrl) await postgresAdmin(`CREATE DATABASE ${database}`);
});
afterAll(async () => {
  if (postgresUrl) await postgresAdmin(`DROP DATABASE IF EXISTS ${database}`);
  rmSync(sqliteDir, { recursive: true, force: true });
});

describe.each(stores)('reliability: strings round-trip verbatim on $name', ({ name, open }) => {
  let store: ConsentStore;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(async () => store.close());

  it(`keeps ${ROUND_TRIP.length} hostile and Unicode strings verbatim through update, export and receipt`, async () => {
    const { app } = await buildApp({ store, rateLimitPerMinute: 0 });
    const instance = `rt-${name}`;
    const keys: JSONWebKeySet = (await app.inject({ url: '/.well-known/page-consent-keys.json' })).json();
    let fields = 0;
    for (const [label, value] of ROUND_TRIP) {
      const pageUserId = value.slice(0, 200);
      const purpose = purposeOf(value);
      const payload = {
        consentInstanceId: instance,
        pageUserId,
        consentStateValue: 'accepted',
        consentString: value,
        purposeConsents: { [purpose]: true, plain: false },
        // The AC string has a grammar of its own (src/wire/additional-consent.ts): one well-formed value.
        consentMetadata: { additionalConsent: '2~1.35~dv.9', consentStringType: 1 },
      };
      const updated = await app.inject({
        method: 'POST',
        url: '/consent/update',
        headers: { ...json, origin: pageOrigin },
        payload: JSON.stringify(payload),
      });
      expect(updated.statusCode, `${label}: ${updated.body}`).toBe(200);
      const cookie = cookieOf(updated.headers['set-cookie']);
      // The reader's check answers the stored decision.
      const checked = await app.inject({
        method: 'POST',
        url: '/consent/check',
        headers: { ...json, cookie },
        payload: { ...check, consentInstanceId: instance },
      });
      expect(checked.json(), label).toMatchObject({
        consentString: value,
        purposeConsents: { [purpose]: true, plain: false },
      });
      // The signed receipt carries the same strings, and verifies.
      const receipt = await app.inject({ url: `/consent/receipt/${updated.json().receiptId}`, headers: { cookie } });
      const { payload: signed } = await compactVerify(receipt.json().jws, createLocalJWKSet(keys));
      expect(JSON.parse(new TextDecoder().decode(signed)), label).toMatchObject({
        pii_principal_id: pageUserId,
        consent_string: value,
        purpose_consents: { [purpose]: true },
      });
      fields += 4;
    }
    // The export (NDJSON and JSON) gives every row back verbatim, in order.
    const ndjson = await app.inject({ url: `/admin/api/instances/${instance}/export`, headers: bearer });
    const rows = ndjson.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const asJson = (
      await app.inject({ url: `/admin/api/instances/${instance}/export?format=json`, headers: bearer })
    ).json();
    expect(asJson).toEqual(rows);
    expect(rows.map((row: { pageUserId: string }) => row.pageUserId)).toEqual(
      ROUND_TRIP.map(([, value]) => value.slice(0, 200)),
    );
    expect(rows.map((row: { consentString: string }) => row.consentString)).toEqual(
      ROUND_TRIP.map(([, value]) => value),
    );
    expect(
      rows.map((row: { consentMetadata: { additionalConsent: string } }) => row.consentMetadata.additionalConsent),
    ).toEqual(ROUND_TRIP.map(() => '2~1.35~dv.9'));
    expect(
      rows.map((row: { purposeConsents: Record<string, boolean> }) => Object.keys(row.purposeConsents).sort()),
    ).toEqual(ROUND_TRIP.map(([, value]) => [purposeOf(value), 'plain'].sort()));
    // Lookup by the hostile pageUserId finds exactly its row.
    const [, drop] = ROUND_TRIP[2]!;
    const found = await app.inject({
      url: `/admin/api/instances/${instance}/users?pageUserId=${encodeURIComponent(drop)}`,
      headers: bearer,
    });
    expect(found.json().users).toHaveLength(1);
    expect(found.json().users[0].history[0].consentString).toBe(drop);
    // A purpose name over 100 characters is refused with a coded diagnostic, not cut.
    const long = await app.inject({
      method: 'POST',
      url: '/consent/update',
      headers: json,
      payload: { ...update, consentInstanceId: instance, purposeConsents: { ['😀'.repeat(51)]: true } },
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toEqual({
      code: 'invalid-field',
      message: expect.stringMatching(/^purposeConsents: expected a key of 1-100 characters, got "(?:😀)+/u),
    });
    // The value quoted in the message is cut at 57 UTF-16 units, inside an emoji: the message stays well-formed text.
    expect(long.json().error.message).not.toMatch(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
    );
    expect(long.json().error.message).toMatch(/\uFFFD\.\.\."$/);
    // The tables the injections name are all still there.
    expect((await store.countInstance(instance)).auditEntries).toBe(ROUND_TRIP.length);
    console.log(
      `[reliability] round trip on ${name}: ${ROUND_TRIP.length} strings x ${fields / ROUND_TRIP.length} fields verbatim (check, receipt, NDJSON and JSON export)`,
    );
  }, 60_000);

  it.each(REFUSED)(
    `refuses %s in every string field with 400 invalid-field naming it, writing nothing (${name})`,
    async (_label, bad) => {
      const { app } = await buildApp({ store, rateLimitPerMinute: 0 });
      const instance = `refused-${name}`;
      const base = { consentInstanceId: instance, pageUserId: 'p', consentStateValue: 'accepted' };
      const cases: [string, Record<string, unknown>][] = [
        ['pageUserId', { ...base, pageUserId: bad }],
        ['consentString', { ...base, consentString: bad }],
        ['purposeConsents', { ...base, purposeConsents: { [bad]: true } }],
        ['consentMetadata.additionalConsent', { ...base, consentMetadata: { additionalConsent: bad } }],
        ['consentInstanceId', { ...base, consentInstanceId: bad }],
      ];
      for (const [field, payload] of cases) {
        const response = await app.inject({
          method: 'POST',
          url: '/consent/update',
          headers: json,
          payload: JSON.stringify(payload),
        });
        expect(response.statusCode, field).toBe(400);
        expect(response.json().error.code, field).toBe('invalid-field');
        expect(response.json().error.message, field).toMatch(new RegExp(`^${field.split('.')[0]}`));
      }
      expect(await store.getInstance(instance)).toBeNull();
    },
  );

  it(`keeps SQL in the instance id (any text is an id) as a value, verbatim through update and export (${name})`, async () => {
    const { app } = await buildApp({ store, rateLimitPerMinute: 0 });
    const id = "x'; DROP TABLE instances; --";
    const response = await app.inject({
      method: 'POST',
      url: '/consent/update',
      headers: json,
      payload: { ...update, consentInstanceId: id },
    });
    expect(response.statusCode).toBe(200);
    expect((await store.getInstance(id))?.id).toBe(id);
    const exported = await app.inject({
      url: `/admin/api/instances/${encodeURIComponent(id)}/export?format=json`,
      headers: bearer,
    });
    expect(exported.json().map((entry: { instanceId: string }) => entry.instanceId)).toEqual([id]);
  });
});

// ---------------------------------------------------------------------------------------------
// Slow clients

describe('reliability: a slow client cannot hold the server', () => {
  const timeoutMs = 1000;
  /** The documented bound: the time-out plus Node's check interval; plus slack for a loaded machine. */
  const boundMs = timeoutMs + REQUEST_TIMEOUT_CHECK_MS + 1000;

  it('cuts off slowloris clients (headers, body, idle) within the time-out while normal requests are answered', async () => {
    const { app, store } = await buildApp({ requestTimeoutMs: timeoutMs, rateLimitPerMinute: 0 });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const body = JSON.stringify({ ...update, pageUserId: 'slow' }).padEnd(400, ' ');
    const kinds = {
      // Headers one byte at a time, never finished.
      headers: ['POST /consent/update HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: aaaaaaaaaaaaaaaa\r\n'],
      // Complete headers, then the body one byte at a time.
      body: [
        `POST /consent/update HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        body,
      ],
      // A connection that never sends a byte.
      idle: ['', ''],
    } as const;
    const slow = Object.entries(kinds).flatMap(([kind, [head, trickle]]) =>
      Array.from({ length: 10 }, () =>
        slowClient(port, head, trickle, 100, 15_000).then((result) => ({ kind, ...result })),
      ),
    );
    // Meanwhile, normal requests on fresh connections are answered.
    for (let i = 0; i < 40; i++) {
      const answer = await timedRequest(port, {
        method: 'POST',
        path: '/consent/check',
        headers: json,
        body: JSON.stringify(check),
      });
      expect(answer.status).toBe(200);
    }
    const results = await Promise.all(slow);
    for (const result of results) {
      expect(result.closedByServer, `${result.kind} client was not cut off`).toBe(true);
      expect(result.closedAfterMs, result.kind).toBeGreaterThanOrEqual(timeoutMs - 50);
      expect(result.closedAfterMs, result.kind).toBeLessThanOrEqual(boundMs);
      if (result.answer) {
        expect(parseRawAnswer(result.answer), result.kind).toEqual({
          statusLine: 'HTTP/1.1 408 Request Timeout',
          body: {
            error: {
              code: 'request-timeout',
              message: 'request: expected the headers and body within REQUEST_TIMEOUT_MS, got them too slowly',
            },
          },
        });
      }
    }
    // The body trickle got its answer: the 408 with its code.
    expect(results.filter((result) => result.kind === 'body' && result.answer).length).toBeGreaterThan(0);
    // Nothing the slow updates carried was written.
    expect(await store.findUserIds('site', 'slow')).toEqual([]);
    const worst = Math.max(...results.map((result) => result.closedAfterMs));
    console.log(
      `[reliability] slowloris: ${results.length} slow clients (headers, body, idle) cut off after ${Math.min(...results.map((r) => r.closedAfterMs))}-${worst} ms ` +
        `(time-out ${timeoutMs} ms, checked every ${REQUEST_TIMEOUT_CHECK_MS} ms; asserted <= ${boundMs} ms); 40 normal requests meanwhile all answered (their latency: npm run bench -- server)`,
    );
    await app.close();
  }, 30_000);

  it('configures the time-out by default (10 s) and REQUEST_TIMEOUT_MS=0 switches it off', async () => {
    const store = createMemoryStore();
    const deps = {
      store,
      allowedOrigins: [],
      adminToken: null,
      trustedCountryHeader: null,
      adsConfigDir: null,
      countryLookup: () => null,
    };
    const byDefault = createApp(deps);
    expect([byDefault.server.requestTimeout, byDefault.server.headersTimeout]).toEqual([10_000, 10_000]);
    const off = createApp({ ...deps, requestTimeoutMs: 0 });
    expect(off.server.requestTimeout).toBe(0);
    await Promise.all([byDefault.close(), off.close()]);
    expect(parseServerConfig({}).requestTimeoutMs).toBe(10_000);
    expect(parseServerConfig({ REQUEST_TIMEOUT_MS: '2500' }).requestTimeoutMs).toBe(2500);
    expect(parseServerConfig({ REQUEST_TIMEOUT_MS: '0' }).requestTimeoutMs).toBe(0);
  });

  it.each(['-1', '10s', '1.5', '600001'])(
    'refuses REQUEST_TIMEOUT_MS=%s at start-up with request-timeout-invalid',
    (value) => {
      expect(() => parseServerConfig({ REQUEST_TIMEOUT_MS: value })).toThrow(
        `request-timeout-invalid: REQUEST_TIMEOUT_MS: expected an integer from 0 to 600000, got "${value}"`,
      );
    },
  );

  it('the real process reads REQUEST_TIMEOUT_MS and cuts a slowloris off while /healthz answers', async () => {
    const server = await startServer({ DATABASE_URL: 'memory:', REQUEST_TIMEOUT_MS: '1500', CDN_ROOT: '/nonexistent' });
    try {
      const port = Number(new URL(server.url).port);
      const slow = slowClient(
        port,
        'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n',
        'X-Slow: abcdefgh\r\n',
        100,
        15_000,
      );
      const health = await timedRequest(port, { path: '/healthz' });
      expect(health.status).toBe(200);
      const result = await slow;
      expect(result.closedByServer).toBe(true);
      expect(result.closedAfterMs).toBeGreaterThanOrEqual(1450);
      expect(result.closedAfterMs).toBeLessThanOrEqual(1500 + REQUEST_TIMEOUT_CHECK_MS + 1000);
      expect(parseRawAnswer(result.answer).body).toMatchObject({ error: { code: 'request-timeout' } });
    } finally {
      server.child.kill('SIGKILL');
      await server.exited();
    }
  }, 30_000);
});
