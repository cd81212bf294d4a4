-- Citus enforces a unique index only within one shard, so on a table distributed by
-- context_id every unique index must include context_id (docs/scale.md#distribution).
-- `api_key_id` was UNIQUE (id) alone, for the key lookup by id; it becomes a plain index.
-- A key id stays unique: the service makes it a fresh uuid, and the primary key
-- (context_id, id) refuses a repeat within a Context.
DROP INDEX api_key_id;
CREATE INDEX api_key_id ON api_key (id);
