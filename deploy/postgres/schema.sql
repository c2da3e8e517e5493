-- The node's shared state in replica mode (docs/replicas.md). Every replica applies this file at start,
-- one at a time (under an advisory lock); an operator may also run it ahead with psql.

-- Secrets the replicas share: the JWT signing secret, made by the first replica when JWT_SECRET is unset.
CREATE TABLE IF NOT EXISTS dataspace_secret (
  name text PRIMARY KEY,
  value text NOT NULL
);

-- Documents' files by their sha-256: the same bytes once, written before any record names them.
CREATE TABLE IF NOT EXISTS dataspace_blob (
  sha256 char(64) PRIMARY KEY,
  bytes bytea NOT NULL,
  stored_at timestamptz NOT NULL DEFAULT now()
);

-- The replica holding the writer lease (an advisory lock), and whether its last holder let it go
-- cleanly: a replica taking it from one that died waits before reading the store.
CREATE TABLE IF NOT EXISTS dataspace_writer (
  id smallint PRIMARY KEY CHECK (id = 1),
  holder text NOT NULL,
  since timestamptz NOT NULL,
  released boolean NOT NULL
);

-- Failed logins per window (rate-limiter-flexible's RateLimiterPostgres rows: key, points, expiry in ms),
-- shared so that a takeover does not reset them.
CREATE TABLE IF NOT EXISTS dataspace_login_throttle (
  key text PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);

-- The receivers' ledger: every delivery queued for each receiver, by its sequence number, as the outbox
-- in the SPARQL server has it (notify/receiver-ledger.ts): what GET /signals walks, newest first, on the
-- primary key. Rebuilt from the outbox, never the only copy of anything.
CREATE TABLE IF NOT EXISTS dataspace_ledger (
  receiver text NOT NULL,
  seq bigint NOT NULL,
  delivery text NOT NULL,
  type text NOT NULL,
  published timestamptz NOT NULL,
  PRIMARY KEY (receiver, seq)
);

-- The sequence number up to which dataspace_ledger holds every delivery of the outbox: a writer that
-- starts reads from the outbox only the deliveries above it.
CREATE TABLE IF NOT EXISTS dataspace_ledger_mark (
  id smallint PRIMARY KEY CHECK (id = 1),
  complete_upto bigint NOT NULL
);
