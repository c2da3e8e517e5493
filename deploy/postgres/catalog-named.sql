-- The consignments an id ($1) names as globalId (first) or as a publisher's identifier, in publication order.
SELECT record, locations, updated_ms
FROM dataspace_consignment
WHERE global_id = $1 OR identifier = $1
ORDER BY global_id = $1 DESC, seq
