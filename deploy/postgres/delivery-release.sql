-- Lets claims of replica $2 on deliveries $1 go without an outcome (the replica stops, or the store
-- could not be read): their next attempt is $3 ms from now, by any replica.
UPDATE dataspace_delivery
SET claimed_by = NULL, claim_expires_at = NULL, next_attempt = now() + $3 * interval '1 millisecond'
WHERE delivery = ANY ($1::text[]) AND claimed_by = $2
