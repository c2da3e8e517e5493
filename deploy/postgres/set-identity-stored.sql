-- The store holds the set's identity $1 too.
UPDATE dataspace_set SET stored = true WHERE id = 1 AND identity = $1
