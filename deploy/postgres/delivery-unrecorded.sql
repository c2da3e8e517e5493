-- Outcomes the store's outbox does not have yet, oldest first, at most $1.
SELECT delivery, receiver, consignment, seq, state, attempts, queued_at, next_attempt, last_status, last_error,
  last_attempt, completed, details, version
FROM dataspace_delivery
WHERE recorded_version < version
ORDER BY version
LIMIT $1
