-- The consignment whose root id was sent as $1 (unique across the node: a Create or Update of a taken one fails).
SELECT record, locations, updated_ms FROM dataspace_consignment WHERE sent_id = $1
