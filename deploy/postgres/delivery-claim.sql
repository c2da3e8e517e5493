-- Claims for replica $1, until $2 ms from now by PostgreSQL's clock, at most $3 deliveries, each the
-- head of its consignment × receiver queue (no pending delivery of the queue has a lower seq), due,
-- and in a queue where no claim is live; receivers $4 are left out (this replica has as many attempts
-- to them under way as it allows). A claim that expired (its replica died or froze) is taken again.
-- Run after delivery-lock.sql in one transaction; rows another session holds are skipped.
UPDATE dataspace_delivery d
SET claimed_by = $1, claim_expires_at = now() + $2 * interval '1 millisecond'
WHERE d.delivery IN (
  SELECT h.delivery FROM dataspace_delivery h
  WHERE h.state = 'pending'
    AND h.next_attempt <= now()
    AND NOT (h.receiver = ANY ($4::text[]))
    AND NOT EXISTS (
      SELECT 1 FROM dataspace_delivery o
      WHERE o.consignment = h.consignment AND o.receiver = h.receiver AND o.state = 'pending'
        AND (o.seq < h.seq OR o.claim_expires_at > now())
    )
  ORDER BY h.next_attempt
  LIMIT $3
  FOR UPDATE SKIP LOCKED
)
RETURNING d.delivery, d.receiver, d.consignment, d.seq, d.attempts, d.queued_at, d.next_attempt
