-- Held while a replica applies schema.sql: two replicas starting together must not both create a table.
SELECT pg_advisory_xact_lock($1)
