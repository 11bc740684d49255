/**
 * Proof of consent (docs/server.md, "Proving consent"): receipts of stored updates, in the shape of ISO/IEC TS 27560
 * consent records (docs/decisions/server-receipts.md), signed with Ed25519 as a JWS compact
 * serialisation. The key comes from RECEIPT_SIGNING_KEY (PEM) or is generated once and kept in
 * the store; every key that ever signed stays published in the JWK set, a retired one with the
 * time it was retired (docs/server.md, "Key rotation"). Keys are handled by
 * `jose`; each receipt is signed synchronously by node:crypto (Ed25519 is deterministic, so the
 * JWS is the one `jose`'s CompactSign would make, without its promise and WebCrypto round trip
 * on every update: docs/decisions/server-throughput.md).
 */
import { KeyObject, randomUUID, sign as signBytes } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, importPKCS8, type JWK } from 'jose';
import { gppSectionIds } from '../src/wire/gpp-sections.ts';
import { listOptOuts } from '../src/wire/us-opt-outs.ts';
import { timePrefix } from './ordered-id.ts';
import type { ConsentStore, NewAuditEntry, SigningKeyRecord } from './store/store.ts';

export const RECEIPT_ALGORITHM = 'EdDSA';
export const RECEIPT_TYPE = 'page-consent-receipt+jwt';

type SigningKey = { readonly kid: string; readonly key: CryptoKey | Uint8Array };

/** A loaded key, ready to sign: its protected header already encoded. */
type ReadyKey = { readonly kid: string; readonly key: KeyObject; readonly header: string };

function ready({ kid, key }: SigningKey): ReadyKey {
  if (key instanceof Uint8Array) throw new Error('receipt signing key: expected an Ed25519 key, got a symmetric one');
  const header = Buffer.from(JSON.stringify({ alg: RECEIPT_ALGORITHM, kid, typ: RECEIPT_TYPE })).toString('base64url');
  return { kid, key: KeyObject.from(key), header };
}

/** JWS compact serialisation of `payload` with an EdDSA (Ed25519) key. */
function signCompact({ key, header }: ReadyKey, payload: object): string {
  const input = `${header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${input}.${signBytes(null, Buffer.from(input), key).toString('base64url')}`;
}

export type ReceiptSigner = {
  /** Signs a receipt payload with the current key; resolves with the JWS. */
  sign(payload: object): Promise<string>;
  /** The public keys, newest first, a retired one with `retired_at` (`/.well-known/page-consent-keys.json`). */
  keySet(): Promise<{ keys: (JWK & { retired_at?: string })[] }>;
  /**
   * Retires every other key. Without RECEIPT_SIGNING_KEY a new generated key, kept in the
   * store, signs from now on; with it, the configured key stays the one that signs.
   */
  rotate(): Promise<string>;
};

/**
 * How often a process re-reads the keys before signing, so that it stops using a key another
 * process retired; a retirement takes effect twice this long after the rotation, so no
 * process signs with a key after its published retirement time.
 */
export const keyCheckMs = 1000;

const publicPart = ({ kty, crv, x }: JWK): Record<string, string> => ({ kty: kty!, crv: crv!, x: x! });

/** A key of the published set: a retired one says since when (ISO 8601, like `receipt_timestamp`). */
const publishedKey = ({ publicJwk, retiredAt }: SigningKeyRecord): JWK & { retired_at?: string } =>
  retiredAt === null ? { ...publicJwk } : { ...publicJwk, retired_at: new Date(retiredAt).toISOString() };

async function recordOf(privateJwk: JWK, isKept: boolean, now: number): Promise<SigningKeyRecord> {
  const publicJwk = publicPart(privateJwk);
  const kid = await calculateJwkThumbprint(publicJwk);
  const { d } = privateJwk;
  return {
    kid,
    publicJwk: { ...publicJwk, kid, alg: RECEIPT_ALGORITHM, use: 'sig' },
    privateJwk: isKept ? { ...publicJwk, d: d! } : null,
    createdAt: now,
    retiredAt: null,
  };
}

async function generatedKey(now: number): Promise<SigningKeyRecord> {
  const { privateKey } = await generateKeyPair('Ed25519', { extractable: true });
  return recordOf(await exportJWK(privateKey), true, now);
}

/** The key that signs: the configured PEM, else the newest key kept in the store, else a new one kept there. */
async function loadKey(store: ConsentStore, pem: string | null, now: () => number): Promise<SigningKey> {
  if (pem) {
    const key = await importPKCS8(pem, 'Ed25519', { extractable: true });
    const record = await recordOf(await exportJWK(key), false, now());
    await store.addSigningKey(record);
    if (((await store.listSigningKeys()).find((kept) => kept.kid === record.kid)?.retiredAt ?? null) !== null) {
      throw new Error(
        `receipt signing key ${record.kid}: expected a key that is not retired, got a retired one (RECEIPT_SIGNING_KEY)`,
      );
    }
    return { kid: record.kid, key };
  }
  let kept = (await store.listSigningKeys()).find((record) => record.privateJwk);
  if (!kept) {
    await store.addSigningKey(await generatedKey(now()));
    kept = (await store.listSigningKeys()).find((record) => record.privateJwk)!;
  }
  return { kid: kept.kid, key: await importJWK(kept.privateJwk!, RECEIPT_ALGORITHM) };
}

export function createReceiptSigner(store: ConsentStore, pem: string | null, now: () => number): ReceiptSigner {
  let current: Promise<ReadyKey> | null = null;
  /** Set once `current` has resolved, so signing needs no await. */
  let loaded: ReadyKey | null = null;
  let checkedAt = now();
  // A failed load (store down) is retried by the next caller.
  const signingKey = () =>
    (current ??= loadKey(store, pem, now).then(
      (key) => (loaded = ready(key)),
      (error: unknown) => {
        current = null;
        throw error;
      },
    ));
  /** Drops the loaded key when another process retired it (checked once per keyCheckMs). */
  const checkRetired = async () => {
    if (loaded === null || now() - checkedAt < keyCheckMs) return;
    checkedAt = now();
    const { kid } = loaded;
    const retiredAt = (await store.listSigningKeys()).find((record) => record.kid === kid)?.retiredAt ?? null;
    if (retiredAt !== null && loaded?.kid === kid) {
      current = null;
      loaded = null;
    }
  };
  return {
    async sign(payload) {
      await checkRetired();
      return signCompact(loaded ?? (await signingKey()), payload);
    },
    async keySet() {
      await signingKey();
      return { keys: (await store.listSigningKeys()).map(publishedKey) };
    },
    async rotate() {
      const kept = pem ? null : await generatedKey(now());
      if (kept) await store.addSigningKey(kept);
      const kid = kept?.kid ?? (await signingKey()).kid;
      await store.retireSigningKeys(kid, now() + 2 * keyCheckMs);
      const next = kept
        ? ready({ kid, key: await importJWK(kept.privateJwk!, RECEIPT_ALGORITHM) })
        : await signingKey();
      current = Promise.resolve(next);
      loaded = next;
      return kid;
    },
  };
}

/**
 * A new receipt id: not guessable, so knowing one proves nothing, and a URL-safe token: `rcpt_`,
 * the time prefix (ordered-id.ts), then a random UUID's 32 hex digits.
 */
export const newReceiptId = () => `rcpt_${timePrefix()}${randomUUID().replaceAll('-', '')}`;

/**
 * The receipt of one update. Names follow ISO/IEC TS 27560 (as profiled by the W3C DPVCG) where
 * one exists; the consent-specific fields are ours (docs/decisions/server-receipts.md).
 */
export function buildReceipt(id: string, entry: NewAuditEntry, geoGroup: string | null) {
  const {
    instanceId,
    pageUserId,
    state,
    purposeConsents,
    consentString,
    consentMetadata,
    policyVersion,
    time,
    origin,
  } = entry;
  // A GPP string (type 4) names its sections: the receipt says which (`[8]`: usca), as the page sent them.
  const gppSections = consentMetadata?.consentStringType === 4 ? gppSectionIds(consentMetadata.gppSectionId) : [];
  return {
    schema_version: 'page-consent-receipt/1 (ISO/IEC TS 27560:2023)',
    receipt_id: id,
    receipt_timestamp: new Date(time).toISOString(),
    pii_principal_id: pageUserId,
    notice_id: `${instanceId}@${policyVersion}`,
    event: { event_time: new Date(time).toISOString(), event_type: 'consent-update', event_state: state },
    instance: instanceId,
    state,
    purpose_consents: purposeConsents,
    consent_string: consentString,
    // Google's Additional Consent string beside the TC string (docs/decisions/additional-consent.md).
    additional_consent: consentMetadata?.additionalConsent ?? null,
    ...(gppSections.length && { gpp_section_ids: gppSections }),
    // The US opt-outs the reader named with `consent.optOut` (docs/us-privacy.md).
    ...(consentMetadata?.usOptOuts !== undefined && { us_opt_outs: listOptOuts(consentMetadata.usOptOuts) }),
    policy_version: policyVersion,
    geo_group: geoGroup,
    origin,
    time,
  };
}
