/** Row <-> record conversion shared by the SQL adapters (column names are snake_case). */
import type { ConsentMetadata, ConsentStateValue, PurposeConsents } from '../../src/wire/consent.ts';
import type { AuditEntry, DecisionRecord, InstanceConfig, InstanceRecord } from './store.ts';
import { defaultInstanceConfig } from './store.ts';

/** SQLite hands JSON columns back as text, PostgreSQL (json, jsonb) as values; both become values here. */
type JsonColumn = string | object | null;

export type InstanceRow = {
  id: string;
  config: JsonColumn;
  policy_version: number | string;
  created_at: number | string;
  updated_at: number | string;
};

export type DecisionRow = {
  instance_id: string;
  user_id: string;
  page_user_id: string;
  state: string;
  consent_string: string | null;
  purpose_consents: JsonColumn;
  consent_metadata: JsonColumn;
  tcf_policy_version: number | string | null;
  policy_version: number | string;
  time: number | string;
};

export type AuditRow = DecisionRow & {
  id: number | string;
  origin: string | null;
  user_agent: string | null;
  ip_hash: string | null;
  /** SQLite: 0/1; PostgreSQL: boolean. */
  gpc: number | boolean;
  geo_group: string | null;
};

function fromJson<T>(column: JsonColumn): T | null {
  if (column === null) return null;
  return (typeof column === 'string' ? JSON.parse(column) : column) as T;
}

export function toJson(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

export function instanceFromRow(row: InstanceRow): InstanceRecord {
  return {
    id: row.id,
    config: { ...defaultInstanceConfig, ...fromJson<InstanceConfig>(row.config) },
    policyVersion: Number(row.policy_version),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function decisionFromRow(row: DecisionRow): DecisionRecord {
  return {
    instanceId: row.instance_id,
    userId: row.user_id,
    pageUserId: row.page_user_id,
    state: row.state as ConsentStateValue,
    consentString: row.consent_string,
    purposeConsents: fromJson<PurposeConsents>(row.purpose_consents),
    consentMetadata: fromJson<ConsentMetadata>(row.consent_metadata),
    tcfPolicyVersion: row.tcf_policy_version === null ? null : Number(row.tcf_policy_version),
    policyVersion: Number(row.policy_version),
    time: Number(row.time),
  };
}

export function auditFromRow(row: AuditRow): AuditEntry {
  return {
    id: Number(row.id),
    ...decisionFromRow(row),
    origin: row.origin,
    userAgent: row.user_agent,
    ipHash: row.ip_hash,
    gpc: row.gpc === true || row.gpc === 1,
    geoGroup: row.geo_group ?? null,
  };
}

/** Column values of an audit entry / decision in table order (after `id`). */
export function decisionValues(entry: DecisionRecord): unknown[] {
  return [
    entry.instanceId,
    entry.userId,
    entry.pageUserId,
    entry.state,
    entry.consentString,
    toJson(entry.purposeConsents),
    toJson(entry.consentMetadata),
    entry.tcfPolicyVersion,
    entry.policyVersion,
    entry.time,
  ];
}

export const decisionColumns =
  'instance_id, user_id, page_user_id, state, consent_string, purpose_consents, consent_metadata, tcf_policy_version, policy_version, time';

export const zeroCounts = (): Record<ConsentStateValue, number> => ({ accepted: 0, rejected: 0, unknown: 0 });
