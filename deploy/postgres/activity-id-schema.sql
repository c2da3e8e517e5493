-- The activity ids a replica set's writer applied (spec 2.1 retries; docs/replicas.md "Activity ids"),
-- so that a retry is answered from here rather than by a lookup in the SPARQL server. Applied at start
-- by every replica after schema-lease.sql, under the same advisory lock.
--
-- One row an actor's id: `id_key` is the id's SHA-256 (an id may be 2,048 characters, more than a
-- B-tree entry takes); `entry` the activity-log entry its first application was answered with, and
-- `digest` its payload's. The writer writes the row before it sends the activity's Update to the
-- store: a row whose commit then failed names an entry the store lacks, and a retry that finds such a
-- row is applied anew (its row rewritten). Rows older than the idempotency window are deleted.
CREATE TABLE IF NOT EXISTS dataspace_activity_id (
  actor text NOT NULL,
  id_key bytea NOT NULL,
  entry text NOT NULL,
  digest text NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (actor, id_key)
);
CREATE INDEX IF NOT EXISTS dataspace_activity_id_at ON dataspace_activity_id (at);

-- Written by the writer only: fenced on its epoch as its other tables are (schema-lease.sql).
DO $fence$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'dataspace_fence' AND tgrelid = 'dataspace_activity_id'::regclass) THEN
    CREATE TRIGGER dataspace_fence BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON dataspace_activity_id
      FOR EACH STATEMENT EXECUTE FUNCTION dataspace_fence();
  END IF;
END
$fence$;
