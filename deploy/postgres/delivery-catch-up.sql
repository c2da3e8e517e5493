-- A new writer enters what the store's outbox holds as pending (delivery IRIs $1, receivers $2,
-- consignments $3, seqs $4, queue times $5, attempts $6, next attempts $7): the deliveries a writer
-- that died committed but did not enter. A row the store has recorded as made (recorded_version =
-- version) while the outbox says pending was queued again by a redelivery cut off before it got
-- here: it is pending again. A row whose outcome the store has not recorded yet is left as it is.
INSERT INTO dataspace_delivery (delivery, receiver, consignment, seq, queued_at, attempts, next_attempt)
SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::timestamptz[], $6::int[], $7::timestamptz[])
ON CONFLICT (delivery) DO UPDATE SET
  state = 'pending', attempts = 0, queued_at = excluded.queued_at, next_attempt = excluded.next_attempt,
  last_status = NULL, last_error = NULL, last_attempt = NULL, completed = NULL,
  claimed_by = NULL, claim_expires_at = NULL,
  version = dataspace_delivery.version + 1, recorded_version = dataspace_delivery.version + 1
WHERE dataspace_delivery.state <> 'pending' AND dataspace_delivery.recorded_version = dataspace_delivery.version
