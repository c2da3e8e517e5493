-- An activity id recorded before its commit is sent to the store; a row left by a commit that failed,
-- or by an application older than the window, is replaced.
INSERT INTO dataspace_activity_id (actor, id_key, entry, digest, at) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (actor, id_key) DO UPDATE SET entry = EXCLUDED.entry, digest = EXCLUDED.digest, at = EXCLUDED.at
