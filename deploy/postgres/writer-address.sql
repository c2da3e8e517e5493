-- Where the writer takes forwarded writes, and which holder said so.
SELECT holder, address FROM dataspace_writer_address WHERE id = 1
