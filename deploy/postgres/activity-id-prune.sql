-- Activity ids applied before $1, out of the idempotency window: a retry of them is a new activity.
DELETE FROM dataspace_activity_id WHERE at < $1
