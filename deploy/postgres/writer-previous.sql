-- The last holder of the writer lease, and whether it let the lease go cleanly.
SELECT holder, released FROM dataspace_writer WHERE id = 1
