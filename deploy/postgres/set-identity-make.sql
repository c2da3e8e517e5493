-- Makes $1 the set's identity unless a replica made one first.
INSERT INTO dataspace_set (id, identity, stored) VALUES (1, $1, false) ON CONFLICT (id) DO NOTHING
