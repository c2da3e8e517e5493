-- Holder $1 of epoch $2 extends its lease by $3 ms: no row once another replica took it.
UPDATE dataspace_writer SET expires_at = now() + $3 * interval '1 millisecond'
WHERE id = 1 AND holder = $1 AND epoch = $2 AND NOT released
RETURNING epoch
