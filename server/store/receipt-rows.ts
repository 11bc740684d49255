/** Row <-> record conversion of receipts and signing keys, shared by the SQL adapters. */
import type { ReceiptRecord, SigningKeyRecord } from './store.ts';

export type ReceiptRow = {
  id: string;
  audit_id: number | string;
  instance_id: string;
  user_id: string;
  time: number | string;
  jws: string;
};

export type SigningKeyRow = {
  kid: string;
  public_jwk: string | object;
  private_jwk: string | object | null;
  created_at: number | string;
  retired_at: number | string | null;
};

const parsed = (column: string | object) =>
  (typeof column === 'string' ? JSON.parse(column) : column) as Record<string, string>;

export const receiptFromRow = (row: ReceiptRow): ReceiptRecord => ({
  id: row.id,
  auditId: Number(row.audit_id),
  instanceId: row.instance_id,
  userId: row.user_id,
  time: Number(row.time),
  jws: row.jws,
});

export const signingKeyFromRow = (row: SigningKeyRow): SigningKeyRecord => ({
  kid: row.kid,
  publicJwk: parsed(row.public_jwk),
  privateJwk: row.private_jwk === null ? null : parsed(row.private_jwk),
  createdAt: Number(row.created_at),
  retiredAt: row.retired_at === null ? null : Number(row.retired_at),
});

/** Retiring a key deletes its private part and records when (docs/server.md, "Key rotation"). */
export const retireKeysSql = (keep: string, at: string) =>
  `UPDATE receipt_keys SET private_jwk = NULL, retired_at = ${at} WHERE kid <> ${keep} AND retired_at IS NULL`;

/** The receipt tables (both SQL dialects accept this text with their own integer type). */
export const receiptTables = (integer: 'INTEGER' | 'BIGINT') =>
  `CREATE TABLE receipts (
     id TEXT PRIMARY KEY,
     audit_id ${integer} NOT NULL UNIQUE,
     instance_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     time ${integer} NOT NULL,
     jws TEXT NOT NULL
   );
   CREATE INDEX receipts_user ON receipts (instance_id, user_id);
   CREATE TABLE receipt_keys (
     kid TEXT PRIMARY KEY,
     public_jwk TEXT NOT NULL,
     private_jwk TEXT,
     created_at ${integer} NOT NULL
   );`;
