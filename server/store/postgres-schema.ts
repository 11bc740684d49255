/** PostgreSQL migrations, applied in order on start under an advisory lock (safe with many processes). */
import { receiptTables } from './receipt-rows.ts';

export const postgresMigrations: readonly string[] = [
  `CREATE TABLE instances (
     id TEXT PRIMARY KEY,
     config JSONB NOT NULL, -- json since migration 6
     policy_version INTEGER NOT NULL DEFAULT 1,
     created_at BIGINT NOT NULL,
     updated_at BIGINT NOT NULL
   );
   CREATE TABLE decisions (
     instance_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     page_user_id TEXT NOT NULL,
     state TEXT NOT NULL,
     consent_string TEXT,
     purpose_consents JSONB,
     consent_metadata JSONB,
     tcf_policy_version INTEGER,
     policy_version INTEGER NOT NULL,
     time BIGINT NOT NULL,
     PRIMARY KEY (instance_id, user_id)
   );
   CREATE TABLE audit_log (
     id BIGSERIAL PRIMARY KEY,
     instance_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     page_user_id TEXT NOT NULL,
     state TEXT NOT NULL,
     consent_string TEXT,
     purpose_consents JSONB,
     consent_metadata JSONB,
     tcf_policy_version INTEGER,
     policy_version INTEGER NOT NULL,
     time BIGINT NOT NULL,
     origin TEXT,
     user_agent TEXT,
     ip_hash TEXT
   );
   CREATE INDEX audit_log_user ON audit_log (instance_id, user_id);
   CREATE INDEX audit_log_page_user ON audit_log (instance_id, page_user_id);
   CREATE INDEX audit_log_time ON audit_log (instance_id, time);
   CREATE FUNCTION audit_log_refuse_update() RETURNS trigger LANGUAGE plpgsql AS
     $$ BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$;
   CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log
     FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_update();
   CREATE TABLE prompt_outcomes (
     instance_id TEXT NOT NULL,
     day TEXT NOT NULL,
     action TEXT NOT NULL,
     count BIGINT NOT NULL,
     PRIMARY KEY (instance_id, day, action)
   );
   CREATE TABLE ads_configs (
     client TEXT PRIMARY KEY,
     document JSONB NOT NULL,
     updated_at BIGINT NOT NULL
   );
   CREATE TABLE settings (
     key TEXT PRIMARY KEY,
     value TEXT NOT NULL
   );`,
  // Instances created on first use count toward MAX_AUTO_INSTANCES until an admin configures them.
  `ALTER TABLE instances ADD COLUMN auto_created BOOLEAN NOT NULL DEFAULT false;
   CREATE INDEX instances_auto_created ON instances (auto_created);`,
  // Signed receipts of updates and their signing keys (docs/server.md, "Proving consent").
  receiptTables('BIGINT'),
  // Which audited updates said the browser sent Global Privacy Control (docs/consent.md, "Global Privacy Control").
  'ALTER TABLE audit_log ADD COLUMN gpc BOOLEAN NOT NULL DEFAULT false;',
  // Every change of an instance, by any process or by hand, tells the listening processes to
  // drop their cached copy (instance-cache.ts); delivered when the changing transaction commits.
  `CREATE FUNCTION instances_notify_change() RETURNS trigger LANGUAGE plpgsql AS
     $$ BEGIN PERFORM pg_notify('page_instance_changed', NEW.id); RETURN NULL; END $$;
   CREATE TRIGGER instances_notify_change AFTER INSERT OR UPDATE ON instances
     FOR EACH ROW EXECUTE FUNCTION instances_notify_change();`,
  // Configs keep their text, so their key order: jsonb sorts keys, and the first group of
  // geoGroups holding a country wins (docs/decisions/server-config-key-order.md). Rows written
  // before this step keep the order jsonb gave them.
  'ALTER TABLE instances ALTER COLUMN config TYPE json USING config::json;',
  // When a rotation retired a receipt signing key (its private part is deleted then).
  'ALTER TABLE receipt_keys ADD COLUMN retired_at BIGINT;',
  // Every change of a decision (an update, an erasure, by any process or by hand) tells the
  // listening processes to drop their cached copy (decision-cache.ts).
  `CREATE FUNCTION decisions_notify_change() RETURNS trigger LANGUAGE plpgsql AS
     $$ DECLARE changed decisions%ROWTYPE;
     BEGIN
       IF TG_OP = 'DELETE' THEN changed := OLD; ELSE changed := NEW; END IF;
       PERFORM pg_notify('page_decision_changed', json_build_array(changed.instance_id, changed.user_id)::text);
       RETURN NULL;
     END $$;
   CREATE TRIGGER decisions_notify_change AFTER INSERT OR UPDATE OR DELETE ON decisions
     FOR EACH ROW EXECUTE FUNCTION decisions_notify_change();`,
  // Auto-ads experiments: each arm's totals over the page views it reported (docs/server.md, "Ads experiments").
  `CREATE TABLE ads_experiment_arms (
     client TEXT NOT NULL,
     experiment TEXT NOT NULL,
     arm TEXT NOT NULL,
     page_views BIGINT NOT NULL,
     ads_placed BIGINT NOT NULL,
     viewable BIGINT NOT NULL,
     viewable_squares BIGINT NOT NULL,
     layout_shift DOUBLE PRECISION NOT NULL,
     PRIMARY KEY (client, experiment, arm)
   );`,
  // The geo group each logged decision was matched to (the receipt's geo_group), for the stats
  // per group (docs/server.md, "Admin API"); null in the rows logged before this step.
  'ALTER TABLE audit_log ADD COLUMN geo_group TEXT;',
];

/** The NOTIFY channel of instance changes; the payload is the instance id. */
export const instanceChangeChannel = 'page_instance_changed';

/** The NOTIFY channel of decision changes; the payload is `["instance id", "user id"]`. */
export const decisionChangeChannel = 'page_decision_changed';

/** The decision a notification names; null (forget every decision) for a payload that names none. */
export function decisionKeyOf(payload: string): { instanceId: string; userId: string } | null {
  try {
    const value: unknown = JSON.parse(payload);
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return { instanceId: value[0], userId: value[1] };
    }
  } catch {}
  return null;
}

/** Arbitrary constant identifying this application's migration lock. */
export const migrationLockKey = 7_402_115;

/** Serialises the count-then-insert of instances created on first use (MAX_AUTO_INSTANCES). */
export const autoInstanceLockKey = 7_402_116;
