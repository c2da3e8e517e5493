-- The last commit's position (0 when none was recorded).
SELECT coalesce(max(position), 0) AS position FROM dataspace_commit
