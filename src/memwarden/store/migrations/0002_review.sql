-- Review and serving: the SQL twin of memwarden.domain.eligibility, used by every read.
--
-- memory_block_reason() is the record-local gate; its precedence matches the pure rule:
-- deleted, rejected, held, superseded, invalidated (validity interval closed), expired.
-- Simple SQL functions are inlined by the planner, so callers pay nothing for the indirection.
CREATE FUNCTION memory_block_reason(
    serving serving_state,
    review_disposition text,
    expires_at timestamptz,
    valid_to timestamptz,
    at timestamptz
) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
        WHEN serving = 'deleted' THEN 'deleted'
        WHEN review_disposition IS NOT DISTINCT FROM 'rejected' THEN 'rejected'
        WHEN serving = 'held' THEN 'held'
        WHEN serving = 'superseded' THEN 'superseded'
        WHEN valid_to IS NOT NULL AND valid_to <= at THEN 'invalidated'
        WHEN expires_at IS NOT NULL AND expires_at <= at THEN 'expired'
    END
$$;

-- Whether every transitive source (derived_from, at most 16 levels) passes the record-local
-- gate. Ids that name no memory record in the Context (purged, or not a record) do not block.
CREATE FUNCTION memory_sources_servable(ctx uuid, sources uuid[], at timestamptz)
RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS $$
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
        WHERE memory_block_reason(r.serving, r.review_disposition, r.expires_at, r.valid_to, at)
              IS NOT NULL
    )
$$;

-- The serving gate: the record itself and its transitive sources.
CREATE FUNCTION memory_servable(
    ctx uuid,
    serving serving_state,
    review_disposition text,
    expires_at timestamptz,
    valid_to timestamptz,
    derived_from uuid[],
    at timestamptz
) RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT memory_block_reason(serving, review_disposition, expires_at, valid_to, at) IS NULL
       AND (cardinality(derived_from) = 0 OR memory_sources_servable(ctx, derived_from, at))
$$;

-- Whether a grant or request prefix covers a scope path, segment by segment ('' = all).
CREATE FUNCTION scope_covers(prefix text, path text)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT prefix = '' OR path = prefix OR starts_with(path, prefix || '/')
$$;

-- Filter-only listings read the newest records first.
CREATE INDEX memory_record_modified ON memory_record (context_id, modified_at DESC, id DESC);
