-- Deliveries made (delivered or failed) more than $1 ms ago whose outcome the store has: the store's
-- outbox is their record; a redelivery enters them again.
DELETE FROM dataspace_delivery
WHERE state <> 'pending' AND recorded_version = version AND completed < now() - $1 * interval '1 millisecond'
