-- The receivers' ledger holds every delivery of the outbox up to sequence number $1.
INSERT INTO dataspace_ledger_mark (id, complete_upto) VALUES (1, $1)
ON CONFLICT (id) DO UPDATE SET complete_upto = EXCLUDED.complete_upto
