-- The writer lease with an expiry and an epoch, the fence on the writer's tables, and the set's identity
-- (docs/replicas.md). Applied after schema.sql by every replica at start, under the same lock.

-- The lease: its holder renews `expires_at` (PostgreSQL's clock) every DATASPACE_REPLICA_CHECK_MS; a
-- standby takes it once it expired or was released, adding one to `epoch`. A row from before the
-- epoch starts at epoch 0, expired.
ALTER TABLE dataspace_writer ADD COLUMN IF NOT EXISTS epoch bigint NOT NULL DEFAULT 0;
ALTER TABLE dataspace_writer ADD COLUMN IF NOT EXISTS expires_at timestamptz NOT NULL DEFAULT '-infinity';

-- The fence: a session that says which epoch it writes for (the setting dataspace.epoch, which every
-- writer's connection carries) writes the node's tables only while that epoch is the lease's. The
-- check runs in the write's own statement and holds the lease row (FOR SHARE) until its transaction
-- ends, so a standby's claim waits for a write in flight and no write of an older epoch follows it.
-- Sessions without the setting (an operator's psql, a standby's reads) are not fenced.
CREATE OR REPLACE FUNCTION dataspace_fence() RETURNS trigger LANGUAGE plpgsql AS $fence$
DECLARE
  mine text := current_setting('dataspace.epoch', true);
  held bigint;
BEGIN
  IF mine IS NULL OR mine = '' THEN
    RETURN NULL;
  END IF;
  SELECT epoch INTO held FROM dataspace_writer WHERE id = 1 FOR SHARE;
  IF held IS DISTINCT FROM mine::bigint THEN
    RAISE EXCEPTION 'fenced: this writer writes for epoch %, the writer lease is at epoch %', mine, held
      USING ERRCODE = 'DSF01';
  END IF;
  RETURN NULL;
END
$fence$;

DO $fences$
DECLARE
  fenced text;
BEGIN
  FOREACH fenced IN ARRAY ARRAY['dataspace_blob', 'dataspace_consignment', 'dataspace_consignment_location',
    'dataspace_catalog_document', 'dataspace_catalog', 'dataspace_change', 'dataspace_change_track',
    'dataspace_ledger', 'dataspace_ledger_mark'] LOOP
    IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'dataspace_fence' AND tgrelid = fenced::regclass) THEN
      EXECUTE format('CREATE TRIGGER dataspace_fence BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I '
        'FOR EACH STATEMENT EXECUTE FUNCTION dataspace_fence()', fenced);
    END IF;
  END LOOP;
END
$fences$;

-- The replica set's identity, kept in the store too (a triple in the graph urn:dataspace:replica): a
-- replica whose store and database carry different ones refuses to start. `stored` is set once the
-- store has it, so a first start cut off between the two writes finishes the job.
CREATE TABLE IF NOT EXISTS dataspace_set (
  id smallint PRIMARY KEY CHECK (id = 1),
  identity text NOT NULL,
  stored boolean NOT NULL
);
