-- The consignment a globalId names ($1), else a record stored before globalIds were kept canonical whose canonical form it is ($2), the first one.
(SELECT record, locations, updated_ms FROM dataspace_consignment WHERE global_id = $1 ORDER BY seq LIMIT 1)
UNION ALL
(SELECT record, locations, updated_ms FROM dataspace_consignment WHERE legacy_global_id = $2 ORDER BY seq LIMIT 1)
LIMIT 1
