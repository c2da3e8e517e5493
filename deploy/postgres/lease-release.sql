-- Holder $1 of epoch $2 lets the lease go (a clean stop): the next replica takes it at once, without waiting.
UPDATE dataspace_writer SET released = true, expires_at = now() WHERE id = 1 AND holder = $1 AND epoch = $2
