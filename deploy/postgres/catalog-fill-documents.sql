-- A page of documents read from the store ($1, a JSON array of {iri, seq, consignment}), under their consignment's owner.
INSERT INTO dataspace_catalog_document (iri, seq, consignment, owner)
SELECT r.iri, r.seq, r.consignment, c.owner
FROM jsonb_to_recordset($1::jsonb) AS r (iri text, seq bigint, consignment text)
JOIN dataspace_consignment c ON c.iri = r.consignment
ON CONFLICT DO NOTHING
