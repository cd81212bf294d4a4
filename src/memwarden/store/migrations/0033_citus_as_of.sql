-- On Citus, memory_as_of (0029: every record of a Context as it stood at a moment) becomes
-- PL/pgSQL with the same body (docs/scale.md#distribution). On a plain PostgreSQL (no
-- `citus` extension) nothing changes: the SQL version stays, and stays inlined into the
-- as-of reads.
--
-- Citus plans a statement before PostgreSQL inlines a set-returning SQL function, so the
-- as-of reads (`FROM memory_as_of(%(context_id)s, %(at)s)`, queries/recall.sql) reached
-- Citus as a SQL function whose body binds its parameters, which it refuses ("parameterized
-- queries for SQL functions referencing distributed tables are not supported"). PL/pgSQL
-- passes them as values: the body, pinned to the caller's Context, is one routed
-- statement. It returns the Context's whole set of records as they stood then, which the
-- read then filters, so an as-of read on Citus costs a read of the Context's records (on
-- one PostgreSQL the filters are planned into the scan). Nested execution is allowed for
-- this function only, as for the functions of 0031: what it reads is always the caller's
-- own Context. Run again at every migrate on Citus (store/migrate.py): done once it is
-- PL/pgSQL.
DO $citus$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
        RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
               WHERE l.lanname = 'plpgsql' AND p.pronamespace = 'public'::regnamespace
                 AND p.proname = 'memory_as_of') THEN
        RETURN;
    END IF;

    CREATE OR REPLACE FUNCTION memory_as_of(ctx uuid, at timestamptz)
    RETURNS TABLE (context_id uuid, id uuid, kind text, revision integer, memory_category text,
                   content jsonb, body text, tsv tsvector, scope_path text, visibility text,
                   owner_subject text, serving serving_state, review_disposition text,
                   valid_from timestamptz, valid_to timestamptz, superseded_by uuid,
                   expires_at timestamptz, derived_from uuid[], entity_id uuid,
                   object_entity_id uuid, attr_key text, norm_name text, source_kind text,
                   source_ref uuid, created_at timestamptz, known boolean, past boolean,
                   embedding vector)
    LANGUAGE plpgsql STABLE PARALLEL SAFE
    SET citus.allow_nested_distributed_execution = on
    AS $fn$
    BEGIN
        RETURN QUERY
        SELECT r.context_id, r.id, r.kind,
               CASE WHEN p.seq IS NULL THEN r.revision ELSE p.revision END,
               CASE WHEN p.seq IS NULL THEN r.memory_category ELSE p.memory_category END,
               CASE WHEN p.seq IS NULL THEN r.content ELSE p.content END,
               CASE WHEN p.seq IS NULL THEN r.body ELSE p.body END,
               CASE WHEN p.seq IS NULL THEN r.tsv ELSE p.tsv END,
               CASE WHEN p.seq IS NULL THEN r.scope_path ELSE p.scope_path END,
               CASE WHEN p.seq IS NULL THEN r.visibility ELSE p.visibility END,
               CASE WHEN p.seq IS NULL THEN r.owner_subject ELSE p.owner_subject END,
               CASE WHEN p.seq IS NULL THEN r.serving ELSE p.serving END,
               CASE WHEN p.seq IS NULL THEN r.review_disposition ELSE p.review_disposition END,
               CASE WHEN p.seq IS NULL THEN r.valid_from ELSE p.valid_from END,
               CASE WHEN p.seq IS NULL THEN r.valid_to ELSE p.valid_to END,
               CASE WHEN p.seq IS NULL THEN r.superseded_by ELSE p.superseded_by END,
               CASE WHEN p.seq IS NULL THEN r.expires_at ELSE p.expires_at END,
               CASE WHEN p.seq IS NULL THEN r.derived_from ELSE p.derived_from END,
               CASE WHEN p.seq IS NULL THEN r.entity_id ELSE p.entity_id END,
               CASE WHEN p.seq IS NULL THEN r.object_entity_id ELSE p.object_entity_id END,
               CASE WHEN p.seq IS NULL THEN r.attr_key ELSE p.attr_key END,
               CASE WHEN p.seq IS NULL THEN r.norm_name ELSE p.norm_name END,
               CASE WHEN p.seq IS NULL THEN r.source_kind ELSE p.source_kind END,
               CASE WHEN p.seq IS NULL THEN r.source_ref ELSE p.source_ref END,
               r.created_at,
               coalesce(p.known, true),
               p.seq IS NOT NULL,
               CASE WHEN p.seq IS NULL AND r.embedding_revision = r.revision THEN r.embedding END
        FROM memory_record r
        LEFT JOIN (
            SELECT DISTINCT ON (p.record_id) p.*
            FROM memory_record_past p
            WHERE p.context_id = ctx AND p.sys_to > at
            ORDER BY p.record_id, p.sys_to, p.seq) p ON p.record_id = r.id
        WHERE r.context_id = ctx AND r.created_at <= at AND r.serving::text <> 'erased';
    END
    $fn$;
END
$citus$;
