-- Journal entries in order ($1, a JSON array of {seq, sub, kind, consignment, routes, entry, owner,
-- global_id}): each kept once (a policy entry written again when its policies are read), and each
-- consignment's first appearance.
WITH rows AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS r (
    seq bigint, sub integer, kind text, consignment text, routes text[], entry jsonb, owner text, global_id text
  )
),
changes AS (
  INSERT INTO dataspace_change (seq, sub, kind, consignment, routes, entry)
  SELECT seq, sub, kind, consignment, routes, entry FROM rows
  ON CONFLICT (seq, sub) DO UPDATE SET entry = EXCLUDED.entry
)
INSERT INTO dataspace_change_track AS t (consignment, owner, global_id, first_seq, first_sub)
SELECT DISTINCT ON (consignment) consignment, owner, global_id, seq, sub
FROM rows WHERE kind = 'data'
ORDER BY consignment, seq, sub
ON CONFLICT (consignment) DO UPDATE SET first_seq = EXCLUDED.first_seq, first_sub = EXCLUDED.first_sub
WHERE (EXCLUDED.first_seq, EXCLUDED.first_sub) < (t.first_seq, t.first_sub)
