-- The catalog has the store up to sequence number $1 (after a fill or a catch-up).
INSERT INTO dataspace_catalog (id, applied_seq) VALUES (1, $1)
ON CONFLICT (id) DO UPDATE SET applied_seq = GREATEST(dataspace_catalog.applied_seq, EXCLUDED.applied_seq)
