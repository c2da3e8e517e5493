-- Up to $4 consignments published after $3 among those of the owners $1 and those routed through the
-- locations $2, in publication order, in the status $5 when it is not null: each list is read in its
-- own index order as far as the page goes, then merged, as the memory index merges its lists.
WITH candidates AS (
  SELECT c.seq, c.iri
  FROM unnest($1::text[]) AS o (owner)
  CROSS JOIN LATERAL (
    SELECT seq, iri FROM dataspace_consignment
    WHERE owner = o.owner AND seq > $3 AND ($5::text IS NULL OR status = $5)
    ORDER BY seq LIMIT $4
  ) AS c
  UNION
  SELECT c.seq, c.iri
  FROM unnest($2::text[]) AS l (location)
  CROSS JOIN LATERAL (
    SELECT cl.seq, cl.iri FROM dataspace_consignment_location cl JOIN dataspace_consignment d ON d.iri = cl.iri
    WHERE cl.location = l.location AND cl.seq > $3 AND ($5::text IS NULL OR d.status = $5)
    ORDER BY cl.seq LIMIT $4
  ) AS c
)
SELECT d.record, d.locations, d.updated_ms
FROM (SELECT iri FROM candidates ORDER BY seq LIMIT $4) AS page
JOIN dataspace_consignment d USING (iri)
ORDER BY d.seq
