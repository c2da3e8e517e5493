-- Every policy entry, in journal order: the timeline a replica keeps in memory.
SELECT entry FROM dataspace_change WHERE kind = 'policies' ORDER BY seq, sub
