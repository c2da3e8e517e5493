-- Each data entry's consignment ($1) at its position ($2, $3), as the coverage rule reads it: owner
-- and globalId from its first appearance, the route the last change at or before the position set.
SELECT e.n, t.owner, t.global_id, r.routes
FROM unnest($1::text[], $2::bigint[], $3::integer[]) WITH ORDINALITY AS e (consignment, seq, sub, n)
LEFT JOIN dataspace_change_track t ON t.consignment = e.consignment
LEFT JOIN LATERAL (
  SELECT c.routes FROM dataspace_change c
  WHERE c.consignment = e.consignment AND c.routes IS NOT NULL AND (c.seq, c.sub) <= (e.seq, e.sub)
  ORDER BY c.seq DESC, c.sub DESC
  LIMIT 1
) AS r ON true
ORDER BY e.n
