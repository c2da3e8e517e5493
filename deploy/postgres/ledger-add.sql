-- Keeps deliveries in the receivers' ledger, each once: receivers $1, seqs $2, delivery IRIs $3, signal
-- types $4 and publication times $5, one array element a delivery.
INSERT INTO dataspace_ledger (receiver, seq, delivery, type, published)
SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::timestamptz[])
ON CONFLICT (receiver, seq) DO NOTHING
