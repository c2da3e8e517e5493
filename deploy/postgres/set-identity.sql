-- The replica set's identity in this database, and whether the store has it too.
SELECT identity, stored FROM dataspace_set WHERE id = 1
