-- The consignments an id ($1) names as globalId (first), as the root id sent beside it, or as a
-- publisher's identifier, in publication order.
SELECT record, locations, updated_ms
FROM dataspace_consignment
WHERE global_id = $1 OR sent_id = $1 OR identifier = $1
ORDER BY global_id = $1 DESC, sent_id IS NOT DISTINCT FROM $1 DESC, seq
