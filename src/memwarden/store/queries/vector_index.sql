-- Per-Context vector indexes (store/vector_index.py). A Context whose records pass a
-- threshold gets its own partial HNSW index over memory_record.embedding; a smaller one is
-- scanned exactly. The planner picks the index by itself when the query's Context is the
-- index's (search_vector is planned per call for that reason: store/batch.py).

-- contexts_needing_vector_index --
-- The Contexts that lack one of their own indexes (the catalog's and the reference table
-- `context`'s rows only: on Citus that answers on the coordinator). Which of them reached
-- the threshold is asked per Context (context_vector_profile's `due`, routed to the
-- Context's shard on Citus, which refuses a join of a distributed table with pg_index).
SELECT c.id AS context_id
FROM context c
WHERE NOT (
        EXISTS (SELECT 1 FROM pg_index i
                WHERE i.indexrelid
                      = to_regclass('memory_record_vec_' || replace(c.id::text, '-', ''))
                  AND i.indisvalid)
        AND EXISTS (SELECT 1 FROM pg_index i
                    WHERE i.indexrelid = to_regclass('chunk_vec_' || replace(c.id::text, '-', ''))
                      AND i.indisvalid)
      )
ORDER BY c.id

-- context_vector_indexes --
-- Each lives on the partition that holds its Context (0022), so every leaf is looked at.
SELECT i.indexrelid::regclass::text AS name, i.indisvalid AS valid
FROM pg_index i
WHERE (i.indrelid IN (SELECT relid FROM pg_partition_tree('memory_record'))
       AND i.indexrelid::regclass::text LIKE 'memory\_record\_vec\_%%')
   OR (i.indrelid IN (SELECT relid FROM pg_partition_tree('chunk'))
       AND i.indexrelid::regclass::text LIKE 'chunk\_vec\_%%')
ORDER BY 1

-- context_partition --
-- The leaf of a table hash-partitioned by context_id (0022) that holds a Context's rows: the
-- one whose bound the Context's id satisfies. No row for a table that is not partitioned.
SELECT c.relname AS name
FROM pg_inherits i
JOIN pg_class c ON c.oid = i.inhrelid
CROSS JOIN LATERAL regexp_match(pg_get_expr(c.relpartbound, c.oid),
                                'modulus (\d+), remainder (\d+)') AS b(m)
WHERE i.inhparent = %(table)s::regclass
  AND satisfies_hash_partition(i.inhparent, b.m[1]::int, b.m[2]::int, %(context_id)s::uuid)

-- drop_context_vector_index --
DROP INDEX CONCURRENTLY IF EXISTS {name}

-- set_statement_timeout --
-- This session's statement timeout set to `timeout` (ms, '0': none); the one it had before
-- (store/vector_index.py: an index build runs without the pool's timeout).
-- (read in a CTE first: the select list's order of evaluation is not promised).
WITH before AS MATERIALIZED (SELECT current_setting('statement_timeout') AS previous)
SELECT previous, set_config('statement_timeout', %(timeout)s, false) AS timeout
FROM before

-- create_context_vector_index --
-- On the Context's partition of memory_record (context_partition): an index on the parent
-- would be made on every partition.
CREATE INDEX CONCURRENTLY IF NOT EXISTS {name} ON {table}
USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)
WHERE context_id = {context_id}::uuid

-- create_context_chunk_index --
CREATE INDEX CONCURRENTLY IF NOT EXISTS {name} ON {table}
USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)
WHERE context_id = {context_id}::uuid

-- session_vector_settings --
-- Every pooled connection, once: an HNSW walk keeps 100 candidates per step unless the
-- statement before it set another depth (recall sets one per Context size: store/
-- vector_index.py walk_depth, measured in docs/benchmarks.md) and may go on past them
-- (pgvector's iterative scan; results re-sorted by the caller). No parallel workers:
-- request statements are short, and starting a worker cost more than it saved (28 ms on a
-- busy 2-core machine for a scan that did not even run). Random reads priced as on an SSD
-- (1.1 instead of the stock 4, which assumes spinning disks): at the stock price the planner
-- read and sorted every chunk of a Context with 2,500 chunks (4.8 ms) rather than walk the
-- Context's chunk index (2.1 ms); docs/benchmarks.md.
SELECT set_config('hnsw.iterative_scan', 'relaxed_order', false),
       set_config('hnsw.ef_search', '100', false),
       set_config('max_parallel_workers_per_gather', '0', false),
       set_config('random_page_cost', '1.1', false)

-- context_vector_profile --
-- One Context's own record and chunk indexes: the rows each holds (pg_class.reltuples, set
-- by the build and kept by vacuum; -1 before either), null for an index it lacks or whose
-- build has not finished. Recall picks its statements and walk depth from this. `due`: the
-- Context lacks one of them and holds at least `threshold` embedded records (counting stops
-- there, an index range scan; not counted at all when it has both or `threshold` is null),
-- so recall asks for the build (retrieval/indexing.py) instead of waiting for the job's tick.
WITH found AS (
    SELECT (SELECT c.reltuples FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
            WHERE c.oid = to_regclass(%(records)s) AND i.indisvalid) AS records,
           (SELECT c.reltuples FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
            WHERE c.oid = to_regclass(%(chunks)s) AND i.indisvalid) AS chunks
)
SELECT records, chunks,
       CASE WHEN %(threshold)s::int IS NOT NULL AND (records IS NULL OR chunks IS NULL)
            THEN (SELECT count(*) FROM (SELECT 1 FROM memory_record r
                                        WHERE r.context_id = %(context_id)s
                                          AND r.embedding IS NOT NULL
                                        LIMIT %(threshold)s::int) s) >= %(threshold)s::int
            ELSE false
       END AS due
FROM found

-- set_walk_depth --
-- How many candidates an HNSW walk keeps per step on this connection, for the statements
-- that follow it (store/vector_index.py: walk_depth).
SELECT set_config('hnsw.ef_search', %(ef_search)s, false) AS ef_search

-- set_plan_cache_mode --
-- Generic plans for the statements that follow it ('force_generic_plan'), or back to the
-- plan cache's own choice ('auto'), on this connection or (`local`) until the transaction
-- ends. store/batch.py sets and resets it around GENERIC; write transactions set it for
-- all their statements (store/db.py).
SELECT set_config('plan_cache_mode', %(mode)s, %(local)s) AS plan_cache_mode
