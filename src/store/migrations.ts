/**
 * Versioned schema, shared by every engine: the SQL below is written to mean the same in
 * SQLite and PostgreSQL (BIGINT for epoch milliseconds, INTEGER 0/1 for flags), except where a
 * version gives each engine its own (a table laid out for how that engine looks it up).
 * Append new versions; never edit a released one.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string | { sqlite: string; postgres: string };
}

/** The SQL `engine` runs for `migration` (empty when that engine has nothing to change). */
export function migrationSql(migration: Migration, engine: 'sqlite' | 'postgres'): string {
  return typeof migration.sql === 'string' ? migration.sql : migration.sql[engine];
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
  {
    version: 5,
    name: 'exact fallback plan of a Pro key',
    // Keys already Pro get the plan their tier gave before this version (all monthly).
    sql: `
ALTER TABLE api_keys ADD COLUMN fallback_basis TEXT;
ALTER TABLE api_keys ADD COLUMN fallback_cap BIGINT;
ALTER TABLE api_keys ADD COLUMN fallback_lifetime_period TEXT;
UPDATE api_keys SET fallback_basis = 'monthly', fallback_cap = CASE WHEN fallback_tier = 'anonymous' THEN 25 ELSE 200 END
  WHERE fallback_tier IS NOT NULL;`,
  },
  {
    version: 6,
    name: 'creation alert identity and per-second creation counts',
    // The alert gets an identity (its start time) and each key born in it records that identity,
    // so a later, unrelated alert does not reduce it again. Creations are counted per second so
    // the window is the last 10 minutes to the second, whatever the minute boundaries. A legacy alert in progress keeps going as the
    // alert started at 0, and keys born in alerts before this version belong to it.
    sql: `
ALTER TABLE api_keys ADD COLUMN alert_id BIGINT;
UPDATE api_keys SET alert_id = 0 WHERE alert_born = 1;
CREATE TABLE creation_alert (
  id INTEGER PRIMARY KEY,
  started_at BIGINT NOT NULL,
  ends_at BIGINT NOT NULL
);
INSERT INTO creation_alert (id, started_at, ends_at)
  SELECT 1, 0, CAST(value AS BIGINT) FROM settings WHERE name = 'alert_until';
CREATE TABLE anonymous_creations (
  second BIGINT PRIMARY KEY,
  created BIGINT NOT NULL
);`,
  },
  {
    version: 7,
    name: 'card-rail steps done once, in their own table',
    // Stripe events, fulfilled checkouts and revealed keys were counters with period 'once';
    // they move here with their marks, and the counters keep only quota and limits.
    sql: `
CREATE TABLE card_steps_done (
  step TEXT NOT NULL,
  id TEXT NOT NULL,
  done_at BIGINT NOT NULL,
  PRIMARY KEY (step, id)
);
INSERT INTO card_steps_done (step, id, done_at)
  SELECT scope, subject, 0 FROM counters WHERE period = 'once' AND used > 0;
DELETE FROM counters WHERE period = 'once';`,
  },
  {
    version: 9,
    name: 'calls per key and UTC day, for the usage chart',
    sql: `
CREATE TABLE daily_usage (
  key_id TEXT NOT NULL,
  day TEXT NOT NULL,
  used BIGINT NOT NULL,
  PRIMARY KEY (key_id, day)
);`,
  },
  {
    version: 11,
    name: "what a dataset's date rests on, as a column of its own",
    // Until now a download-dated dataset carried its caveat at the end of its source name; it
    // moves into as_of_basis and the name is left plain.
    sql: `
ALTER TABLE datasets ADD COLUMN as_of_basis TEXT;
UPDATE datasets SET as_of_basis = 'last_modified',
  source = REPLACE(source, ' [as_of is the download''s Last-Modified date; the file states no date]', '')
  WHERE source LIKE '% [as_of is the download''s Last-Modified date; the file states no date]';
UPDATE datasets SET as_of_basis = 'download_time',
  source = REPLACE(source, ' [as_of is the day of download; neither the file nor the server states a date]', '')
  WHERE source LIKE '% [as_of is the day of download; neither the file nor the server states a date]';`,
  },
  {
    version: 13,
    name: 'proof of an address',
    // A binding made with a mailed code is proved. Before this version only a claim by code
    // proved an address for sure; keys given an address by generate count as unproved, which
    // only lets the address's real owner take it back by proving it.
    sql: `
ALTER TABLE email_bindings ADD COLUMN proved INTEGER NOT NULL DEFAULT 0;
UPDATE email_bindings SET proved = 1 WHERE key_id IN (SELECT id FROM api_keys WHERE tier = 'claimed');
CREATE INDEX email_bindings_key ON email_bindings (key_id);`,
  },
  {
    version: 18,
    name: 'answers kept for safe retries (Idempotency-Key)',
    // One row per key presented in a scope (an API key's id or a network): a reservation while
    // the first request is being answered (status NULL), then its 2xx answer until expires_at.
    sql: `
CREATE TABLE idempotency_keys (
  scope TEXT NOT NULL,
  idem_key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  token TEXT NOT NULL,
  status INTEGER,
  content_type TEXT,
  body TEXT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL,
  PRIMARY KEY (scope, idem_key)
);
CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at);`,
  },
  {
    version: 19,
    name: 'Idempotency-Keys kept only as keyed hashes',
    // From here idem_key holds the keyed hash of the Idempotency-Key, and an answer over 64 KiB
    // is not kept (body NULL with a status). Entries written before held the key itself (an API
    // key sent as one among them) and answers of any size: they are dropped. A retry within the
    // next 24 hours of a call made before the upgrade is judged afresh.
    sql: `DELETE FROM idempotency_keys;`,
  },
  {
    version: 20,
    name: 'the charge period on the key row; a taken-over Idempotency-Key entry marked',
    // charge_period: records.ts's chargePeriodOf, written with every plan by PostgreSQL's store,
    // which fills the rows without one when it opens (its one-statement lookup and charge reads
    // it; a row without one is charged as before).
    // resumed: 1 on an entry whose reservation took over the same request's unanswered one, so
    // that the reservation sent again across a lost connection still reads as resumed.
    // Both PostgreSQL only: SQLite leaves them empty.
    sql: `ALTER TABLE api_keys ADD COLUMN charge_period TEXT;
ALTER TABLE idempotency_keys ADD COLUMN resumed INTEGER NOT NULL DEFAULT 0;`,
  },
  {
    version: 21,
    name: 'SQLite: Idempotency-Key entries in the order they were written',
    // SQLite looks an entry up through an index it keeps in memory (the file serves one process,
    // store/sqlite/idempotency.ts), so its table drops the primary key on (scope, idem_key):
    // every key is a random hash, and inserting it into that index dirtied a page of its own in
    // each commit, most of what a first request with an Idempotency-Key cost. Rows are now
    // appended (seq), a few to a page. PostgreSQL, shared by several processes, keeps its table.
    // `resumed` (version 20, PostgreSQL only) is not carried over: SQLite never wrote it.
    sql: {
      sqlite: `
ALTER TABLE idempotency_keys RENAME TO idempotency_keys_v20;
CREATE TABLE idempotency_keys (
  seq INTEGER PRIMARY KEY,
  scope TEXT NOT NULL,
  idem_key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  token TEXT NOT NULL,
  status INTEGER,
  content_type TEXT,
  body TEXT,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
INSERT INTO idempotency_keys (scope, idem_key, fingerprint, token, status, content_type, body, created_at, expires_at)
  SELECT scope, idem_key, fingerprint, token, status, content_type, body, created_at, expires_at
  FROM idempotency_keys_v20 ORDER BY created_at;
DROP TABLE idempotency_keys_v20;
CREATE INDEX idempotency_keys_expires ON idempotency_keys (expires_at);`,
      postgres: '',
    },
  },
  {
    version: 22,
    name: 'PostgreSQL: keys without a charge period found by an index',
    // Every start looks for key rows without a charge period (postgres/keys.ts,
    // fillChargePeriods): rows written before version 20, or copied from SQLite by
    // `mod97 migrate-to`. After the first start there are none, so a partial index holds only
    // those, and the look costs nothing however many keys there are, where it read the whole
    // table. SQLite never reads the column.
    sql: {
      sqlite: '',
      postgres: 'CREATE INDEX api_keys_charge_period_missing ON api_keys (id) WHERE charge_period IS NULL;',
    },
  },
  {
    version: 23,
    name: 'one Pro checkout per key; every Pro subscription of a key',
    // card_pro_checkouts: the one Pro checkout a key may have open, from before Stripe is asked
    // for it until it completes or its session expires (expires_at).
    // card_subscriptions: each Pro subscription bought for a key, so that the end of one leaves
    // Pro on another that still runs, and cancelling stops them all. The subscription each key
    // holds now is carried over; one bought before and not held is added by its next event.
    sql: `
CREATE TABLE card_pro_checkouts (
  key_id TEXT PRIMARY KEY,
  token TEXT NOT NULL,
  session_id TEXT,
  checkout_url TEXT,
  expires_at BIGINT NOT NULL
);
CREATE TABLE card_subscriptions (
  subscription_id TEXT PRIMARY KEY,
  key_id TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE INDEX card_subscriptions_key ON card_subscriptions (key_id, created_at);
INSERT INTO card_subscriptions (subscription_id, key_id, created_at)
  SELECT subscription_id, id, created_at FROM api_keys WHERE subscription_id IS NOT NULL;`,
  },
  {
    version: 24,
    name: 'recovering a bought key whose answer was lost',
    // pack_recoveries: for 10 minutes after an x402 pack settled, the key it bought and a hash of
    // what only its request carried, so that the same request sent again gets the key with a
    // new secret. card_checkouts: the keyed hash of the token the buyer's browser got with the
    // checkout, when and with which secret the key was shown, so that the browser that started
    // the checkout sees the key again, with a new secret, when the first display was lost.
    sql: `
CREATE TABLE pack_recoveries (
  payment_id TEXT PRIMARY KEY,
  key_id TEXT NOT NULL,
  proof TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX pack_recoveries_expires ON pack_recoveries (expires_at);
ALTER TABLE card_checkouts ADD COLUMN buyer_token_hash TEXT;
ALTER TABLE card_checkouts ADD COLUMN revealed_at BIGINT;
ALTER TABLE card_checkouts ADD COLUMN revealed_key_hash TEXT;`,
  },
];
