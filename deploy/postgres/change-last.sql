-- The last entry's position and how many there are.
SELECT seq, sub, (SELECT count(*) FROM dataspace_change) AS size FROM dataspace_change ORDER BY seq DESC, sub DESC LIMIT 1
