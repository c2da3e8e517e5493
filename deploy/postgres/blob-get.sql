-- The bytes of the file with sha-256 $1.
SELECT bytes FROM dataspace_blob WHERE sha256 = $1
