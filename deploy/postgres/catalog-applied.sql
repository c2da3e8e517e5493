-- How far the catalog has the store: null before its first fill.
SELECT applied_seq FROM dataspace_catalog WHERE id = 1
