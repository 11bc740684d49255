import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildCheckAnswer } from '../../server/consent-policy.ts';
import { parseServerConfig } from '../../server/config.ts';
import { checkAnswerSchema } from '../../server/routes/consent.ts';
import { defaultInstanceConfig } from '../../server/store/store.ts';
import { buildApp, cookieOf, json } from './app-harness.ts';

const check = (body: object) => ({
  consentInstanceId: 'site',
  consentStateValue: 'unknown',
  matchedGeoGroup: null,
  isDirty: false,
  ...body,
});
const update = (body: object) => ({
  consentInstanceId: 'site',
  pageUserId: 'page-1',
  consentStateValue: 'accepted',
  ...body,
});

describe('consent routes', () => {
  it('answers a first check with consent required and no stored state, and creates the instance', async () => {
    const { app, store } = await buildApp();
    const response = await app.inject({ method: 'POST', url: '/consent/check', headers: json, payload: check({}) });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      consentRequired: true,
      consentStateValue: null,
      consentString: null,
      expireCache: false,
    });
    expect((await store.getInstance('site'))?.config).toEqual(defaultInstanceConfig);
  });

  it('sets an HttpOnly SameSite=Lax cookie without Secure on a loopback host', async () => {
    const { app } = await buildApp();
    const response = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: { ...json, host: 'localhost:8080' },
      payload: check({}),
    });
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(
      /^page_uid=[0-9a-f]{12}[A-Za-z0-9_-]{22}; Path=\/consent; Max-Age=34128000; HttpOnly; SameSite=Lax$/,
    );
  });

  it('sets a Secure SameSite=None cookie on a public host', async () => {
    const { app } = await buildApp();
    const response = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: { ...json, host: 'consent.news.example' },
      payload: check({}),
    });
    expect(String(response.headers['set-cookie'])).toMatch(/; HttpOnly; Secure; SameSite=None$/);
  });

  it('keeps a valid cookie and replaces a malformed one', async () => {
    const { app } = await buildApp();
    const kept = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: { ...json, cookie: 'a=b; page_uid=abcdefghijklmnopqrstuv' },
      payload: check({}),
    });
    expect(kept.headers['set-cookie']).toBeUndefined();
    const replaced = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: { ...json, cookie: 'page_uid=bad!' },
      payload: check({}),
    });
    expect(String(replaced.headers['set-cookie'])).toMatch(/^page_uid=/);
  });

  it('records an update and answers it on the next check from the same cookie', async () => {
    const { app } = await buildApp();
    const first = await app.inject({ method: 'POST', url: '/consent/check', headers: json, payload: check({}) });
    const cookie = cookieOf(first.headers['set-cookie']);
    const recorded = await app.inject({
      method: 'POST',
      url: '/consent/update',
      headers: { ...json, cookie },
      payload: update({
        consentString: 'CP-string',
        purposeConsents: { analytics: true, ads: false },
        consentMetadata: { consentStringType: 2, gdprApplies: true },
        tcfPolicyVersion: 4,
      }),
    });
    expect(recorded.statusCode).toBe(200);
    expect(recorded.json()).toEqual({ recorded: true, policyVersion: 1, receiptId: expect.stringMatching(/^rcpt_/) });
    const again = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: { ...json, cookie },
      payload: check({}),
    });
    expect(again.json()).toEqual({
      consentRequired: true,
      consentStateValue: 'accepted',
      consentString: 'CP-string',
      expireCache: false,
      purposeConsents: { analytics: true, ads: false },
      // The legacy singular name for the same map (docs/consent.md, "Remote check").
      purposeConsent: { analytics: true, ads: false },
      consentMetadata: { consentStringType: 2, gdprApplies: true },
      tcfPolicyVersion: 4,
    });
  });

  it('accepts gpc in check and update bodies and keeps it with the audit entry', async () => {
    const { app, store } = await buildApp();
    const checked = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: json,
      payload: check({ gpc: true }),
    });
    expect(checked.statusCode).toBe(200);
    const cookie = cookieOf(checked.headers['set-cookie']);
    const flagged = await app.inject({
      method: 'POST',
      url: '/consent/update',
      headers: { ...json, cookie },
      payload: update({ consentStateValue: 'rejected', gpc: true }),
    });
    expect(flagged.statusCode).toBe(200);
    await app.inject({ method: 'POST', url: '/consent/update', headers: { ...json, cookie }, payload: update({}) });
    const history = await store.getHistory('site', cookie.split('=')[1]!);
    expect(history.map((entry) => [entry.state, entry.gpc])).toEqual([
      ['rejected', true],
      ['accepted', false],
    ]);
  });

  it('writes the audit entry with origin, user agent and a salted IP hash', async () => {
    const { app, store, now } = await buildApp();
    const response = await app.inject({
      method: 'POST',
      url: '/consent/update',
      headers: { ...json, origin: 'https://news.example', 'user-agent': 'Agent/1.0' },
      remoteAddress: '203.0.113.7',
      payload: update({ consentStateValue: 'rejected' }),
    });
    const userId = cookieOf(response.headers['set-cookie']).split('=')[1]!;
    const [entry] = await store.getHistory('site', userId);
    const salt = await store.ipHashSalt();
    expect(entry).toMatchObject({
      pageUserId: 'page-1',
      state: 'rejected',
      consentString: null,
      policyVersion: 1,
      time: now.value,
      origin: 'https://news.example',
      userAgent: 'Agent/1.0',
      ipHash: createHash('sha256').update(`${salt}:203.0.113.7`).digest('hex'),
    });
    expect(JSON.stringify(entry)).not.toContain('203.0.113.7');
  });

  it('refreshes the cookie on every update', async () => {
    const { app } = await buildApp();
    const cookie = 'page_uid=abcdefghijklmnopqrstuv';
    const response = await app.inject({
      method: 'POST',
      url: '/consent/update',
      headers: { ...json, cookie },
      payload: update({}),
    });
    expect(cookieOf(response.headers['set-cookie'])).toBe(cookie);
  });

  it('expires the cache of a decision older than the policy version, until the user decides again', async () => {
    const { app, store } = await buildApp();
    const cookie = 'page_uid=abcdefghijklmnopqrstuv';
    await app.inject({
      method: 'POST',
      url: '/consent/update',
      headers: { ...json, cookie },
      payload: update({ consentString: 'old' }),
    });
    await store.bumpPolicyVersion('site', 1);
    const stale = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: { ...json, cookie },
      payload: check({ consentStateValue: 'accepted' }),
    });
    expect(stale.json()).toEqual({
      consentRequired: true,
      consentStateValue: 'unknown',
      consentString: null,
      expireCache: true,
    });
    const renewed = await app.inject({
      method: 'POST',
      url: '/consent/update',
      headers: { ...json, cookie },
      payload: update({}),
    });
    expect(renewed.json()).toEqual({ recorded: true, policyVersion: 2, receiptId: expect.stringMatching(/^rcpt_/) });
    const fresh = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: { ...json, cookie },
      payload: check({}),
    });
    expect(fresh.json()).toMatchObject({ consentStateValue: 'accepted', expireCache: false });
  });

  it('leaves the client cache alone when the server has no decision for the user', async () => {
    const { app } = await buildApp();
    const response = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: { ...json, cookie: 'page_uid=abcdefghijklmnopqrstuv' },
      payload: check({ consentStateValue: 'accepted', consentString: 'cached' }),
    });
    expect(response.json()).toMatchObject({ consentStateValue: null, expireCache: false });
  });

  it('answers consentRequired for the matched geo group, falling back to default', async () => {
    const { app, store } = await buildApp();
    await store.putInstance('site', { ...defaultInstanceConfig, consentRequired: { default: false, eea: true } }, 1);
    const answer = async (matchedGeoGroup: string | null) =>
      (
        await app.inject({ method: 'POST', url: '/consent/check', headers: json, payload: check({ matchedGeoGroup }) })
      ).json();
    expect((await answer('eea')).consentRequired).toBe(true);
    expect((await answer('us')).consentRequired).toBe(false);
    expect((await answer(null)).consentRequired).toBe(false);
  });

  it('groups the server country lookup when the page sends no matchedGeoGroup', async () => {
    const { app, store } = await buildApp();
    const config = {
      ...defaultInstanceConfig,
      consentRequired: { default: false, eea: true },
      geoGroups: { eea: ['preset-eea'] },
    };
    await store.putInstance('site', config, 1);
    const from = async (remoteAddress: string) =>
      (
        await app.inject({ method: 'POST', url: '/consent/check', headers: json, remoteAddress, payload: check({}) })
      ).json();
    expect((await from('203.0.113.7')).consentRequired).toBe(true);
    expect((await from('198.51.100.9')).consentRequired).toBe(false);
    expect((await from('127.0.0.1')).consentRequired).toBe(false);
  });

  it('takes the country from the trusted header when configured', async () => {
    const { app, store } = await buildApp({ trustedCountryHeader: 'CF-IPCountry', trustProxy: 'loopback' });
    await store.putInstance(
      'site',
      { ...defaultInstanceConfig, consentRequired: { default: false, fr: true }, geoGroups: { fr: ['fr'] } },
      1,
    );
    const response = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: { ...json, 'cf-ipcountry': 'FR' },
      payload: check({}),
    });
    expect(response.json().consentRequired).toBe(true);
  });

  it("groups a reader by the state of the CDN's region header: a Californian needs consent, a New Yorker not", async () => {
    const config = parseServerConfig({ GEO_HEADERS: 'cloudflare', TRUST_PROXY: 'loopback' });
    const { app, store } = await buildApp({
      geoHeaders: config.geoHeaders,
      trustProxy: config.trustProxy,
      trustedCountryHeader: config.trustedCountryHeader,
    });
    const groups = { california: ['preset-us-ca'], us: ['us'] };
    await store.putInstance(
      'site',
      { ...defaultInstanceConfig, consentRequired: { default: false, california: true }, geoGroups: groups },
      1,
    );
    const from = async (region: string | null) =>
      (
        await app.inject({
          method: 'POST',
          url: '/consent/check',
          headers: { ...json, 'cf-ipcountry': 'US', ...(region === null ? {} : { 'cf-region-code': region }) },
          payload: check({}),
        })
      ).json().consentRequired;
    expect([await from('CA'), await from('NY')]).toEqual([true, false]);
    // A reader of unknown state: the strictest fallback by default, national once the instance says so.
    expect(await from(null)).toBe(true);
    await store.putInstance(
      'site',
      {
        ...defaultInstanceConfig,
        consentRequired: { default: false, california: true },
        geoGroups: groups,
        subdivisionUnknown: 'national',
      },
      2,
    );
    expect(await from(null)).toBe(false);
  });

  it('sends sharedData and purposeConsentRequired from the instance', async () => {
    const { app, store } = await buildApp();
    const config = {
      ...defaultInstanceConfig,
      sharedData: { tier: 'gold', visits: 2 },
      purposeConsentRequired: ['ads'],
    };
    await store.putInstance('site', config, 1);
    const response = await app.inject({ method: 'POST', url: '/consent/check', headers: json, payload: check({}) });
    expect(response.json()).toMatchObject({ sharedData: { tier: 'gold', visits: 2 }, purposeConsentRequired: ['ads'] });
  });

  it('sends every field of a fully populated answer: the response schema drops none', async () => {
    const { app, store } = await buildApp();
    const config = { ...defaultInstanceConfig, sharedData: { tier: 'gold' }, purposeConsentRequired: ['ads'] };
    const instance = await store.putInstance('site', config, 1);
    const cookie = 'page_uid=abcdefghijklmnopqrstuv';
    const decision = {
      purposeConsents: { ads: true },
      consentString: 'CP',
      consentMetadata: { gdprApplies: true },
      tcfPolicyVersion: 5,
    };
    await app.inject({
      method: 'POST',
      url: '/consent/update',
      headers: { ...json, cookie },
      payload: update(decision),
    });
    const response = await app.inject({
      method: 'POST',
      url: '/consent/check',
      headers: { ...json, cookie },
      payload: check({}),
    });
    const expected = buildCheckAnswer(instance, 'default', await store.getDecision('site', 'abcdefghijklmnopqrstuv'));
    expect(Object.keys(expected).sort()).toEqual(Object.keys(checkAnswerSchema.properties).sort());
    expect(response.json()).toEqual(expected);
  });

  it('prefixes the check answer with the instance xssiPrefix', async () => {
    const { app, store } = await buildApp();
    await store.putInstance('site', { ...defaultInstanceConfig, xssiPrefix: ")]}'\n" }, 1);
    const response = await app.inject({ method: 'POST', url: '/consent/check', headers: json, payload: check({}) });
    expect(response.body.startsWith(")]}'\n{")).toBe(true);
    expect(JSON.parse(response.body.slice(5)).consentRequired).toBe(true);
  });

  it.each(['news site/eu', 'Zeitung – Ausgabe 1', 'ニュース', 'a"b\\c', '%2F?#', ' '])(
    'accepts the instance id %j, like the page config does, and keeps it verbatim',
    async (id) => {
      const { app, store } = await buildApp();
      const checked = await app.inject({
        method: 'POST',
        url: '/consent/check',
        headers: json,
        payload: check({ consentInstanceId: id }),
      });
      expect(checked.statusCode).toBe(200);
      const cookie = cookieOf(checked.headers['set-cookie']);
      const updated = await app.inject({
        method: 'POST',
        url: '/consent/update',
        headers: { ...json, cookie },
        payload: update({ consentInstanceId: id }),
      });
      expect(updated.statusCode).toBe(200);
      expect((await store.listInstances()).map((instance) => instance.id)).toEqual([id]);
      const again = await app.inject({
        method: 'POST',
        url: '/consent/check',
        headers: { ...json, cookie },
        payload: check({ consentInstanceId: id }),
      });
      expect(again.json().consentStateValue).toBe('accepted');
    },
  );
  it('accepts null for optional fields and ignores unknown fields', async () => {
    const { app } = await buildApp();
    const response = await app.inject({
      method: 'POST',
      url: '/consent/update',
      headers: json,
      payload: update({ consentString: null, purposeConsents: null, clientConfig: { a: 1 } }),
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('consent routes validation', () => {
  const cases: [string, string, object, string][] = [
    [
      'check',
      'missing consentInstanceId',
      { consentInstanceId: undefined },
      'consentInstanceId: expected an id of 1-100',
    ],
    [
      'check',
      'an instance id over 100 characters',
      { consentInstanceId: 'a'.repeat(101) },
      'consentInstanceId: expected an id of 1-100',
    ],
    [
      'update',
      'an instance id with NUL',
      { consentInstanceId: 'a\u0000b' },
      'consentInstanceId: expected an id of 1-100',
    ],
    [
      'check',
      'an instance id with a lone surrogate',
      { consentInstanceId: 'a\uD800' },
      'consentInstanceId: expected an id of 1-100',
    ],
    [
      'check',
      'an unknown state',
      { consentStateValue: 'maybe' },
      'consentStateValue: expected one of accepted, rejected, unknown, got "maybe"',
    ],
    ['check', 'a numeric matchedGeoGroup', { matchedGeoGroup: 3 }, 'matchedGeoGroup: expected a string'],
    ['check', 'a string isDirty', { isDirty: 'yes' }, 'isDirty: expected true or false'],
    [
      'check',
      'a non-boolean purpose',
      { purposeConsents: { ads: 'yes' } },
      'purposeConsents.ads: expected true or false',
    ],
    ['update', 'missing pageUserId', { pageUserId: undefined }, 'pageUserId: expected a string'],
    ['update', 'a negative tcfPolicyVersion', { tcfPolicyVersion: -1 }, 'tcfPolicyVersion: expected an integer'],
    [
      'update',
      'a string gdprApplies',
      { consentMetadata: { gdprApplies: 'yes' } },
      'consentMetadata.gdprApplies: expected true or false',
    ],
    ['update', 'a numeric consentString', { consentString: 5 }, 'consentString: expected a string'],
    ['check', 'a string gpc', { gpc: 'yes' }, 'gpc: expected true or false'],
    ['update', 'a numeric gpc', { gpc: 1 }, 'gpc: expected true or false'],
  ];

  it.each(cases)(
    'refuses a %s body with %s, naming the field, and writes nothing',
    async (route, _name, change, message) => {
      const { app, store } = await buildApp();
      const payload = route === 'check' ? check(change) : update(change);
      const response = await app.inject({ method: 'POST', url: `/consent/${route}`, headers: json, payload });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid-field');
      expect(response.json().error.message).toContain(message);
      expect(await store.listInstances()).toEqual([]);
    },
  );

  it('refuses a JSON array body', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'POST', url: '/consent/check', headers: json, payload: '[]' });
    expect(response.json()).toEqual({
      error: { code: 'invalid-field', message: 'body: expected a JSON object, got []' },
    });
  });

  it('refuses malformed JSON with 400 invalid-json', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'POST', url: '/consent/update', headers: json, payload: '{"a":' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid-json');
  });

  it('refuses text/plain with 400 unsupported-media-type naming body', async () => {
    const { app, store } = await buildApp();
    const response = await app.inject({
      method: 'POST',
      url: '/consent/update',
      headers: { 'content-type': 'text/plain' },
      payload: JSON.stringify(update({})),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'unsupported-media-type',
      message: 'body: expected JSON (Content-Type: application/json), got "text/plain"',
    });
    expect(await store.listInstances()).toEqual([]);
  });

  it('refuses a request without a body with 400 unsupported-media-type naming body', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'POST', url: '/consent/check' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'unsupported-media-type',
      message: 'body: expected JSON (Content-Type: application/json), got nothing',
    });
  });

  it('refuses a body over 16 KB with 413 body-too-large and accepts one just under', async () => {
    const { app, store } = await buildApp();
    const padded = (size: number) => {
      const base = JSON.stringify(update({ consentString: '' }));
      return base.replace('"consentString":""', `"consentString":"${'x'.repeat(size - base.length)}"`);
    };
    const tooLarge = await app.inject({
      method: 'POST',
      url: '/consent/update',
      headers: json,
      payload: padded(16 * 1024 + 1),
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().error).toEqual({
      code: 'body-too-large',
      message: 'body: expected at most 16384 bytes, got more',
    });
    expect(await store.listInstances()).toEqual([]);
    const fits = await app.inject({
      method: 'POST',
      url: '/consent/update',
      headers: json,
      payload: JSON.stringify(
        update({
          consentString: 'x'.repeat(8000),
          consentMetadata: { additionalConsent: `2~~dv.${Array.from({ length: 800 }, (_, i) => 1000 + i).join('.')}` },
        }),
      ),
    });
    expect(fits.statusCode).toBe(200);
  });
});
