import { describe, expect, it } from 'vitest';
import { defaultInstanceConfig } from '../../server/store/store.ts';
import { parseGeoConfig } from '../../src/wire/geo-groups.ts';
import { adminToken, bearer, buildApp, json } from './app-harness.ts';
import { entry } from './store-contract.ts';

describe('admin auth', () => {
  it('answers 404 admin-disabled when no token is configured', async () => {
    const { app } = await buildApp({ adminToken: null });
    const response = await app.inject({ url: '/admin/api/instances', headers: bearer });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('admin-disabled');
  });

  it.each([[undefined], ['Basic abc'], ['Bearer'], [adminToken]])(
    'answers 401 with a challenge for Authorization %s',
    async (authorization) => {
      const { app } = await buildApp();
      const headers = authorization === undefined ? {} : { authorization };
      const response = await app.inject({ url: '/admin/api/instances', headers });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="page-admin"');
      expect(response.json().error.code).toBe('admin-unauthorized');
    },
  );

  it('answers 401 admin-token-invalid for a wrong token, the challenge saying invalid_token', async () => {
    const { app } = await buildApp();
    const response = await app.inject({
      url: '/admin/api/instances',
      headers: { authorization: 'Bearer wrong-token' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer realm="page-admin", error="invalid_token"');
    expect(response.json().error.code).toBe('admin-token-invalid');
  });

  it('guards every admin API route', async () => {
    const { app } = await buildApp();
    const urls = [
      ['GET', '/admin/api/instances/site'],
      ['PUT', '/admin/api/instances/site'],
      ['PATCH', '/admin/api/instances/site'],
      ['POST', '/admin/api/instances/site/policy-version'],
      ['GET', '/admin/api/instances/site/users?userId=u'],
      ['DELETE', '/admin/api/instances/site/users?userId=u'],
      ['GET', '/admin/api/instances/site/export'],
      ['GET', '/admin/api/instances/site/stats'],
      ['GET', '/admin/api/ads-config/demo'],
      ['PUT', '/admin/api/ads-config/demo'],
    ] as const;
    for (const [method, url] of urls) {
      const body = method === 'GET' || method === 'DELETE' ? {} : { payload: '{}' };
      const response = await app.inject({ method, url, headers: json, ...body });
      expect(response.statusCode, `${method} ${url}`).toBe(401);
    }
  });
});

describe('admin routes', () => {
  it('creates, reads, patches and lists instances with counts', async () => {
    const { app } = await buildApp();
    const put = await app.inject({
      method: 'PUT',
      url: '/admin/api/instances/site',
      headers: { ...bearer, ...json },
      payload: {
        consentRequired: { eea: true, default: false },
        geoGroups: { eea: ['preset-eea', 'CH'] },
        sharedData: { tier: 'gold' },
      },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({
      id: 'site',
      policyVersion: 1,
      config: {
        consentRequired: { default: false, eea: true },
        geoGroups: { eea: ['preset-eea', 'ch'] },
        sharedData: { tier: 'gold' },
      },
    });
    const patched = await app.inject({
      method: 'PATCH',
      url: '/admin/api/instances/site',
      headers: { ...bearer, ...json },
      payload: { xssiPrefix: ")]}'" },
    });
    expect(patched.json().config).toMatchObject({ xssiPrefix: ")]}'", sharedData: { tier: 'gold' } });
    const one = await app.inject({ url: '/admin/api/instances/site', headers: bearer });
    expect(one.json().counts).toEqual({
      users: 0,
      auditEntries: 0,
      decisions: { accepted: 0, rejected: 0, unknown: 0 },
    });
    const list = await app.inject({ url: '/admin/api/instances', headers: bearer });
    expect(list.json().instances.map((i: { id: string }) => i.id)).toEqual(['site']);
  });

  it('answers 404 instance-not-found for unknown instances', async () => {
    const { app } = await buildApp();
    for (const [method, url] of [
      ['GET', '/admin/api/instances/ghost'],
      ['PATCH', '/admin/api/instances/ghost'],
      ['POST', '/admin/api/instances/ghost/policy-version'],
    ] as const) {
      const body = method === 'GET' ? {} : { payload: '{}' };
      const response = await app.inject({ method, url, headers: { ...bearer, ...json }, ...body });
      expect(response.statusCode, url).toBe(404);
      expect(response.json().error.code).toBe('instance-not-found');
    }
  });

  it('reads a boolean consentRequired as the answer for every group', async () => {
    const { app } = await buildApp();
    const response = await app.inject({
      method: 'PUT',
      url: '/admin/api/instances/site',
      headers: { ...bearer, ...json },
      payload: { consentRequired: false },
    });
    expect(response.json().config.consentRequired).toEqual({ default: false });
    const check = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: json,
      payload: { consentInstanceId: 'site', consentStateValue: 'unknown', matchedGeoGroup: 'eea' },
    });
    expect(check.json().consentRequired).toBe(false);
  });

  it.each([
    { eea: ['preset-eea', 'CH', 'unknown'], us: ['US', 'preset-US-CA'] },
    { west: ['us-ca'] },
    { mars: ['preset-mars'] },
    { 'eu-west': ['de'] },
    { '1st': ['de'] },
    { g: ['deu'] },
    { g: [3] },
    { g: 'de' },
  ])('stores exactly the geo groups <page-geo> accepts: %j', async (geoGroups) => {
    const { app, store } = await buildApp();
    const page = parseGeoConfig({ ISOCountryGroups: geoGroups });
    const response = await app.inject({
      method: 'PUT',
      url: '/admin/api/instances/site',
      headers: { ...bearer, ...json },
      payload: { geoGroups },
    });
    if (page.diagnostics.length === 0) {
      expect(response.statusCode).toBe(200);
      expect((await store.getInstance('site'))?.config.geoGroups).toEqual(page.value);
    } else {
      expect(response.statusCode).toBe(400);
      const [first] = page.diagnostics;
      expect(response.json().error.message).toBe(
        `${first!.field!.replace('ISOCountryGroups', 'geoGroups')}: expected ${first!.expected}, got ${first!.got}`,
      );
      expect(await store.getInstance('site')).toBeNull();
    }
  });

  it.each([
    ['national', 200],
    ['strictest', 200],
    ['statewide', 400],
  ])("takes <page-geo>'s subdivisionUnknown values only: %s", async (value, status) => {
    const { app, store } = await buildApp();
    const response = await app.inject({
      method: 'PUT',
      url: '/admin/api/instances/site',
      headers: { ...bearer, ...json },
      payload: { geoGroups: { california: ['preset-us-ca'] }, subdivisionUnknown: value },
    });
    expect(response.statusCode).toBe(status);
    if (status === 200) expect((await store.getInstance('site'))?.config.subdivisionUnknown).toBe(value);
    else expect(response.json().error.message).toMatch(/^subdivisionUnknown: expected /);
  });

  it.each([
    [{ consentRequired: 'yes' }, 'consentRequired: expected a JSON object'],
    [{ consentRequired: { eea: 'yes' } }, 'consentRequired.eea: expected true or false'],
    [{ geoGroups: { eea: ['europe'] } }, 'geoGroups.eea[0]: expected an ISO country code, unknown or a preset in eea'],
    [{ sharedData: { nested: { a: 1 } } }, 'sharedData.nested: expected a string, number or boolean'],
    [{ prompt: { title: 'T' } }, 'prompt.message: expected a string'],
    [
      { prompt: { title: 'T', message: 'M', vendors: [{ name: 'V', url: 'javascript:alert(1)' }] } },
      'prompt.vendors[0].url: expected an http(s) URL',
    ],
  ])('refuses an invalid config %j with 400 naming the field', async (payload, message) => {
    const { app, store } = await buildApp();
    const response = await app.inject({
      method: 'PUT',
      url: '/admin/api/instances/site',
      headers: { ...bearer, ...json },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toContain(message);
    expect(await store.getInstance('site')).toBeNull();
  });

  it('bumps the policy version so older decisions get expireCache', async () => {
    const { app, store } = await buildApp();
    await store.ensureInstance('site', defaultInstanceConfig, 1);
    await store.recordDecision(entry({ userId: 'abcdefghijklmnopqrstuv' }));
    const bumped = await app.inject({
      method: 'POST',
      url: '/admin/api/instances/site/policy-version',
      headers: bearer,
    });
    expect(bumped.json().policyVersion).toBe(2);
    const check = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: { ...json, cookie: 'page_uid=abcdefghijklmnopqrstuv' },
      payload: { consentInstanceId: 'site', consentStateValue: 'accepted', matchedGeoGroup: null },
    });
    expect(check.json().expireCache).toBe(true);
  });

  it('looks up a user by userId or pageUserId with decision and history', async () => {
    const { app, store } = await buildApp();
    await store.recordDecision(entry({ userId: 'u1', pageUserId: 'p1', state: 'rejected' }));
    await store.recordDecision(entry({ userId: 'u1', pageUserId: 'p1', state: 'accepted' }));
    const byUser = await app.inject({ url: '/admin/api/instances/site/users?userId=u1', headers: bearer });
    expect(byUser.json().users).toHaveLength(1);
    expect(byUser.json().users[0].decision.state).toBe('accepted');
    expect(byUser.json().users[0].history.map((h: { state: string }) => h.state)).toEqual(['rejected', 'accepted']);
    const byPage = await app.inject({ url: '/admin/api/instances/site/users?pageUserId=p1', headers: bearer });
    expect(byPage.json().users[0].userId).toBe('u1');
  });

  it('pages the instance list with limit and cursor', async () => {
    const { app, store } = await buildApp();
    for (const id of ['e', 'c', 'a', 'd', 'b']) await store.putInstance(id, defaultInstanceConfig, 1);
    const ids: string[][] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const page = (await app.inject({ url: `/admin/api/instances?limit=2${query}`, headers: bearer })).json();
      ids.push(page.instances.map((i: { id: string }) => i.id));
      cursor = page.nextCursor;
    } while (typeof cursor === 'string' && ids.length < 5);
    expect(ids).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    const all = (await app.inject({ url: '/admin/api/instances', headers: bearer })).json();
    expect(all.instances).toHaveLength(5);
    expect(all.nextCursor).toBeNull();
  });

  it('answers at most 100 instances by default', async () => {
    const { app, store } = await buildApp();
    for (let i = 0; i < 101; i++) await store.putInstance(`i${String(i).padStart(3, '0')}`, defaultInstanceConfig, 1);
    const page = (await app.inject({ url: '/admin/api/instances', headers: bearer })).json();
    expect(page.instances).toHaveLength(100);
    expect(page.nextCursor).toBe('i099');
  });

  it.each([
    ['limit=0', /^limit: expected an integer from 1 to 1000, got "0"/],
    ['limit=1001', /^limit: expected an integer from 1 to 1000/],
    ['limit=ten', /^limit: expected an integer from 1 to 1000/],
    [`cursor=${'x'.repeat(201)}`, /^cursor: expected a string of 1-200 characters/],
  ])('refuses the list query %s with 400 naming the parameter', async (query, message) => {
    const { app } = await buildApp();
    const response = await app.inject({ url: `/admin/api/instances?${query}`, headers: bearer });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid-field');
    expect(response.json().error.message).toMatch(message);
  });

  it('pages the users behind a pageUserId and caps each history at the limit', async () => {
    const { app, store } = await buildApp();
    for (const userId of ['u3', 'u1', 'u2']) await store.recordDecision(entry({ userId, pageUserId: 'shared' }));
    await store.recordDecision(entry({ userId: 'u1', pageUserId: 'shared', state: 'rejected' }));
    const first = (
      await app.inject({ url: '/admin/api/instances/site/users?pageUserId=shared&limit=1', headers: bearer })
    ).json();
    expect(first.users.map((u: { userId: string }) => u.userId)).toEqual(['u1']);
    expect(first.users[0].history).toHaveLength(1);
    expect(first.users[0].moreHistory).toBe(true);
    expect(first.users[0].decision.state).toBe('rejected');
    const second = (
      await app.inject({
        url: `/admin/api/instances/site/users?pageUserId=shared&limit=2&cursor=${first.nextCursor}`,
        headers: bearer,
      })
    ).json();
    expect(second.users.map((u: { userId: string }) => u.userId)).toEqual(['u2', 'u3']);
    expect(second.nextCursor).toBeNull();
    expect(second.users[0].moreHistory).toBe(false);
  });

  it('erases every user behind a pageUserId, beyond one page', async () => {
    const { app, store } = await buildApp();
    for (let i = 0; i < 505; i++) await store.recordDecision(entry({ userId: `u${i}`, pageUserId: 'many' }));
    const response = await app.inject({
      method: 'DELETE',
      url: '/admin/api/instances/site/users?pageUserId=many',
      headers: bearer,
    });
    expect(response.json()).toEqual({ erased: { decisions: 505, auditEntries: 505 } });
  });

  it('answers 404 user-not-found and 400 without a user parameter', async () => {
    const { app } = await buildApp();
    const missing = await app.inject({ url: '/admin/api/instances/site/users?userId=nobody', headers: bearer });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('user-not-found');
    const noParameter = await app.inject({ url: '/admin/api/instances/site/users', headers: bearer });
    expect(noParameter.statusCode).toBe(400);
    expect(noParameter.json().error.message).toMatch(/^userId: expected a userId or pageUserId/);
  });

  it('erases a user by pageUserId', async () => {
    const { app, store } = await buildApp();
    await store.recordDecision(entry({ userId: 'u1', pageUserId: 'p1' }));
    await store.recordDecision(entry({ userId: 'u1', pageUserId: 'p1' }));
    await store.recordDecision(entry({ userId: 'u2', pageUserId: 'p2' }));
    const response = await app.inject({
      method: 'DELETE',
      url: '/admin/api/instances/site/users?pageUserId=p1',
      headers: bearer,
    });
    expect(response.json()).toEqual({ erased: { decisions: 1, auditEntries: 2 } });
    expect(await store.getHistory('site', 'u1')).toEqual([]);
    expect(await store.getHistory('site', 'u2')).toHaveLength(1);
  });

  it('exports NDJSON by default, one record per line', async () => {
    const { app, store } = await buildApp();
    for (let i = 0; i < 3; i++) await store.recordDecision(entry({ userId: `u${i}`, purposeConsents: { ads: i > 0 } }));
    const response = await app.inject({ url: '/admin/api/instances/site/export', headers: bearer });
    expect(response.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="site-records.ndjson"');
    const lines = response.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((l) => l.userId)).toEqual(['u0', 'u1', 'u2']);
    expect(lines[0]).toMatchObject({
      time: '2025-01-01T10:00:00.000Z',
      purposeConsents: { ads: false },
      ipHash: 'ab12',
    });
  });

  it('exports which updates said the browser sent GPC', async () => {
    const { app, store } = await buildApp();
    await store.recordDecision(entry({ userId: 'u0', state: 'rejected', gpc: true }));
    await store.recordDecision(entry({ userId: 'u1' }));
    const response = await app.inject({ url: '/admin/api/instances/site/export?format=ndjson', headers: bearer });
    expect(
      response.body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).gpc),
    ).toEqual([true, false]);
    const csv = await app.inject({ url: '/admin/api/instances/site/export?format=csv', headers: bearer });
    expect(csv.body.split('\r\n')[1]).toMatch(/,"true",""$/);
  });

  it('streams an export larger than one page', async () => {
    const { app, store } = await buildApp();
    for (let i = 0; i < 1203; i++) await store.recordDecision(entry({ userId: `u${i}` }));
    const response = await app.inject({ url: '/admin/api/instances/site/export?format=ndjson', headers: bearer });
    const ids = response.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).id);
    expect(ids).toHaveLength(1203);
    expect(new Set(ids).size).toBe(1203);
  });

  it('exports CSV with a header, every cell quoted and formulas neutralised', async () => {
    const { app, store } = await buildApp();
    await store.recordDecision(
      entry({ userAgent: '=HYPERLINK("x")', consentString: 'a,b', purposeConsents: { ads: true } }),
    );
    const response = await app.inject({ url: '/admin/api/instances/site/export?format=csv', headers: bearer });
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [header, row] = response.body.split('\r\n');
    expect(header).toBe(
      '"id","time","instanceId","userId","pageUserId","state","consentString","purposeConsents","consentMetadata","tcfPolicyVersion","policyVersion","origin","userAgent","ipHash","gpc","geoGroup"',
    );
    expect(row).toBe(
      '"1","2025-01-01T10:00:00.000Z","site","user-a","page-a","accepted","a,b","{""ads"":true}","","","1","https://news.example","\'=HYPERLINK(""x"")","ab12","false",""',
    );
  });

  it('keeps a semicolon-led formula inside one quoted CSV cell', async () => {
    const { app, store } = await buildApp();
    await store.recordDecision(
      entry({ pageUserId: ";=cmd|' /C calc'!A0", consentString: '+1', userAgent: '@SUM(A1)' }),
    );
    const response = await app.inject({ url: '/admin/api/instances/site/export?format=csv', headers: bearer });
    const row = response.body.split('\r\n')[1]!;
    expect(row).toContain(`,";=cmd|' /C calc'!A0",`);
    expect(row).toContain(`,"'+1",`);
    expect(row).toContain(`,"'@SUM(A1)",`);
    expect(row.split('","')).toHaveLength(16);
  });

  it('exports one JSON array with format=json', async () => {
    const { app, store } = await buildApp();
    const empty = await app.inject({ url: '/admin/api/instances/site/export?format=json', headers: bearer });
    expect(empty.json()).toEqual([]);
    for (let i = 0; i < 3; i++) await store.recordDecision(entry({ userId: `u${i}` }));
    const response = await app.inject({ url: '/admin/api/instances/site/export?format=json', headers: bearer });
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="site-records.json"');
    const records = response.json() as { userId: string; time: string }[];
    expect(records.map((record) => record.userId)).toEqual(['u0', 'u1', 'u2']);
    expect(records[0]!.time).toBe('2025-01-01T10:00:00.000Z');
  });

  it('exports one user only when asked', async () => {
    const { app, store } = await buildApp();
    await store.recordDecision(entry({ userId: 'u1', pageUserId: 'p1' }));
    await store.recordDecision(entry({ userId: 'u2', pageUserId: 'p2' }));
    const response = await app.inject({ url: '/admin/api/instances/site/export?pageUserId=p2', headers: bearer });
    expect(
      response.body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).userId),
    ).toEqual(['u2']);
  });

  it('serves an instance whose id has spaces, slashes and quotes through URL-encoded admin paths and exports', async () => {
    const { app, store } = await buildApp();
    const id = 'news site/eu "ü"';
    const path = `/admin/api/instances/${encodeURIComponent(id)}`;
    const put = await app.inject({
      method: 'PUT',
      url: path,
      headers: { ...bearer, ...json },
      payload: { consentRequired: false },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().id).toBe(id);
    expect((await app.inject({ url: path, headers: bearer })).json().id).toBe(id);
    const patched = await app.inject({
      method: 'PATCH',
      url: path,
      headers: { ...bearer, ...json },
      payload: { sharedData: { a: 1 } },
    });
    expect(patched.json().config.sharedData).toEqual({ a: 1 });
    expect(
      (await app.inject({ method: 'POST', url: `${path}/policy-version`, headers: bearer })).json().policyVersion,
    ).toBe(2);
    await store.recordDecision(entry({ instanceId: id, userId: 'u1', pageUserId: 'p1' }));
    expect((await app.inject({ url: `${path}/users?pageUserId=p1`, headers: bearer })).json().users).toHaveLength(1);
    expect((await app.inject({ url: `${path}/stats`, headers: bearer })).json().counts.auditEntries).toBe(1);
    const csv = await app.inject({ url: `${path}/export?format=csv`, headers: bearer });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n')[1]).toContain(`,"news site/eu ""ü""","u1","p1",`);
    // An ASCII name any client can save, and the exact id for those that read RFC 6266 filename*.
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="news_site_eu____-records.csv"; filename*=UTF-8''${encodeURIComponent(id)}-records.csv`,
    );
    const exported = await app.inject({ url: `${path}/export?format=json`, headers: bearer });
    expect(exported.json().map((record: { instanceId: string }) => record.instanceId)).toEqual([id]);
    const erased = await app.inject({ method: 'DELETE', url: `${path}/users?userId=u1`, headers: bearer });
    expect(erased.json()).toEqual({ erased: { decisions: 1, auditEntries: 1 } });
    expect(
      (await app.inject({ url: '/admin/api/instances', headers: bearer }))
        .json()
        .instances.map((i: { id: string }) => i.id),
    ).toEqual([id]);
  });

  it('takes ids of 100 characters in admin paths however long their encoding, and refuses NUL or a longer id', async () => {
    const { app } = await buildApp();
    const long = 'ü/'.repeat(50);
    const put = await app.inject({
      method: 'PUT',
      url: `/admin/api/instances/${encodeURIComponent(long)}`,
      headers: { ...bearer, ...json },
      payload: {},
    });
    expect(put.json().id).toBe(long);
    const nul = await app.inject({ url: `/admin/api/instances/${encodeURIComponent('a\u0000b')}`, headers: bearer });
    expect(nul.statusCode).toBe(400);
    expect(nul.json().error.message).toMatch(/^id: expected an id of 1-100 characters/);
    // The router refuses a path parameter over 100 characters before any route runs.
    const over = await app.inject({ url: `/admin/api/instances/${'a'.repeat(101)}`, headers: bearer });
    expect(over.statusCode).toBe(414);
    expect(over.json().error.code).toBe('bad-request');
  });
  it('refuses an unknown export format', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ url: '/admin/api/instances/site/export?format=xml', headers: bearer });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe('format: expected one of csv, ndjson, json, got "xml"');
  });

  it('answers statistics for the requested days', async () => {
    const { app, store, now } = await buildApp();
    now.value = Date.UTC(2025, 0, 2, 12);
    await store.recordDecision(entry({ userId: 'a', time: Date.UTC(2024, 11, 1), state: 'rejected' }));
    await store.recordDecision(entry({ userId: 'a', time: Date.UTC(2025, 0, 1, 9), purposeConsents: { ads: true } }));
    await store.recordPromptOutcome('site', '2025-01-02', 'dismiss');
    const response = await app.inject({ url: '/admin/api/instances/site/stats?days=7', headers: bearer });
    expect(response.json()).toEqual({
      instanceId: 'site',
      days: 7,
      counts: { users: 1, auditEntries: 2, decisions: { accepted: 1, rejected: 0, unknown: 0 } },
      decisionsPerDay: [{ day: '2025-01-01', accepted: 1, rejected: 0, unknown: 0 }],
      // An entry without a geo group (logged before the group was kept) counts under "unknown".
      decisionsPerGroup: [{ group: 'unknown', accepted: 1, custom: 0, rejected: 0, optOut: 0, unknown: 0 }],
      promptOutcomesPerDay: [{ day: '2025-01-02', accept: 0, reject: 0, dismiss: 1 }],
      purposes: [{ purpose: 'ads', accepted: 1, rejected: 0 }],
    });
  });

  it('refuses days outside 1-366', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ url: '/admin/api/instances/site/stats?days=0', headers: bearer });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toMatch(/^days: expected an integer from 1 to 366/);
  });

  it('stores ads configs for clients without a file, and refuses to shadow a file', async () => {
    const { app } = await buildApp();
    const document = { placements: [{ anchor: { selector: '.post p' }, pos: 4, type: 1 }] };
    const put = await app.inject({
      method: 'PUT',
      url: '/admin/api/ads-config/shop',
      headers: { ...bearer, ...json },
      payload: document,
    });
    expect(put.statusCode).toBe(200);
    const served = await app.inject({ url: '/ads/config?client=shop' });
    expect(served.json()).toEqual(document);
    const read = await app.inject({ url: '/admin/api/ads-config/shop', headers: bearer });
    expect(read.json()).toMatchObject({ client: 'shop', source: 'store' });
    const shadow = await app.inject({
      method: 'PUT',
      url: '/admin/api/ads-config/demo',
      headers: { ...bearer, ...json },
      payload: document,
    });
    expect(shadow.statusCode).toBe(409);
    expect(shadow.json().error.code).toBe('ads-config-from-file');
    const invalid = await app.inject({
      method: 'PUT',
      url: '/admin/api/ads-config/shop',
      headers: { ...bearer, ...json },
      payload: { placements: [{}] },
    });
    expect(invalid.statusCode).toBe(400);
    const missing = await app.inject({ url: '/admin/api/ads-config/nobody', headers: bearer });
    expect(missing.statusCode).toBe(404);
  });

  it('accepts admin bodies larger than the consent limit', async () => {
    const { app } = await buildApp();
    const vendors = Array.from({ length: 400 }, (_, i) => ({
      name: `Vendor number ${i} with a long name`,
      url: `https://vendor${i}.example/privacy`,
    }));
    const payload = { prompt: { title: 'T', message: 'M', vendors } };
    expect(JSON.stringify(payload).length).toBeGreaterThan(16 * 1024);
    const response = await app.inject({
      method: 'PUT',
      url: '/admin/api/instances/site',
      headers: { ...bearer, ...json },
      payload,
    });
    expect(response.statusCode).toBe(200);
  });

  it('refuses admin bodies over 1 MB with 413 body-too-large', async () => {
    const { app } = await buildApp();
    const payload = { prompt: { title: 'T', message: 'x'.repeat(1024 * 1024) } };
    const response = await app.inject({
      method: 'PUT',
      url: '/admin/api/instances/site',
      headers: { ...bearer, ...json },
      payload,
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toEqual({
      code: 'body-too-large',
      message: 'body: expected at most 1048576 bytes, got more',
    });
  });

  it('serves the dashboard page without a token, with a nonce CSP and no framing', async () => {
    const { app } = await buildApp({ adminToken: null });
    const redirect = await app.inject({ url: '/admin' });
    expect(redirect.statusCode).toBe(301);
    expect(redirect.headers.location).toBe('/admin/');
    const page = await app.inject({ url: '/admin/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const nonce = /'nonce-([^']+)'/.exec(String(page.headers['content-security-policy']))![1]!;
    // Its one script is the built dashboard script, carrying the page's nonce; nothing inline.
    expect(page.body.match(/<script[^>]*>/g)).toEqual([`<script nonce="${nonce}" src="/admin/admin-0.1.js">`]);
    expect(page.body).toContain('<input id="token" type="password"');
  });

  it('serves the dashboard script built from src/admin (not from the CDN root), revalidated on each load, with its source map', async () => {
    const { app } = await buildApp();
    const script = await app.inject({ url: '/admin/admin-0.1.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('no-cache');
    expect(script.headers['sourcemap']).toBe('admin-0.1.js.map');
    expect(script.body).toContain('page-admin-token');
    const map = await app.inject({ url: '/admin/admin-0.1.js.map' });
    expect(map.json().sources.some((source: string) => source.endsWith('src/admin/admin-page.ts'))).toBe(true);
  });

  it('says on the dashboard that hosted prompt outcomes are self-reported and can be inflated', async () => {
    const { app } = await buildApp();
    const page = await app.inject({ url: '/admin/' });
    expect(page.body).toContain(
      'Hosted prompt outcomes are self-reported by pages and can be inflated by anyone who can reach the endpoint',
    );
  });
});
