-- Receiver $1 changed its notification endpoint: what waits for it is due now, not after its backoff.
UPDATE dataspace_delivery SET next_attempt = now()
WHERE receiver = $1 AND state = 'pending' AND next_attempt > now()
