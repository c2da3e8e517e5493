-- The writer's check that its lease session still answers.
SELECT 1
