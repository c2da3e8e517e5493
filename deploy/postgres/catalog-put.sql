-- A record as a committed write left it ($1 iri, $2 seq, $3 owner, $4 globalId, $5 its canonical form
-- when that differs, $6 identifier, $7 status, $8 updated in ms, $9 the route when the write set one,
-- else null, $10 the record's JSON), a document it registered ($11 iri, $12 seq, or nulls), and the
-- sequence number handed out last when it committed ($13), and the root id sent beside the globalId or
-- null ($14): one statement, so all or nothing.
-- A record keeps its first `created`, and its route where the write set none.
WITH put AS (
  INSERT INTO dataspace_consignment AS c (iri, seq, owner, global_id, legacy_global_id, identifier, sent_id, status, updated_ms, locations, record)
  VALUES ($1, $2, $3, $4, $5, $6, $14, $7, $8, COALESCE($9::text[], '{}'), $10::jsonb)
  ON CONFLICT (iri) DO UPDATE SET
    identifier = EXCLUDED.identifier,
    sent_id = EXCLUDED.sent_id,
    status = EXCLUDED.status,
    updated_ms = EXCLUDED.updated_ms,
    locations = COALESCE($9::text[], c.locations),
    record = EXCLUDED.record
      || jsonb_build_object('created', c.record -> 'created')
      || CASE WHEN $9::text[] IS NULL AND c.record ? 'routes' THEN jsonb_build_object('routes', c.record -> 'routes') ELSE '{}'::jsonb END
  RETURNING iri
),
gone AS (
  DELETE FROM dataspace_consignment_location
  WHERE $9::text[] IS NOT NULL AND iri = $1 AND location <> ALL ($9::text[])
),
added AS (
  INSERT INTO dataspace_consignment_location (location, seq, iri)
  SELECT DISTINCT l, $2::bigint, $1 FROM unnest(COALESCE($9::text[], '{}')) AS l
  ON CONFLICT DO NOTHING
),
document AS (
  INSERT INTO dataspace_catalog_document (iri, seq, consignment, owner)
  SELECT $11, $12, $1, $3 WHERE $11::text IS NOT NULL
  ON CONFLICT DO NOTHING
),
applied AS (
  INSERT INTO dataspace_catalog (id, applied_seq) VALUES (1, $13)
  ON CONFLICT (id) DO UPDATE SET applied_seq = GREATEST(dataspace_catalog.applied_seq, EXCLUDED.applied_seq)
)
SELECT iri FROM put
