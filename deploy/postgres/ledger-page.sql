-- One page of receiver $1's deliveries below seq $2, newest first: of the $3 newest, those of signal
-- type $4 published in [$5, $6) (a null leaves that bound open), at most $7. Both limits keep the scan
-- of the primary key bounded, whatever the filter.
SELECT seq, delivery, type, published
FROM (
  SELECT seq, delivery, type, published
  FROM dataspace_ledger
  WHERE receiver = $1 AND seq < $2
  ORDER BY seq DESC
  LIMIT $3
) AS examined
WHERE ($4::text IS NULL OR type = $4::text)
  AND ($5::timestamptz IS NULL OR published >= $5::timestamptz)
  AND ($6::timestamptz IS NULL OR published < $6::timestamptz)
ORDER BY seq DESC
LIMIT $7
