-- Records $1 as the holder of the writer lease.
INSERT INTO dataspace_writer (id, holder, since, released) VALUES (1, $1, now(), false)
ON CONFLICT (id) DO UPDATE SET holder = $1, since = now(), released = false
