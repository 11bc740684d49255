/**
 * A consent receipt verified here with the published public keys only (WebCrypto Ed25519), as
 * any auditor would: a key retired before the receipt's time proves nothing (docs/server.md,
 * "Key rotation"), and a time that is not an integer would compare as 0.
 */
type PublicKey = {
  readonly kid: string;
  readonly kty: string;
  readonly crv: string;
  readonly x: string;
  readonly retired_at?: string;
};
export type Receipt = { readonly time?: unknown } & Readonly<Record<string, unknown>>;

const fromBase64Url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

export async function verifyReceipt(jws: string): Promise<{ isValid: boolean; kid: string; receipt?: Receipt }> {
  const [header, payload, signature] = jws.split('.') as [string, string, string];
  const { kid, alg } = JSON.parse(new TextDecoder().decode(fromBase64Url(header))) as { kid: string; alg: string };
  const { keys } = (await (await fetch('/.well-known/page-consent-keys.json')).json()) as { keys: PublicKey[] };
  const jwk = keys.find((key) => key.kid === kid);
  if (alg !== 'EdDSA' || !jwk) return { isValid: false, kid };
  const key = await crypto.subtle.importKey(
    'jwk',
    { kty: jwk.kty, crv: jwk.crv, x: jwk.x },
    { name: 'Ed25519' },
    false,
    ['verify'],
  );
  const data = new TextEncoder().encode(header + '.' + payload);
  const receipt = JSON.parse(new TextDecoder().decode(fromBase64Url(payload))) as Receipt;
  const isInTime =
    Number.isInteger(receipt.time) &&
    (jwk.retired_at === undefined || (receipt.time as number) < Date.parse(jwk.retired_at));
  const isValid = isInTime && (await crypto.subtle.verify({ name: 'Ed25519' }, key, fromBase64Url(signature), data));
  return { isValid, kid, receipt };
}
