-- Keeps a document's file $2 by its sha-256 $1, once.
INSERT INTO dataspace_blob (sha256, bytes) VALUES ($1, $2) ON CONFLICT (sha256) DO NOTHING
