-- On Citus, the SQL functions that read memory_record from inside a statement become
-- PL/pgSQL with the same bodies (docs/scale.md#distribution). On a plain PostgreSQL
-- (no `citus` extension) nothing changes: the SQL versions stay, and stay inlinable.
--
-- A statement pinned to a Context runs on the worker that holds the Context's shards, and
-- there the serving gate calls memory_sources_servable (a derived record is served only
-- while its sources are), which reads memory_record again. On a worker memory_record is a
-- Citus table, and Citus cannot plan a SQL function's statement that binds the function's
-- parameters ("could not create distributed plan ... parameters in SQL functions"); a
-- PL/pgSQL function passes them as values, and the nested statement, pinned to the same
-- Context, runs on the co-located shard of the same node. Nested execution is allowed for
-- these functions only (`SET citus.allow_nested_distributed_execution`), since what they
-- read is always the caller's own Context on the caller's node.
DO $citus$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
        RETURN;
    END IF;
    -- run again at every migrate on Citus (store/migrate.py): done once they are PL/pgSQL
    IF (SELECT count(*) FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
        WHERE l.lanname = 'plpgsql' AND p.pronamespace = 'public'::regnamespace
          AND p.proname IN ('memory_sources_servable', 'memory_sources_servable_at',
                            'memory_state_at')) = 3 THEN
        RETURN;
    END IF;

    CREATE OR REPLACE FUNCTION memory_sources_servable(ctx uuid, sources uuid[], at timestamptz)
    RETURNS boolean
    LANGUAGE plpgsql STABLE PARALLEL SAFE
    SET citus.allow_nested_distributed_execution = on
    AS $fn$
    BEGIN
        RETURN (
            WITH RECURSIVE walk(id, depth) AS (
                SELECT s, 1 FROM unnest(sources) AS s
                UNION
                SELECT d, w.depth + 1
                FROM walk w
                JOIN memory_record r ON r.context_id = ctx AND r.id = w.id
                CROSS JOIN LATERAL unnest(r.derived_from) AS d
                WHERE w.depth < 16
            )
            SELECT NOT EXISTS (
                SELECT 1
                FROM walk w
                JOIN memory_record r ON r.context_id = ctx AND r.id = w.id
                WHERE memory_block_reason(r.serving, r.review_disposition, r.expires_at,
                                          r.valid_to, at) IS NOT NULL
            ));
    END
    $fn$;

    CREATE OR REPLACE FUNCTION memory_state_at(ctx uuid, rid uuid, at timestamptz)
    RETURNS TABLE(serving serving_state, review_disposition text, expires_at timestamptz,
                  valid_to timestamptz, derived_from uuid[], known boolean)
    LANGUAGE plpgsql STABLE PARALLEL SAFE
    SET citus.allow_nested_distributed_execution = on
    AS $fn$
    BEGIN
        RETURN QUERY
        SELECT CASE WHEN r.serving::text = 'erased' THEN r.serving
                    WHEN p.seq IS NULL THEN r.serving ELSE p.serving END,
               CASE WHEN p.seq IS NULL THEN r.review_disposition ELSE p.review_disposition END,
               CASE WHEN p.seq IS NULL THEN r.expires_at ELSE p.expires_at END,
               CASE WHEN p.seq IS NULL THEN r.valid_to ELSE p.valid_to END,
               CASE WHEN p.seq IS NULL THEN r.derived_from ELSE p.derived_from END,
               coalesce(p.known, true) AND r.created_at <= at
        FROM memory_record r
        LEFT JOIN LATERAL (
            SELECT * FROM memory_record_past p
            WHERE p.context_id = r.context_id AND p.record_id = r.id AND p.sys_to > at
            ORDER BY p.sys_to, p.seq
            LIMIT 1) p ON true
        WHERE r.context_id = ctx AND r.id = rid;
    END
    $fn$;

    CREATE OR REPLACE FUNCTION memory_sources_servable_at(ctx uuid, sources uuid[],
                                                          at timestamptz)
    RETURNS boolean
    LANGUAGE plpgsql STABLE PARALLEL SAFE
    SET citus.allow_nested_distributed_execution = on
    AS $fn$
    BEGIN
        RETURN (
            WITH RECURSIVE walk(id, depth) AS (
                SELECT s, 1 FROM unnest(sources) AS s
                UNION
                SELECT d, w.depth + 1
                FROM walk w
                CROSS JOIN LATERAL memory_state_at(ctx, w.id, at) st
                CROSS JOIN LATERAL unnest(st.derived_from) AS d
                WHERE w.depth < 16
            )
            SELECT NOT EXISTS (
                SELECT 1
                FROM walk w
                LEFT JOIN LATERAL memory_state_at(ctx, w.id, at) st ON true
                WHERE st.known IS NOT TRUE
                   OR memory_block_reason(st.serving, st.review_disposition, st.expires_at,
                                          st.valid_to, at) IS NOT NULL
            ));
    END
    $fn$;
END
$citus$;
