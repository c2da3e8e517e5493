-- Empties the receivers' ledger, to be read again from the outbox.
DELETE FROM dataspace_ledger
