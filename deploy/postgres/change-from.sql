-- Up to $3 journal entries at or after position ($1, $2), in journal order.
SELECT entry FROM dataspace_change WHERE (seq, sub) >= ($1, $2) ORDER BY seq, sub LIMIT $3
