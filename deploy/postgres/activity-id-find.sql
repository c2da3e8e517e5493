-- An actor's activity id, if applied since $3: the entry it was answered with and the payload's digest.
SELECT entry, digest, at FROM dataspace_activity_id WHERE actor = $1 AND id_key = $2 AND at >= $3
