-- The record of the owner's ($1) consignment with this identifier ($2).
SELECT record, locations, updated_ms FROM dataspace_consignment WHERE owner = $1 AND identifier = $2 LIMIT 1
