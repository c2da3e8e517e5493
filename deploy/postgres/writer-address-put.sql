-- Records $2 as the address where holder $1 of the writer lease takes forwarded writes.
INSERT INTO dataspace_writer_address (id, holder, address, since) VALUES (1, $1, $2, now())
ON CONFLICT (id) DO UPDATE SET holder = $1, address = $2, since = now()
