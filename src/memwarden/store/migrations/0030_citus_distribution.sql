-- On a Citus coordinator, distribute the tables by Context (docs/scale.md#distribution).
-- On a plain PostgreSQL (no `citus` extension in the database) this does nothing.
--
-- * `context`, `principal`, `principal_grant` and `api_key` become reference tables (a
--   copy on every node): authentication looks a key up by its id before it knows the
--   Context, and a reference table answers that on the coordinator without asking every
--   shard; they are small and written only when Contexts and keys are made.
-- * Every other table with a NOT NULL `context_id` is distributed by `context_id`,
--   co-located with `memory_record`: a Context's rows of every table live in one shard
--   group, on one worker, so a statement pinned to a Context goes to one node, and the
--   triggers that write a Context's history rows (memory_record_past, webhook_delivery)
--   write into co-located shards of the same node.
-- * The hash partitions by Context (0022) stay: a partitioned table is distributed with
--   its partitions, each shard of `memory_record` is itself split 16 ways, so a worker's
--   statement still prunes to one partition's indexes.
-- * `audit_event` (context_id may be NULL), `schema_migration` and procrastinate's tables
--   stay local to the coordinator; the job workers connect to the coordinator.
--
-- Citus refuses to turn a table into a reference table while local tables hold foreign
-- keys to it (it would convert the whole graph), and to distribute a table whose foreign
-- key points at a table not yet distributed; so every foreign key between our tables is
-- taken off, the tables distributed, and the keys put back under their own names (Citus
-- checks them against the shards). Triggers on distributed tables need
-- `citus.enable_unsafe_triggers`: ours only touch rows of the same Context, which are
-- co-located, which is what makes them safe.
--
-- The block is idempotent: store/migrate.py runs it again at every migrate on a Citus
-- database, so a Context table a later migration creates is distributed too, and so is a
-- database migrated on one PostgreSQL (where this did nothing) and restored into Citus.
DO $citus$
DECLARE
    fk record;
    tbl text;
    keys text[] := '{}';
    defs text[] := '{}';
    owners text[] := '{}';
    reference text[] := ARRAY['context', 'principal', 'principal_grant', 'api_key'];
    todo text[];
    i integer;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
        RETURN;
    END IF;
    PERFORM set_config('citus.enable_unsafe_triggers', 'on', true);
    -- existing rows are moved in this transaction: one connection per node, in order
    PERFORM set_config('citus.multi_shard_modify_mode', 'sequential', true);

    SELECT coalesce(array_agg(c.relname::text ORDER BY c.relname = 'memory_record' DESC,
                              c.relname), '{}')
      INTO todo
      FROM pg_class c
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'context_id' AND a.attnotnull
     WHERE c.relnamespace = 'public'::regnamespace
       AND c.relkind IN ('r', 'p') AND NOT c.relispartition
       AND c.relname <> ALL (reference)
       AND NOT EXISTS (SELECT 1 FROM pg_dist_partition p WHERE p.logicalrelid = c.oid);
    IF cardinality(todo) = 0
       AND NOT EXISTS (
           SELECT 1 FROM pg_class c
            WHERE c.relnamespace = 'public'::regnamespace AND c.relname = ANY (reference)
              AND NOT EXISTS (SELECT 1 FROM pg_dist_partition p WHERE p.logicalrelid = c.oid))
    THEN
        RETURN;
    END IF;

    -- the foreign keys among our tables (procrastinate's own stay as they are)
    FOR fk IN
        SELECT conrelid::regclass::text AS owner, conname, pg_get_constraintdef(oid) AS def
          FROM pg_constraint
         WHERE contype = 'f' AND connamespace = 'public'::regnamespace AND conparentid = 0
           AND conrelid::regclass::text NOT LIKE 'procrastinate%'
    LOOP
        owners := owners || fk.owner;
        keys := keys || fk.conname::text;
        defs := defs || fk.def;
        EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', fk.owner, fk.conname);
    END LOOP;

    FOREACH tbl IN ARRAY reference LOOP
        IF to_regclass(tbl) IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM pg_dist_partition WHERE logicalrelid = to_regclass(tbl)
        ) THEN
            PERFORM create_reference_table(tbl);
        END IF;
    END LOOP;

    FOREACH tbl IN ARRAY todo LOOP
        IF tbl = 'memory_record' THEN
            PERFORM create_distributed_table(tbl, 'context_id');
        ELSE
            PERFORM create_distributed_table(tbl, 'context_id', colocate_with => 'memory_record');
        END IF;
    END LOOP;

    FOR i IN 1 .. coalesce(array_length(keys, 1), 0) LOOP
        EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I %s', owners[i], keys[i], defs[i]);
    END LOOP;
END
$citus$;
