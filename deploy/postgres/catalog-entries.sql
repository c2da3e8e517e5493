-- The consignments of these record IRIs ($1) that exist.
SELECT record, locations, updated_ms FROM dataspace_consignment WHERE iri = ANY ($1::text[])
