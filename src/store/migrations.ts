/**
 * Versioned schema, shared by every engine: the SQL below is written to mean the same in
 * SQLite and PostgreSQL (BIGINT for epoch milliseconds, INTEGER 0/1 for flags).
 * Append new versions; never edit a released one.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'keys, counters, settings, datasets',
    sql: `
CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  key_hash TEXT NOT NULL UNIQUE,
  key_prefix TEXT NOT NULL,
  tier TEXT NOT NULL,
  basis TEXT NOT NULL,
  cap BIGINT NOT NULL,
  lifetime_period TEXT,
  email_hash TEXT,
  network TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  alert_born INTEGER NOT NULL DEFAULT 0,
  first_served_at BIGINT,
  paid_micros BIGINT NOT NULL DEFAULT 0,
  fallback_tier TEXT,
  subscription_id TEXT,
  revoked_at BIGINT,
  plan_rev INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX api_keys_network_created ON api_keys (network, created_at);
CREATE INDEX api_keys_email ON api_keys (email_hash);
CREATE INDEX api_keys_created ON api_keys (created_at);
CREATE TABLE counters (
  scope TEXT NOT NULL,
  subject TEXT NOT NULL,
  period TEXT NOT NULL,
  used BIGINT NOT NULL,
  PRIMARY KEY (scope, subject, period)
);
CREATE TABLE settings (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE datasets (
  kind TEXT PRIMARY KEY,
  source TEXT NOT NULL,
  as_of TEXT NOT NULL,
  imported_at BIGINT NOT NULL,
  record_count INTEGER NOT NULL,
  records TEXT NOT NULL
);`,
  },
  {
    version: 2,
    name: 'card checkouts',
    sql: `
CREATE TABLE card_checkouts (
  session_id TEXT PRIMARY KEY,
  product TEXT NOT NULL,
  key_id TEXT,
  new_key INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  completed_at BIGINT
);`,
  },
  {
    version: 3,
    name: 'mailbox verification',
    sql: `
CREATE TABLE verification_challenges (
  purpose TEXT NOT NULL,
  subject TEXT NOT NULL,
  email_hash TEXT NOT NULL,
  code_hash TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  PRIMARY KEY (purpose, subject)
);
CREATE TABLE email_bindings (
  email_hash TEXT NOT NULL,
  key_id TEXT NOT NULL,
  bound_at BIGINT NOT NULL,
  PRIMARY KEY (email_hash, key_id)
);`,
  },
  {
    version: 4,
    name: 'x402 payments',
    sql: `
CREATE TABLE payments (
  id TEXT PRIMARY KEY,
  network TEXT NOT NULL,
  asset TEXT NOT NULL,
  payer TEXT NOT NULL,
  pay_to TEXT NOT NULL,
  amount_micros BIGINT NOT NULL,
  tx_hash TEXT NOT NULL,
  resource_url TEXT NOT NULL,
  key_id TEXT,
  settled_at BIGINT NOT NULL
);
CREATE INDEX payments_key ON payments (key_id);`,
  },
];
