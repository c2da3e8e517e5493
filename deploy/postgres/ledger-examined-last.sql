-- The seq of receiver $1's $3rd newest delivery below seq $2, if it has that many: where a page that
-- looked at $3 deliveries stopped.
SELECT seq
FROM dataspace_ledger
WHERE receiver = $1 AND seq < $2
ORDER BY seq DESC
OFFSET $3::bigint - 1
LIMIT 1
