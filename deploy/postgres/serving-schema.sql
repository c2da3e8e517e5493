-- What lets every replica of a set serve (docs/replicas.md "Every replica serves"). Applied at start by
-- every replica after schema.sql, under the same advisory lock; an operator may run it ahead with psql.

-- The writer's commits as the other replicas follow them, in order: `position` is what a write's
-- answer carries in its Dataspace-Position header; `notes` what changed (accepted activities, system
-- events, policies) and `reload` which in-memory state to read again ('registry', 'endpoints', or
-- 'all' when a new writer starts). Only the newest rows are kept: a replica further behind reads all.
CREATE TABLE IF NOT EXISTS dataspace_commit (
  position bigint PRIMARY KEY,
  writer text NOT NULL,
  notes jsonb NOT NULL,
  reload text[] NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);

-- Where the replica holding the writer lease takes the writes other replicas forward to it.
CREATE TABLE IF NOT EXISTS dataspace_writer_address (
  id smallint PRIMARY KEY CHECK (id = 1),
  holder text NOT NULL,
  address text NOT NULL,
  since timestamptz NOT NULL DEFAULT now()
);
