-- The value of secret $1.
SELECT value FROM dataspace_secret WHERE name = $1
