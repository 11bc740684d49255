/** Receipts are signed by node:crypto; the JWS must be the one jose's CompactSign makes with the same key. */
import { generateKeyPairSync } from 'node:crypto';
import { CompactSign, compactVerify, importPKCS8, importSPKI } from 'jose';
import { describe, expect, it } from 'vitest';
import { createReceiptSigner, RECEIPT_ALGORITHM, RECEIPT_TYPE } from '../../server/receipts.ts';
import { createMemoryStore } from '../../server/store/memory-store.ts';

describe('receipt signing', () => {
  it('makes the same JWS as jose CompactSign, verifiable with the public key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const store = createMemoryStore();
    const signer = createReceiptSigner(store, pem, () => 1);
    const payload = { receipt_id: 'rcpt_1', state: 'accepted', purpose_consents: { ads: true }, note: 'é ✓' };
    const jws = await signer.sign(payload);
    const [kid] = (await signer.keySet()).keys.map((key) => key.kid);
    const expected = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: RECEIPT_ALGORITHM, kid: kid!, typ: RECEIPT_TYPE })
      .sign(await importPKCS8(pem, 'Ed25519'));
    expect(jws).toBe(expected);
    const spki = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const verified = await compactVerify(jws, await importSPKI(spki, 'Ed25519'));
    expect(JSON.parse(new TextDecoder().decode(verified.payload))).toEqual(payload);
  });

  it('signs with a rotated key from then on', async () => {
    const signer = createReceiptSigner(createMemoryStore(), null, () => 1);
    const before = await signer.sign({ n: 1 });
    const kid = await signer.rotate();
    const after = await signer.sign({ n: 2 });
    const header = (jws: string) => JSON.parse(Buffer.from(jws.split('.')[0]!, 'base64url').toString());
    expect(header(before).kid).not.toBe(kid);
    expect(header(after)).toEqual({ alg: 'EdDSA', kid, typ: RECEIPT_TYPE });
  });
});
