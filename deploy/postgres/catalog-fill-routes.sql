-- The consignments' ($1) route arrays from their location rows, after a fill page added locations.
UPDATE dataspace_consignment c
SET locations = ARRAY(SELECT l.location FROM dataspace_consignment_location l WHERE l.iri = c.iri ORDER BY l.location)
WHERE c.iri = ANY ($1::text[])
