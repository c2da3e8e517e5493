-- A page of records read from the store ($1, a JSON array of rows) at the catalog's first fill; a
-- record already there (a write since) is kept.
INSERT INTO dataspace_consignment (iri, seq, owner, global_id, legacy_global_id, identifier, sent_id, status, updated_ms, locations, record)
SELECT r.iri, r.seq, r.owner, r.global_id, r.legacy_global_id, r.identifier, r.sent_id, r.status, r.updated_ms, r.locations, r.record
FROM jsonb_to_recordset($1::jsonb) AS r (
  iri text, seq bigint, owner text, global_id text, legacy_global_id text, identifier text, sent_id text, status text,
  updated_ms double precision, locations text[], record jsonb
)
ON CONFLICT (iri) DO NOTHING
