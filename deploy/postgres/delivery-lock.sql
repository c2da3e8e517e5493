-- Held for the transaction by every statement that decides which delivery heads its queue (a claim,
-- deliveries entered or queued again): two of them side by side could each see a queue without a
-- live claim and let two of its deliveries out at once.
SELECT pg_advisory_xact_lock($1)
