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

-- The consignment catalog (src/adapters/postgres/postgres-catalog.ts): every consignment record as the ingest
-- last committed it, what the write path decides on and lists walk, so no replica holds the records in
-- memory. `record` is the record's JSON; the other columns are what lookups and walks use.
-- `legacy_global_id` is the canonical form of a globalId stored before globalIds were kept canonical;
-- `sent_id` the root id sent beside the globalId (pilot E's urn:ucr:…), which the consignment's URL answers to.
CREATE TABLE IF NOT EXISTS dataspace_consignment (
  iri text PRIMARY KEY,
  seq bigint NOT NULL UNIQUE,
  owner text NOT NULL,
  global_id text NOT NULL,
  legacy_global_id text,
  identifier text NOT NULL,
  sent_id text,
  status text NOT NULL,
  updated_ms double precision NOT NULL,
  locations text[] NOT NULL,
  record jsonb NOT NULL
);
-- A catalog made before sent ids were kept gets the column; its rows hold none (none were in the records then).
ALTER TABLE dataspace_consignment ADD COLUMN IF NOT EXISTS sent_id text;
CREATE INDEX IF NOT EXISTS dataspace_consignment_global_id ON dataspace_consignment (global_id);
CREATE INDEX IF NOT EXISTS dataspace_consignment_sent_id ON dataspace_consignment (sent_id) WHERE sent_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS dataspace_consignment_legacy ON dataspace_consignment (legacy_global_id, seq) WHERE legacy_global_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS dataspace_consignment_identifier ON dataspace_consignment (identifier);
CREATE INDEX IF NOT EXISTS dataspace_consignment_owner ON dataspace_consignment (owner, seq);
CREATE INDEX IF NOT EXISTS dataspace_consignment_owner_identifier ON dataspace_consignment (owner, identifier);
CREATE INDEX IF NOT EXISTS dataspace_consignment_owner_status ON dataspace_consignment (owner, status, seq);
CREATE INDEX IF NOT EXISTS dataspace_consignment_status ON dataspace_consignment (status, seq);
CREATE INDEX IF NOT EXISTS dataspace_consignment_updated ON dataspace_consignment (updated_ms, seq);

-- Each consignment's route locations, in publication order per location: a location operator's lists.
CREATE TABLE IF NOT EXISTS dataspace_consignment_location (
  location text NOT NULL,
  seq bigint NOT NULL,
  iri text NOT NULL,
  PRIMARY KEY (location, seq)
);
CREATE INDEX IF NOT EXISTS dataspace_consignment_location_iri ON dataspace_consignment_location (iri);

-- Each document by its registration number, under its consignment's owner: the documents lists.
CREATE TABLE IF NOT EXISTS dataspace_catalog_document (
  iri text PRIMARY KEY,
  seq bigint NOT NULL,
  consignment text NOT NULL,
  owner text NOT NULL
);
CREATE INDEX IF NOT EXISTS dataspace_catalog_document_owner ON dataspace_catalog_document (owner, seq);

-- How far the catalog has the store: filled once from the store, then each accepted write up to
-- `applied_seq`, the sequence number last handed out when it committed. A writer catches up on the
-- change journal after it (a writer that died between its store commit and this table's).
CREATE TABLE IF NOT EXISTS dataspace_catalog (
  id smallint PRIMARY KEY CHECK (id = 1),
  applied_seq bigint NOT NULL
);

-- The change feed's index (src/adapters/postgres/postgres-changes.ts): every journal entry by its position, the
-- routes data changes set, and each consignment's owner and first appearance, so walks read slices
-- and no replica holds the journal in memory. The journal itself is in the store; this table follows
-- it and catches up on it after a writer that died.
CREATE TABLE IF NOT EXISTS dataspace_change (
  seq bigint NOT NULL,
  sub integer NOT NULL,
  kind text NOT NULL,
  consignment text,
  routes text[],
  entry jsonb NOT NULL,
  PRIMARY KEY (seq, sub)
);
CREATE INDEX IF NOT EXISTS dataspace_change_routes ON dataspace_change (consignment, seq, sub) WHERE routes IS NOT NULL;
CREATE INDEX IF NOT EXISTS dataspace_change_policies ON dataspace_change (seq, sub) WHERE kind = 'policies';

-- Owners in code-point order ("C"), the order the walk gives a policy change's candidates in.
CREATE TABLE IF NOT EXISTS dataspace_change_track (
  consignment text PRIMARY KEY,
  owner text COLLATE "C" NOT NULL,
  global_id text NOT NULL,
  first_seq bigint NOT NULL,
  first_sub integer NOT NULL
);
CREATE INDEX IF NOT EXISTS dataspace_change_track_owner ON dataspace_change_track (owner, first_seq, first_sub);
-- The receivers' ledger: every delivery queued for each receiver, by its sequence number, as the outbox
-- in the SPARQL server has it (core/ports/receiver-ledger.ts): what GET /signals walks, newest first, on the
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
