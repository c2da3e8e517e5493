-- Keeps secret $1 with value $2 unless a replica made it first (shared-secret.ts).
INSERT INTO dataspace_secret (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING
