-- One attempt's outcome on delivery $1, written by the replica $2 that claims it: its state $3,
-- attempts $4, last status $5, last error $6, attempt time $7, next attempt $8 (a retry), completion
-- $9 (delivered or failed), what was sent $10. The claim ends; a replica whose claim another took
-- since (it expired) writes nothing: the other sends it again.
UPDATE dataspace_delivery
SET state = $3, attempts = $4, last_status = $5, last_error = $6, last_attempt = $7,
  next_attempt = coalesce($8, next_attempt), completed = $9, details = $10, sent_by = $2,
  claimed_by = NULL, claim_expires_at = NULL, version = version + 1
WHERE delivery = $1 AND claimed_by = $2
