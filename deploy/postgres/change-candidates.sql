-- The consignments of the owners $1 that entered the journal before position ($2, $3), by owner then
-- first appearance, from the $4-th, up to $5; each with the route set last before the position.
SELECT t.owner, t.global_id, r.routes
FROM (
  SELECT consignment, owner, global_id, first_seq, first_sub FROM dataspace_change_track
  WHERE owner = ANY ($1::text[]) AND (first_seq, first_sub) < ($2, $3)
  ORDER BY owner, first_seq, first_sub
  OFFSET $4 LIMIT $5
) AS t
LEFT JOIN LATERAL (
  SELECT c.routes FROM dataspace_change c
  WHERE c.consignment = t.consignment AND c.routes IS NOT NULL AND (c.seq, c.sub) < ($2, $3)
  ORDER BY c.seq DESC, c.sub DESC
  LIMIT 1
) AS r ON true
ORDER BY t.owner, t.first_seq, t.first_sub
