-- Takes the writer lease for holder $1 for $2 ms when no replica holds it (released, or expired by
-- PostgreSQL's clock): the new epoch and the previous holder, and whether it released the lease, or no
-- row. The previous row is read locked, so what it says is what the claim replaced. Right after
-- PostgreSQL started, an expired lease is left to its holder for $2 ms more: every lease expired while
-- the server was away, and the writer that held one renews it as soon as it reconnects, so an outage
-- does not move the set's writer.
WITH previous AS (
  SELECT holder, released FROM dataspace_writer WHERE id = 1 FOR UPDATE
)
INSERT INTO dataspace_writer AS w (id, holder, since, released, epoch, expires_at)
VALUES (1, $1, now(), false, 1, now() + $2 * interval '1 millisecond')
ON CONFLICT (id) DO UPDATE
  SET holder = $1, since = now(), released = false, epoch = w.epoch + 1, expires_at = now() + $2 * interval '1 millisecond'
  WHERE w.released
    OR (w.expires_at < now() AND now() - pg_postmaster_start_time() > $2 * interval '1 millisecond')
RETURNING epoch, (SELECT holder FROM previous) AS previous, (SELECT released FROM previous) AS released
