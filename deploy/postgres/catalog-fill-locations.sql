-- A page of route locations read from the store ($1, a JSON array of {consignment, location}) at the
-- first fill, for records whose start literal did not carry their route.
INSERT INTO dataspace_consignment_location (location, seq, iri)
SELECT r.location, c.seq, c.iri
FROM jsonb_to_recordset($1::jsonb) AS r (consignment text, location text)
JOIN dataspace_consignment c ON c.iri = r.consignment
ON CONFLICT DO NOTHING
