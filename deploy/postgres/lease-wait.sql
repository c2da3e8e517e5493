-- Waits in PostgreSQL's lock queue for the writer lease: granted the moment the holder's session ends.
SELECT pg_advisory_lock($1)
