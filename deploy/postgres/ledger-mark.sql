-- The sequence number up to which the receivers' ledger holds every delivery of the outbox.
SELECT complete_upto FROM dataspace_ledger_mark WHERE id = 1
