-- Lets the writer lease go (a clean stop).
SELECT pg_advisory_unlock($1)
