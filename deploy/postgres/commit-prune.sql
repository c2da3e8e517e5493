-- Forgets the commits before position $1: a replica behind them reads its state again whole.
DELETE FROM dataspace_commit WHERE position < $1
