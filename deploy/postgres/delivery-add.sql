-- Enters deliveries a durable commit queued: delivery IRIs $1, receivers $2, consignments $3, seqs $4,
-- queue times $5, one array element a delivery. A delivery already made (delivered or failed) and
-- asked for again (a redelivery: the store's outbox says pending already) is pending again, its
-- attempts counted afresh; one still pending is left as it is.
INSERT INTO dataspace_delivery (delivery, receiver, consignment, seq, queued_at, next_attempt)
SELECT d, r, c, s, q, q FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::timestamptz[]) AS t (d, r, c, s, q)
ON CONFLICT (delivery) DO UPDATE SET
  state = 'pending', attempts = 0, queued_at = excluded.queued_at, next_attempt = excluded.next_attempt,
  last_status = NULL, last_error = NULL, last_attempt = NULL, completed = NULL,
  claimed_by = NULL, claim_expires_at = NULL,
  version = dataspace_delivery.version + 1, recorded_version = dataspace_delivery.version + 1
WHERE dataspace_delivery.state <> 'pending'
