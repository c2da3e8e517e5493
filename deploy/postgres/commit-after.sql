-- The commits after position $1, oldest first, at most $2.
SELECT position, writer, notes, reload FROM dataspace_commit WHERE position > $1 ORDER BY position LIMIT $2
