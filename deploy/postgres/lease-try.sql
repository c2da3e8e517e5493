-- Takes the writer lease if no replica holds it: true when taken (writer-lease.ts).
SELECT pg_try_advisory_lock($1) AS held
