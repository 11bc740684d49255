import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import {
  CompactSign,
  compactVerify,
  createLocalJWKSet,
  decodeProtectedHeader,
  importJWK,
  type JSONWebKeySet,
} from 'jose';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../../server/store/sqlite-store.ts';
import { bearer, buildApp, cookieOf, json, pageOrigin } from './app-harness.ts';

const update = (body: object = {}) => ({
  consentInstanceId: 'site',
  pageUserId: 'page-1',
  consentStateValue: 'accepted',
  ...body,
});
type App = Awaited<ReturnType<typeof buildApp>>['app'];

async function recordUpdate(app: App, cookie = 'page_uid=abcdefghijklmnopqrstuv', body: object = {}) {
  const response = await app.inject({
    method: 'POST',
    url: '/consent/update',
    headers: { ...json, cookie, origin: pageOrigin },
    remoteAddress: '203.0.113.7',
    payload: update(body),
  });
  return { receiptId: response.json().receiptId as string, cookie: cookieOf(response.headers['set-cookie']) };
}

const keySetOf = async (app: App) =>
  (await app.inject({ url: '/.well-known/page-consent-keys.json' })).json() as JSONWebKeySet;

async function verify(app: App, jws: string) {
  const { payload, protectedHeader } = await compactVerify(jws, createLocalJWKSet(await keySetOf(app)));
  return { receipt: JSON.parse(new TextDecoder().decode(payload)), protectedHeader };
}

/** The verifier docs/server.md documents, run as written there. */
function documentedVerifier(): (jws: string, keys: JSONWebKeySet) => Promise<Record<string, unknown>> {
  const text = readFileSync(new URL('../../docs/server.md', import.meta.url), 'utf8');
  const block = /<!-- receipt-verifier:[^>]*-->\n```js\n([\s\S]*?)```/.exec(text)![1]!;
  const body = block.replace(/^import .*$/m, '');
  return new Function('compactVerify', 'createLocalJWKSet', `${body}\nreturn verifyReceipt;`)(
    compactVerify,
    createLocalJWKSet,
  );
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('receipt routes', () => {
  it('answers every stored update with a receipt id, and stores the receipt with its audit row', async () => {
    const { app, store } = await buildApp();
    const { receiptId, cookie } = await recordUpdate(app);
    const userId = cookie.split('=')[1]!;
    const [row] = await store.getHistory('site', userId);
    expect(await store.getReceipt(receiptId)).toMatchObject({
      id: receiptId,
      auditId: row!.id,
      userId,
      instanceId: 'site',
    });
  });

  it('returns a receipt to the same reader that verifies with the published JWK set only', async () => {
    const { app, now } = await buildApp();
    const { receiptId, cookie } = await recordUpdate(app, undefined, {
      purposeConsents: { ads: true },
      consentString: 'CP',
    });
    const response = await app.inject({ url: `/consent/receipt/${receiptId}`, headers: { cookie } });
    expect(response.statusCode).toBe(200);
    const { receipt, protectedHeader } = await verify(app, response.json().jws);
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', typ: 'page-consent-receipt+jwt' });
    expect(receipt).toMatchObject({
      receipt_id: receiptId,
      instance: 'site',
      pii_principal_id: 'page-1',
      state: 'accepted',
      purpose_consents: { ads: true },
      consent_string: 'CP',
      policy_version: 1,
      geo_group: 'default',
      origin: pageOrigin,
      time: now.value,
      event: { event_time: new Date(now.value).toISOString(), event_state: 'accepted' },
    });
  });

  it('names the GPP sections of a GPP string (a state section from our own prompt), and none for a TC string', async () => {
    const { app } = await buildApp();
    const gpp = await recordUpdate(app, undefined, {
      consentString: 'DBABBg~BUVVVUCA.YA',
      consentMetadata: { consentStringType: 4, gppSectionId: '8', gpc: true },
    });
    const jws = async ({ receiptId, cookie }: { receiptId: string; cookie: string }) =>
      (await app.inject({ url: `/consent/receipt/${receiptId}`, headers: { cookie } })).json().jws;
    expect((await verify(app, await jws(gpp))).receipt).toMatchObject({ gpp_section_ids: [8] });
    const tc = await recordUpdate(app, undefined, { consentString: 'CP', consentMetadata: { consentStringType: 2 } });
    expect((await verify(app, await jws(tc))).receipt).not.toHaveProperty('gpp_section_ids');
  });

  it('names the US opt-outs of consent.optOut, and none for a decision without them', async () => {
    const { app } = await buildApp();
    const optOut = await recordUpdate(app, undefined, {
      consentString: 'DBABBg~BUVVVUCA.YA',
      consentMetadata: { consentStringType: 4, gppSectionId: '9', usOptOuts: 'sale,sharing,targetedAdvertising' },
    });
    const jws = async ({ receiptId, cookie }: { receiptId: string; cookie: string }) =>
      (await app.inject({ url: `/consent/receipt/${receiptId}`, headers: { cookie } })).json().jws;
    expect((await verify(app, await jws(optOut))).receipt).toMatchObject({
      us_opt_outs: ['sale', 'sharing', 'targetedAdvertising'],
    });
    const plain = await recordUpdate(app, undefined, {
      consentString: 'CP',
      consentMetadata: { consentStringType: 2 },
    });
    expect((await verify(app, await jws(plain))).receipt).not.toHaveProperty('us_opt_outs');
  });

  it('fails verification of a receipt altered by one byte', async () => {
    const { app } = await buildApp();
    const { receiptId, cookie } = await recordUpdate(app);
    const { jws } = (await app.inject({ url: `/consent/receipt/${receiptId}`, headers: { cookie } })).json();
    const [header, payload, signature] = jws.split('.');
    const bytes = Buffer.from(payload, 'base64url');
    bytes[10] = bytes[10]! ^ 1;
    await expect(verify(app, `${header}.${bytes.toString('base64url')}.${signature}`)).rejects.toThrow();
  });

  it('answers 404 to another reader, to a wrong token and to an unknown id, and the receipt to the admin', async () => {
    const { app } = await buildApp();
    const { receiptId } = await recordUpdate(app);
    const other = await app.inject({
      url: `/consent/receipt/${receiptId}`,
      headers: { cookie: 'page_uid=zzzzzzzzzzzzzzzzzzzzzz' },
    });
    expect(other.statusCode).toBe(404);
    expect(other.json().error.code).toBe('receipt-not-found');
    expect((await app.inject({ url: `/consent/receipt/${receiptId}` })).statusCode).toBe(404);
    expect(
      (
        await app.inject({
          url: `/consent/receipt/${receiptId}`,
          headers: { authorization: 'Bearer wrong-token-000000000' },
        })
      ).statusCode,
    ).toBe(404);
    expect((await app.inject({ url: '/consent/receipt/rcpt_unknown', headers: bearer })).statusCode).toBe(404);
    const admin = await app.inject({ url: `/consent/receipt/${receiptId}`, headers: bearer });
    expect(admin.statusCode).toBe(200);
    expect((await verify(app, admin.json().jws)).receipt.receipt_id).toBe(receiptId);
  });

  it('signs with RECEIPT_SIGNING_KEY and publishes its public key', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const { app } = await buildApp({ receiptSigningKey: pem });
    const { receiptId, cookie } = await recordUpdate(app);
    const { jws } = (await app.inject({ url: `/consent/receipt/${receiptId}`, headers: { cookie } })).json();
    const { keys } = await keySetOf(app);
    expect(keys).toEqual([
      expect.objectContaining({
        kty: 'OKP',
        crv: 'Ed25519',
        x: privateKey.export({ format: 'jwk' }).x,
        kid: decodeProtectedHeader(jws).kid,
      }),
    ]);
    expect(JSON.stringify(keys)).not.toContain('"d"');
  });

  it('keeps a generated key across restarts (SQLite file reopened)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'page-receipts-'));
    dirs.push(dir);
    const first = await buildApp({ store: openSqliteStore(join(dir, 'page.db')) }, true);
    const { receiptId, cookie } = await recordUpdate(first.app);
    const before = await keySetOf(first.app);
    await first.close();
    const second = await buildApp({ store: openSqliteStore(join(dir, 'page.db')) }, true);
    expect(await keySetOf(second.app)).toEqual(before);
    expect(before.keys).toHaveLength(1);
    const { jws } = (await second.app.inject({ url: `/consent/receipt/${receiptId}`, headers: { cookie } })).json();
    await expect(verify(second.app, jws)).resolves.toBeTruthy();
    await second.close();
  });

  it('rotates to a new key and keeps the old one published, so old receipts still verify', async () => {
    const { app } = await buildApp();
    const old = await recordUpdate(app);
    const rotated = await app.inject({ method: 'POST', url: '/admin/receipt-keys', headers: bearer });
    expect(rotated.statusCode).toBe(201);
    const fresh = await recordUpdate(app, 'page_uid=bbbbbbbbbbbbbbbbbbbbbb');
    const jwsOf = async ({ receiptId, cookie }: { receiptId: string; cookie: string }) =>
      (await app.inject({ url: `/consent/receipt/${receiptId}`, headers: { cookie } })).json().jws;
    const [oldJws, freshJws] = [await jwsOf(old), await jwsOf(fresh)];
    expect(decodeProtectedHeader(freshJws).kid).toBe(rotated.json().kid);
    expect(decodeProtectedHeader(oldJws).kid).not.toBe(rotated.json().kid);
    expect((await keySetOf(app)).keys.map((key) => key.kid)).toEqual([
      rotated.json().kid,
      decodeProtectedHeader(oldJws).kid,
    ]);
    await expect(verify(app, oldJws)).resolves.toBeTruthy();
    await expect(verify(app, freshJws)).resolves.toBeTruthy();
    expect((await app.inject({ method: 'POST', url: '/admin/receipt-keys' })).statusCode).toBe(401);
  });

  it('retires the old key on rotation: private part deleted, published with its retirement time, refused after it by the documented verifier', async () => {
    const { app, store, now } = await buildApp();
    const verifyReceipt = documentedVerifier();
    const old = await recordUpdate(app);
    const [oldKey] = await store.listSigningKeys();
    const rotationTime = now.value;
    const rotated = (await app.inject({ method: 'POST', url: '/admin/receipt-keys', headers: bearer })).json().kid;
    const stored = await store.listSigningKeys();
    expect(stored.map((key) => [key.kid, key.privateJwk === null, key.retiredAt])).toEqual([
      [rotated, false, null],
      [oldKey!.kid, true, rotationTime + 2000],
    ]);
    const keys = await keySetOf(app);
    expect(keys.keys[1]).toMatchObject({ kid: oldKey!.kid, retired_at: new Date(rotationTime + 2000).toISOString() });
    expect(JSON.stringify(keys)).not.toContain('"d"');
    // A receipt of before the rotation verifies; one dated after the retirement, signed with the old private key, does not.
    const { jws } = (
      await app.inject({ url: `/consent/receipt/${old.receiptId}`, headers: { cookie: old.cookie } })
    ).json();
    expect((await verifyReceipt(jws, keys)).receipt_id).toBe(old.receiptId);
    const forge = async (time: number) =>
      new CompactSign(
        new TextEncoder().encode(
          JSON.stringify({ receipt_id: 'rcpt_late', receipt_timestamp: new Date(time).toISOString(), time }),
        ),
      )
        .setProtectedHeader({ alg: 'EdDSA', kid: oldKey!.kid, typ: 'page-consent-receipt+jwt' })
        .sign(await importJWK(oldKey!.privateJwk!, 'EdDSA'));
    expect((await verifyReceipt(await forge(rotationTime + 1999), keys)).receipt_id).toBe('rcpt_late');
    await expect(verifyReceipt(await forge(rotationTime + 2000), keys)).rejects.toThrow(
      /rcpt_late: dated .* after its key retired/,
    );
    const fresh = await recordUpdate(app, 'page_uid=bbbbbbbbbbbbbbbbbbbbbb');
    const freshJws = (
      await app.inject({ url: `/consent/receipt/${fresh.receiptId}`, headers: { cookie: fresh.cookie } })
    ).json().jws;
    expect(decodeProtectedHeader(freshJws).kid).toBe(rotated);
    expect((await verifyReceipt(freshJws, keys)).receipt_id).toBe(fresh.receiptId);
  });

  it.each([[null], [''], [false], [[]], ['1'], [1.5]])(
    'refuses with the documented verifier a receipt whose time is %j, not an integer',
    async (time) => {
      const { app, store, now } = await buildApp();
      await recordUpdate(app);
      const [oldKey] = await store.listSigningKeys();
      await app.inject({ method: 'POST', url: '/admin/receipt-keys', headers: bearer });
      const keys = await keySetOf(app);
      // Signed with the retired key after its retirement, with a time that `<` would take as 0 (or 1).
      const late = new Date(now.value + 60_000).toISOString();
      const jws = await new CompactSign(
        new TextEncoder().encode(JSON.stringify({ receipt_id: 'rcpt_odd', receipt_timestamp: late, time })),
      )
        .setProtectedHeader({ alg: 'EdDSA', kid: oldKey!.kid, typ: 'page-consent-receipt+jwt' })
        .sign(await importJWK(oldKey!.privateJwk!, 'EdDSA'));
      await expect(documentedVerifier()(jws, keys)).rejects.toThrow(
        `receipt rcpt_odd: expected time in ms (an integer), got ${JSON.stringify(time)}`,
      );
    },
  );

  it('stops signing with a key another process retired, within a second', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'page-receipts-'));
    dirs.push(dir);
    const first = await buildApp({ store: openSqliteStore(join(dir, 'page.db')) }, true);
    const second = await buildApp({ store: openSqliteStore(join(dir, 'page.db')) }, true);
    second.now.value = first.now.value;
    await recordUpdate(second.app);
    const rotated = (await first.app.inject({ method: 'POST', url: '/admin/receipt-keys', headers: bearer })).json()
      .kid;
    second.now.value += 1000;
    const late = await recordUpdate(second.app, 'page_uid=dddddddddddddddddddddd');
    const { jws } = (
      await second.app.inject({ url: `/consent/receipt/${late.receiptId}`, headers: { cookie: late.cookie } })
    ).json();
    expect(decodeProtectedHeader(jws).kid).toBe(rotated);
    await expect(documentedVerifier()(jws, await keySetOf(first.app))).resolves.toMatchObject({
      receipt_id: late.receiptId,
    });
    await first.close();
    await second.close();
  });

  it('with RECEIPT_SIGNING_KEY, rotation keeps the configured key and retires the others', async () => {
    const { app, store } = await buildApp();
    await recordUpdate(app);
    const [stored] = await store.listSigningKeys();
    const { privateKey } = generateKeyPairSync('ed25519');
    const configured = await buildApp({
      store,
      receiptSigningKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    });
    const kid = (await configured.app.inject({ method: 'POST', url: '/admin/receipt-keys', headers: bearer })).json()
      .kid;
    expect((await store.listSigningKeys()).map((key) => [key.kid, key.retiredAt === null])).toEqual([
      [kid, true],
      [stored!.kid, false],
    ]);
    expect((await store.listSigningKeys())[1]!.privateJwk).toBeNull();
  });

  it('writes nothing when the receipt cannot be signed', async () => {
    const { store } = await buildApp();
    const failing = {
      ...store,
      addSigningKey: async () => Promise.reject(new Error('disk full')),
      listSigningKeys: async () => [],
    };
    const broken = await buildApp({ store: failing });
    const response = await broken.app.inject({
      method: 'POST',
      url: '/consent/update',
      headers: { ...json, cookie: 'page_uid=cccccccccccccccccccccc' },
      payload: update(),
    });
    expect(response.statusCode).toBe(500);
    expect(await store.getHistory('site', 'cccccccccccccccccccccc')).toEqual([]);
  });
});
