/** SQLite migrations, applied in order on open; `schema_migrations` remembers the last one. */
import { receiptTables } from './receipt-rows.ts';

export const sqliteMigrations: readonly string[] = [
  `CREATE TABLE instances (
     id TEXT PRIMARY KEY,
     config TEXT NOT NULL,
     policy_version INTEGER NOT NULL DEFAULT 1,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE TABLE decisions (
     instance_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     page_user_id TEXT NOT NULL,
     state TEXT NOT NULL,
     consent_string TEXT,
     purpose_consents TEXT,
     consent_metadata TEXT,
     tcf_policy_version INTEGER,
     policy_version INTEGER NOT NULL,
     time INTEGER NOT NULL,
     PRIMARY KEY (instance_id, user_id)
   );
   CREATE TABLE audit_log (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     instance_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     page_user_id TEXT NOT NULL,
     state TEXT NOT NULL,
     consent_string TEXT,
     purpose_consents TEXT,
     consent_metadata TEXT,
     tcf_policy_version INTEGER,
     policy_version INTEGER NOT NULL,
     time INTEGER NOT NULL,
     origin TEXT,
     user_agent TEXT,
     ip_hash TEXT
   );
   CREATE INDEX audit_log_user ON audit_log (instance_id, user_id);
   CREATE INDEX audit_log_page_user ON audit_log (instance_id, page_user_id);
   CREATE INDEX audit_log_time ON audit_log (instance_id, time);
   CREATE TRIGGER audit_log_append_only BEFORE UPDATE ON audit_log
   BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
   CREATE TABLE prompt_outcomes (
     instance_id TEXT NOT NULL,
     day TEXT NOT NULL,
     action TEXT NOT NULL,
     count INTEGER NOT NULL,
     PRIMARY KEY (instance_id, day, action)
   );
   CREATE TABLE ads_configs (
     client TEXT PRIMARY KEY,
     document TEXT NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE TABLE settings (
     key TEXT PRIMARY KEY,
     value TEXT NOT NULL
   );`,
  // Instances created on first use count toward MAX_AUTO_INSTANCES until an admin configures them.
  `ALTER TABLE instances ADD COLUMN auto_created INTEGER NOT NULL DEFAULT 0;
   CREATE INDEX instances_auto_created ON instances (auto_created);`,
  // Signed receipts of updates and their signing keys (docs/server.md, "Proving consent").
  receiptTables('INTEGER'),
  // Which audited updates said the browser sent Global Privacy Control (docs/consent.md, "Global Privacy Control").
  'ALTER TABLE audit_log ADD COLUMN gpc INTEGER NOT NULL DEFAULT 0;',
  // When a rotation retired a receipt signing key (its private part is deleted then).
  'ALTER TABLE receipt_keys ADD COLUMN retired_at INTEGER;',
  // Auto-ads experiments: each arm's totals over the page views it reported (docs/server.md, "Ads experiments").
  `CREATE TABLE ads_experiment_arms (
     client TEXT NOT NULL,
     experiment TEXT NOT NULL,
     arm TEXT NOT NULL,
     page_views INTEGER NOT NULL,
     ads_placed INTEGER NOT NULL,
     viewable INTEGER NOT NULL,
     viewable_squares INTEGER NOT NULL,
     layout_shift REAL NOT NULL,
     PRIMARY KEY (client, experiment, arm)
   );`,
  // The geo group each logged decision was matched to (the receipt's geo_group), for the stats
  // per group (docs/server.md, "Admin API"); null in the rows logged before this step.
  'ALTER TABLE audit_log ADD COLUMN geo_group TEXT;',
];
