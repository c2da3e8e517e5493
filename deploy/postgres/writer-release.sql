-- Marks the lease released by its holder $1: the next writer starts without waiting.
UPDATE dataspace_writer SET released = true WHERE id = 1 AND holder = $1
