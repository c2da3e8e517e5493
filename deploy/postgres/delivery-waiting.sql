-- Deliveries still to be made, and when the oldest of them was queued.
SELECT count(*)::int AS count, min(queued_at) AS oldest FROM dataspace_delivery WHERE state = 'pending'
