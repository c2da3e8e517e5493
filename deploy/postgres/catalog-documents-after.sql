-- Up to $3 documents of the owners' ($1) consignments registered after $2, in that order, with their consignment.
SELECT page.seq AS document_seq, page.iri AS document, d.record, d.locations, d.updated_ms
FROM (
  SELECT x.seq, x.iri, x.consignment
  FROM unnest($1::text[]) AS o (owner)
  CROSS JOIN LATERAL (
    SELECT seq, iri, consignment FROM dataspace_catalog_document WHERE owner = o.owner AND seq > $2 ORDER BY seq LIMIT $3
  ) AS x
  ORDER BY x.seq
  LIMIT $3
) AS page
JOIN dataspace_consignment d ON d.iri = page.consignment
ORDER BY page.seq
