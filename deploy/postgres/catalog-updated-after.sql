-- Up to $3 consignments in update order (when each last changed, then publication order) after ($1, $2).
SELECT record, locations, updated_ms
FROM dataspace_consignment
WHERE (updated_ms, seq) > ($1, $2)
ORDER BY updated_ms, seq
LIMIT $3
