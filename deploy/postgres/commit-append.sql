-- The writer's commits ($2, a JSON array of {position, notes, reload}) by writer $1, and a notification
-- on channel dataspace_commit with the last position, sent when the transaction commits. Rows already
-- in are left as they are: the writer sends a batch again whole when PostgreSQL's answer was lost.
WITH rows AS (
  SELECT * FROM jsonb_to_recordset($2::jsonb) AS r (position bigint, notes jsonb, reload text[])
),
kept AS (
  INSERT INTO dataspace_commit (position, writer, notes, reload)
  SELECT position, $1, notes, reload FROM rows
  ON CONFLICT (position) DO NOTHING
  RETURNING position
)
SELECT pg_notify('dataspace_commit', max(position)::text) FROM kept
