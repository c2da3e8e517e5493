-- Signal deliveries as every replica of a set sends them (docs/replicas.md "Signals from every
-- replica"). Applied at start by every replica after schema-lease.sql, under the same lock.

-- One row a delivery still to be made or recently made. The writer enters a row once the commit that
-- queued it is durable (or queued it again: a redelivery); any replica claims the head of a
-- consignment × receiver queue (its lowest pending seq) for `claim_expires_at` (PostgreSQL's clock),
-- sends it, and writes the attempt's outcome here. The writer then records each outcome in the
-- store's outbox (`version` counts outcomes, `recorded_version` the last one the store has).
CREATE TABLE IF NOT EXISTS dataspace_delivery (
  delivery text PRIMARY KEY,
  receiver text NOT NULL,
  consignment text NOT NULL,
  seq bigint NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  queued_at timestamptz NOT NULL,
  next_attempt timestamptz NOT NULL,
  claimed_by text,
  claim_expires_at timestamptz,
  last_status integer,
  last_error text,
  last_attempt timestamptz,
  completed timestamptz,
  -- What the attempt sent (signal, type, consignment, owner, globalId, identifier): the writer's
  -- record of a final outcome needs it without reading the store again.
  details jsonb,
  -- The replica whose attempt wrote the last outcome (host:pid:tag, as in its log).
  sent_by text,
  version bigint NOT NULL DEFAULT 0,
  recorded_version bigint NOT NULL DEFAULT 0
);

CREATE INDEX IF NOT EXISTS dataspace_delivery_queue ON dataspace_delivery (consignment, receiver, seq) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS dataspace_delivery_due ON dataspace_delivery (next_attempt) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS dataspace_delivery_unrecorded ON dataspace_delivery (version) WHERE recorded_version < version;

-- Fenced as the writer's other tables (schema-lease.sql): a deposed writer enters no delivery and
-- claims none. Followers' sessions carry no epoch and are not fenced: they claim and write outcomes.
DO $fences$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'dataspace_fence' AND tgrelid = 'dataspace_delivery'::regclass) THEN
    CREATE TRIGGER dataspace_fence BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON dataspace_delivery
      FOR EACH STATEMENT EXECUTE FUNCTION dataspace_fence();
  END IF;
END
$fences$;
