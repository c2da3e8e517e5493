-- The store has the outcomes of deliveries $1 up to versions $2.
UPDATE dataspace_delivery d SET recorded_version = v.version
FROM unnest($1::text[], $2::bigint[]) AS v (delivery, version)
WHERE d.delivery = v.delivery AND d.recorded_version < v.version
