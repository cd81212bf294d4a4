-- The full current schema, as the migrations build it (pg_dump, normalised).
-- Generated; do not edit. Regenerate after adding a migration:
--   python -m tests.migration.dump_schema > src/memwarden/store/schema.sql

CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public;

COMMENT ON EXTENSION vector IS 'vector data type and ivfflat and hnsw access methods';

CREATE TYPE public.procrastinate_job_event_type AS ENUM (
    'deferred',
    'started',
    'deferred_for_retry',
    'failed',
    'succeeded',
    'cancelled',
    'abort_requested',
    'aborted',
    'scheduled',
    'retried'
);

CREATE TYPE public.procrastinate_job_status AS ENUM (
    'todo',
    'doing',
    'succeeded',
    'failed',
    'cancelled',
    'aborting',
    'aborted'
);

CREATE TYPE public.procrastinate_job_to_defer_v1 AS (
	queue_name character varying,
	task_name character varying,
	priority integer,
	lock text,
	queueing_lock text,
	args jsonb,
	scheduled_at timestamp with time zone
);

CREATE TYPE public.serving_state AS ENUM (
    'live',
    'held',
    'superseded',
    'deleted',
    'erased'
);

CREATE FUNCTION public.audit_event_append_only() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    IF TG_OP = 'DELETE' AND current_setting('memwarden.forget_denied', true) = 'on' THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'audit_event is append-only';
END $$;

CREATE FUNCTION public.context_lexeme(context_id uuid) RETURNS tsvector
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN (('_'::text || replace((context_id)::text, '-'::text, ''::text)))::tsvector;

CREATE FUNCTION public.context_words(context_id uuid, words tsquery) RETURNS tsquery
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN (numnode(words) > 0) THEN (words && (('_'::text || replace((context_id)::text, '-'::text, ''::text)))::tsquery) ELSE NULL::tsquery END;

CREATE FUNCTION public.memory_as_of(ctx uuid, at timestamp with time zone) RETURNS TABLE(context_id uuid, id uuid, kind text, revision integer, memory_category text, content jsonb, body text, tsv tsvector, scope_path text, visibility text, owner_subject text, serving public.serving_state, review_disposition text, valid_from timestamp with time zone, valid_to timestamp with time zone, superseded_by uuid, expires_at timestamp with time zone, derived_from uuid[], entity_id uuid, object_entity_id uuid, attr_key text, norm_name text, source_kind text, source_ref uuid, created_at timestamp with time zone, known boolean, past boolean, embedding public.vector)
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
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
    WHERE r.context_id = ctx AND r.created_at <= at AND r.serving::text <> 'erased'
$$;

CREATE FUNCTION public.memory_block_reason(serving public.serving_state, review_disposition text, expires_at timestamp with time zone, valid_to timestamp with time zone, at timestamp with time zone) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT CASE
        WHEN serving >= 'deleted' THEN 'deleted'
        WHEN review_disposition IS NOT DISTINCT FROM 'rejected' THEN 'rejected'
        WHEN serving = 'held' THEN 'held'
        WHEN serving = 'superseded' THEN 'superseded'
        WHEN valid_to IS NOT NULL AND valid_to <= at THEN 'invalidated'
        WHEN expires_at IS NOT NULL AND expires_at <= at THEN 'expired'
    END
$$;

CREATE FUNCTION public.memory_past_at(ctx uuid, serving public.serving_state, review_disposition text, expires_at timestamp with time zone, valid_to timestamp with time zone, derived_from uuid[], known boolean, at timestamp with time zone) RETURNS boolean
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
    SELECT known
       AND memory_block_reason(serving, review_disposition, expires_at, valid_to, at)
           IN ('superseded', 'invalidated')
       AND (cardinality(derived_from) = 0 OR memory_sources_servable_at(ctx, derived_from, at))
$$;

CREATE FUNCTION public.memory_readable(scope_path text, visibility text, owner_subject text, prefixes text[], subject text) RETURNS boolean
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
    SELECT (visibility = 'shared' OR owner_subject = subject)
       AND cardinality(prefixes) > 0
       AND ('' = ANY(prefixes)
            OR (scope_path || '/') ^@ ANY(
                string_to_array(array_to_string(prefixes, E'/\x1f') || '/', E'\x1f')))
$$;

CREATE FUNCTION public.memory_record_keep_past() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    erasing boolean := NEW.serving::text = 'erased';
BEGIN
    IF erasing THEN
        UPDATE memory_record_past
        SET content = NULL, body = '', norm_name = NULL, attr_key = NULL
        WHERE context_id = NEW.context_id AND record_id = NEW.id
          AND (content IS NOT NULL OR body <> '');
    END IF;
    INSERT INTO memory_record_past (
        context_id, record_id, sys_to, revision, memory_category, content, body, scope_path,
        visibility, owner_subject, serving, review_disposition, valid_from, valid_to,
        superseded_by, expires_at, derived_from, entity_id, object_entity_id, attr_key,
        norm_name, source_kind, source_ref)
    VALUES (
        OLD.context_id, OLD.id, now(), OLD.revision, OLD.memory_category,
        CASE WHEN erasing THEN NULL ELSE OLD.content END,
        CASE WHEN erasing THEN '' ELSE OLD.body END,
        OLD.scope_path, OLD.visibility, OLD.owner_subject, OLD.serving,
        OLD.review_disposition, OLD.valid_from, OLD.valid_to, OLD.superseded_by,
        OLD.expires_at, OLD.derived_from, OLD.entity_id, OLD.object_entity_id,
        CASE WHEN erasing THEN NULL ELSE OLD.attr_key END,
        CASE WHEN erasing THEN NULL ELSE OLD.norm_name END,
        OLD.source_kind, OLD.source_ref);
    RETURN NULL;
END
$$;

CREATE FUNCTION public.memory_revision_cause_of(op text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT CASE op
        WHEN 'create' THEN 'write'
        WHEN 'update' THEN 'correction'
        WHEN 'delete' THEN 'delete'
        WHEN 'review' THEN 'review_decision'
        WHEN 'release' THEN 'review_decision'
        WHEN 'restore' THEN 'restore'
        WHEN 'erase' THEN 'erasure'
    END
$$;

CREATE FUNCTION public.memory_revision_fill() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    rec record;
BEGIN
    SELECT r.revision, r.valid_from, r.valid_to, r.superseded_by INTO rec
    FROM memory_record r WHERE r.context_id = NEW.context_id AND r.id = NEW.record_id;
    NEW.cause := coalesce(NEW.cause, memory_revision_cause_of(NEW.op), 'unknown');
    IF rec.revision IS NOT DISTINCT FROM NEW.revision THEN
        NEW.valid_from := coalesce(NEW.valid_from, rec.valid_from);
        NEW.valid_to := coalesce(NEW.valid_to, rec.valid_to);
        NEW.replaced_by := coalesce(NEW.replaced_by, rec.superseded_by);
    END IF;
    RETURN NEW;
END
$$;

CREATE FUNCTION public.memory_servable(ctx uuid, serving public.serving_state, review_disposition text, expires_at timestamp with time zone, valid_to timestamp with time zone, derived_from uuid[], at timestamp with time zone) RETURNS boolean
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
    SELECT memory_block_reason(serving, review_disposition, expires_at, valid_to, at) IS NULL
       AND (cardinality(derived_from) = 0 OR memory_sources_servable(ctx, derived_from, at))
$$;

CREATE FUNCTION public.memory_servable_at(ctx uuid, serving public.serving_state, review_disposition text, expires_at timestamp with time zone, valid_to timestamp with time zone, derived_from uuid[], known boolean, at timestamp with time zone) RETURNS boolean
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
    SELECT known
       AND memory_block_reason(serving, review_disposition, expires_at, valid_to, at) IS NULL
       AND (cardinality(derived_from) = 0 OR memory_sources_servable_at(ctx, derived_from, at))
$$;

CREATE FUNCTION public.memory_sources_servable(ctx uuid, sources uuid[], at timestamp with time zone) RETURNS boolean
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
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

CREATE FUNCTION public.memory_sources_servable_at(ctx uuid, sources uuid[], at timestamp with time zone) RETURNS boolean
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
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
    )
$$;

CREATE FUNCTION public.memory_state_at(ctx uuid, rid uuid, at timestamp with time zone) RETURNS TABLE(serving public.serving_state, review_disposition text, expires_at timestamp with time zone, valid_to timestamp with time zone, derived_from uuid[], known boolean)
    LANGUAGE sql STABLE PARALLEL SAFE
    AS $$
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
    WHERE r.context_id = ctx AND r.id = rid
$$;

CREATE FUNCTION public.procrastinate_cancel_job_v1(job_id bigint, abort boolean, delete_job boolean) RETURNS bigint
    LANGUAGE plpgsql
    AS $$
DECLARE
    _job_id bigint;
BEGIN
    IF delete_job THEN
        DELETE FROM procrastinate_jobs
        WHERE id = job_id AND status = 'todo'
        RETURNING id INTO _job_id;
    END IF;
    IF _job_id IS NULL THEN
        IF abort THEN
            UPDATE procrastinate_jobs
            SET abort_requested = true,
                status = CASE status
                    WHEN 'todo' THEN 'cancelled'::procrastinate_job_status ELSE status
                END
            WHERE id = job_id AND status IN ('todo', 'doing')
            RETURNING id INTO _job_id;
        ELSE
            UPDATE procrastinate_jobs
            SET status = 'cancelled'::procrastinate_job_status
            WHERE id = job_id AND status = 'todo'
            RETURNING id INTO _job_id;
        END IF;
    END IF;
    RETURN _job_id;
END;
$$;

CREATE FUNCTION public.procrastinate_defer_jobs_v1(jobs public.procrastinate_job_to_defer_v1[]) RETURNS bigint[]
    LANGUAGE plpgsql
    AS $$
DECLARE
    job_ids bigint[];
BEGIN
    WITH inserted_jobs AS (
        INSERT INTO procrastinate_jobs (queue_name, task_name, priority, lock, queueing_lock, args, scheduled_at)
        SELECT (job).queue_name,
               (job).task_name,
               (job).priority,
               (job).lock,
               (job).queueing_lock,
               (job).args,
               (job).scheduled_at
        FROM unnest(jobs) AS job
        RETURNING id
    )
    SELECT array_agg(id) FROM inserted_jobs INTO job_ids;

    RETURN job_ids;
END;
$$;

CREATE FUNCTION public.procrastinate_defer_periodic_job_v2(_queue_name character varying, _lock character varying, _queueing_lock character varying, _task_name character varying, _priority integer, _periodic_id character varying, _defer_timestamp bigint, _args jsonb) RETURNS bigint
    LANGUAGE plpgsql
    AS $$
DECLARE
	_job_id bigint;
	_defer_id bigint;
BEGIN
    INSERT
        INTO procrastinate_periodic_defers (task_name, periodic_id, defer_timestamp)
        VALUES (_task_name, _periodic_id, _defer_timestamp)
        ON CONFLICT DO NOTHING
        RETURNING id into _defer_id;

    IF _defer_id IS NULL THEN
        RETURN NULL;
    END IF;

    UPDATE procrastinate_periodic_defers
        SET job_id = (
            SELECT COALESCE((
                SELECT unnest(procrastinate_defer_jobs_v1(
                    ARRAY[
                        ROW(
                            _queue_name,
                            _task_name,
                            _priority,
                            _lock,
                            _queueing_lock,
                            _args,
                            NULL::timestamptz
                        )
                    ]::procrastinate_job_to_defer_v1[]
                ))
            ), NULL)
        )
        WHERE id = _defer_id
        RETURNING job_id INTO _job_id;

    DELETE
        FROM procrastinate_periodic_defers
        USING (
            SELECT id
            FROM procrastinate_periodic_defers
            WHERE procrastinate_periodic_defers.task_name = _task_name
            AND procrastinate_periodic_defers.periodic_id = _periodic_id
            AND procrastinate_periodic_defers.defer_timestamp < _defer_timestamp
            ORDER BY id
            FOR UPDATE
        ) to_delete
        WHERE procrastinate_periodic_defers.id = to_delete.id;

    RETURN _job_id;
END;
$$;

CREATE TABLE public.procrastinate_jobs (
    id bigint NOT NULL,
    queue_name character varying(128) NOT NULL,
    task_name character varying(128) NOT NULL,
    priority integer DEFAULT 0 NOT NULL,
    lock text,
    queueing_lock text,
    args jsonb DEFAULT '{}'::jsonb NOT NULL,
    status public.procrastinate_job_status DEFAULT 'todo'::public.procrastinate_job_status NOT NULL,
    scheduled_at timestamp with time zone,
    attempts integer DEFAULT 0 NOT NULL,
    abort_requested boolean DEFAULT false NOT NULL,
    worker_id bigint,
    CONSTRAINT check_not_todo_abort_requested CHECK ((NOT ((status = 'todo'::public.procrastinate_job_status) AND (abort_requested = true))))
);

CREATE FUNCTION public.procrastinate_fetch_job_v2(target_queue_names character varying[], p_worker_id bigint) RETURNS public.procrastinate_jobs
    LANGUAGE plpgsql
    AS $$
DECLARE
	found_jobs procrastinate_jobs;
BEGIN
    WITH candidate AS (
        SELECT jobs.*
            FROM procrastinate_jobs AS jobs
            WHERE
                -- reject the job if its lock has earlier or higher priority jobs
                NOT EXISTS (
                    SELECT 1
                        FROM procrastinate_jobs AS other_jobs
                        WHERE
                            jobs.lock IS NOT NULL
                            AND other_jobs.lock = jobs.lock
                            AND (
                                -- job with same lock is already running
                                other_jobs.status = 'doing'
                                OR
                                -- job with same lock is waiting and has higher priority (or same priority but was queued first)
                                (
                                    other_jobs.status = 'todo'
                                    AND (
                                        other_jobs.priority > jobs.priority
                                        OR (
                                        other_jobs.priority = jobs.priority
                                        AND other_jobs.id < jobs.id
                                        )
                                    )
                                )
                            )
                )
                AND jobs.status = 'todo'
                AND (target_queue_names IS NULL OR jobs.queue_name = ANY( target_queue_names ))
                AND (jobs.scheduled_at IS NULL OR jobs.scheduled_at <= now())
            ORDER BY jobs.priority DESC, jobs.id ASC LIMIT 1
            FOR UPDATE OF jobs SKIP LOCKED
    )
    UPDATE procrastinate_jobs
        SET status = 'doing', worker_id = p_worker_id
        FROM candidate
        WHERE procrastinate_jobs.id = candidate.id
        RETURNING procrastinate_jobs.* INTO found_jobs;

 RETURN found_jobs;
END;
$$;

CREATE FUNCTION public.procrastinate_finish_job_v1(job_id bigint, end_status public.procrastinate_job_status, delete_job boolean) RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
    _job_id bigint;
BEGIN
    IF end_status NOT IN ('succeeded', 'failed', 'aborted') THEN
        RAISE 'End status should be either "succeeded", "failed" or "aborted" (job id: %)', job_id;
    END IF;
    IF delete_job THEN
        DELETE FROM procrastinate_jobs
        WHERE id = job_id AND status IN ('todo', 'doing')
        RETURNING id INTO _job_id;
    ELSE
        UPDATE procrastinate_jobs
        SET status = end_status,
            abort_requested = false,
            attempts = CASE status
                WHEN 'doing' THEN attempts + 1 ELSE attempts
            END
        WHERE id = job_id AND status IN ('todo', 'doing')
        RETURNING id INTO _job_id;
    END IF;
    IF _job_id IS NULL THEN
        RAISE 'Job was not found or not in "doing" or "todo" status (job id: %)', job_id;
    END IF;
END;
$$;

CREATE FUNCTION public.procrastinate_notify_queue_abort_job_v1() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    payload TEXT;
BEGIN
    SELECT json_build_object('type', 'abort_job_requested', 'job_id', NEW.id)::text INTO payload;
	PERFORM pg_notify('procrastinate_queue_v1#' || NEW.queue_name, payload);
	PERFORM pg_notify('procrastinate_any_queue_v1', payload);
	RETURN NEW;
END;
$$;

CREATE FUNCTION public.procrastinate_notify_queue_job_inserted_v1() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    payload TEXT;
BEGIN
    SELECT json_build_object('type', 'job_inserted', 'job_id', NEW.id)::text INTO payload;
	PERFORM pg_notify('procrastinate_queue_v1#' || NEW.queue_name, payload);
	PERFORM pg_notify('procrastinate_any_queue_v1', payload);
	RETURN NEW;
END;
$$;

CREATE FUNCTION public.procrastinate_prune_stalled_workers_v1(seconds_since_heartbeat double precision) RETURNS TABLE(worker_id bigint)
    LANGUAGE plpgsql
    AS $$
BEGIN
    RETURN QUERY
    DELETE FROM procrastinate_workers
    WHERE last_heartbeat < NOW() - (seconds_since_heartbeat || 'SECOND')::INTERVAL
    RETURNING procrastinate_workers.id;
END;
$$;

CREATE FUNCTION public.procrastinate_register_worker_v1() RETURNS TABLE(worker_id bigint)
    LANGUAGE plpgsql
    AS $$
BEGIN
    RETURN QUERY
    INSERT INTO procrastinate_workers DEFAULT VALUES
    RETURNING procrastinate_workers.id;
END;
$$;

CREATE FUNCTION public.procrastinate_retry_job_v1(job_id bigint, retry_at timestamp with time zone, new_priority integer, new_queue_name character varying, new_lock character varying) RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
    _job_id bigint;
    _abort_requested boolean;
BEGIN
    SELECT abort_requested FROM procrastinate_jobs
    WHERE id = job_id AND status = 'doing'
    FOR UPDATE
    INTO _abort_requested;
    IF _abort_requested THEN
        UPDATE procrastinate_jobs
        SET status = 'failed'::procrastinate_job_status
        WHERE id = job_id AND status = 'doing'
        RETURNING id INTO _job_id;
    ELSE
        UPDATE procrastinate_jobs
        SET status = 'todo'::procrastinate_job_status,
            attempts = attempts + 1,
            scheduled_at = retry_at,
            priority = COALESCE(new_priority, priority),
            queue_name = COALESCE(new_queue_name, queue_name),
            lock = COALESCE(new_lock, lock)
        WHERE id = job_id AND status = 'doing'
        RETURNING id INTO _job_id;
    END IF;

    IF _job_id IS NULL THEN
        RAISE 'Job was not found or not in "doing" status (job id: %)', job_id;
    END IF;
END;
$$;

CREATE FUNCTION public.procrastinate_retry_job_v2(job_id bigint, retry_at timestamp with time zone, new_priority integer, new_queue_name character varying, new_lock character varying) RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
    _job_id bigint;
    _abort_requested boolean;
    _current_status procrastinate_job_status;
BEGIN
    SELECT status, abort_requested FROM procrastinate_jobs
    WHERE id = job_id AND status IN ('doing', 'failed')
    FOR UPDATE
    INTO _current_status, _abort_requested;
    IF _current_status = 'doing' AND _abort_requested THEN
        UPDATE procrastinate_jobs
        SET status = 'failed'::procrastinate_job_status
        WHERE id = job_id AND status = 'doing'
        RETURNING id INTO _job_id;
    ELSE
        UPDATE procrastinate_jobs
        SET status = 'todo'::procrastinate_job_status,
            attempts = attempts + 1,
            scheduled_at = retry_at,
            priority = COALESCE(new_priority, priority),
            queue_name = COALESCE(new_queue_name, queue_name),
            lock = COALESCE(new_lock, lock)
        WHERE id = job_id AND status IN ('doing', 'failed')
        RETURNING id INTO _job_id;
    END IF;

    IF _job_id IS NULL THEN
        RAISE 'Job was not found or has an invalid status to retry (job id: %)', job_id;
    END IF;

END;
$$;

CREATE FUNCTION public.procrastinate_trigger_abort_requested_events_procedure_v1() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO procrastinate_events(job_id, type)
        VALUES (NEW.id, 'abort_requested'::procrastinate_job_event_type);
    RETURN NEW;
END;
$$;

CREATE FUNCTION public.procrastinate_trigger_function_scheduled_events_v1() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO procrastinate_events(job_id, type, at)
        VALUES (NEW.id, 'scheduled'::procrastinate_job_event_type, NEW.scheduled_at);

	RETURN NEW;
END;
$$;

CREATE FUNCTION public.procrastinate_trigger_function_status_events_insert_v1() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO procrastinate_events(job_id, type)
        VALUES (NEW.id, 'deferred'::procrastinate_job_event_type);
	RETURN NEW;
END;
$$;

CREATE FUNCTION public.procrastinate_trigger_function_status_events_update_v1() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    WITH t AS (
        SELECT CASE
            WHEN OLD.status = 'todo'::procrastinate_job_status
                AND NEW.status = 'doing'::procrastinate_job_status
                THEN 'started'::procrastinate_job_event_type
            WHEN OLD.status = 'doing'::procrastinate_job_status
                AND NEW.status = 'todo'::procrastinate_job_status
                THEN 'deferred_for_retry'::procrastinate_job_event_type
            WHEN OLD.status = 'doing'::procrastinate_job_status
                AND NEW.status = 'failed'::procrastinate_job_status
                THEN 'failed'::procrastinate_job_event_type
            WHEN OLD.status = 'doing'::procrastinate_job_status
                AND NEW.status = 'succeeded'::procrastinate_job_status
                THEN 'succeeded'::procrastinate_job_event_type
            WHEN OLD.status = 'todo'::procrastinate_job_status
                AND (
                    NEW.status = 'cancelled'::procrastinate_job_status
                    OR NEW.status = 'failed'::procrastinate_job_status
                    OR NEW.status = 'succeeded'::procrastinate_job_status
                )
                THEN 'cancelled'::procrastinate_job_event_type
            WHEN OLD.status = 'doing'::procrastinate_job_status
                AND NEW.status = 'aborted'::procrastinate_job_status
                THEN 'aborted'::procrastinate_job_event_type
            WHEN OLD.status = 'failed'::procrastinate_job_status
                AND NEW.status = 'todo'::procrastinate_job_status
                THEN 'retried'::procrastinate_job_event_type
            ELSE NULL
        END as event_type
    )
    INSERT INTO procrastinate_events(job_id, type)
        SELECT NEW.id, t.event_type
        FROM t
        WHERE t.event_type IS NOT NULL;
	RETURN NEW;
END;
$$;

CREATE FUNCTION public.procrastinate_unlink_periodic_defers_v1() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    UPDATE procrastinate_periodic_defers
    SET job_id = NULL
    WHERE job_id = OLD.id;
    RETURN OLD;
END;
$$;

CREATE FUNCTION public.procrastinate_unregister_worker_v1(worker_id bigint) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    DELETE FROM procrastinate_workers
    WHERE id = worker_id;
END;
$$;

CREATE FUNCTION public.procrastinate_update_heartbeat_v1(worker_id bigint) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    UPDATE procrastinate_workers
    SET last_heartbeat = NOW()
    WHERE id = worker_id;
END;
$$;

CREATE FUNCTION public.scope_covers(prefix text, path text) RETURNS boolean
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT prefix = '' OR path = prefix OR starts_with(path, prefix || '/')
$$;

CREATE FUNCTION public.webhook_enqueue(p_context uuid, p_kind text, p_event_id text, p_seq bigint, p_data jsonb, p_at timestamp with time zone) RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
    queued text := 'memwarden.webhooks_' || replace(p_context::text, '-', '');
BEGIN
    IF p_kind IS NULL THEN
        RETURN;
    END IF;
    INSERT INTO webhook_delivery (context_id, subscription_id, event_id, event_type, feed_seq,
                                  data, occurred_at)
    SELECT s.context_id, s.id, p_event_id, p_kind, p_seq, p_data, p_at
    FROM webhook_subscription s
    WHERE s.context_id = p_context AND p_kind = ANY (s.events)
    ON CONFLICT DO NOTHING;
    IF FOUND AND current_setting(queued, true) IS DISTINCT FROM 'yes' THEN
        PERFORM set_config(queued, 'yes', true);
        INSERT INTO procrastinate_jobs (queue_name, task_name, lock, args)
        VALUES ('webhooks', 'memwarden:webhooks_deliver', 'webhooks:' || p_context::text,
                jsonb_build_object('context_id', p_context::text));
    END IF;
END
$$;

CREATE FUNCTION public.webhook_feed_kind(entry_type text, serving text) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $$
    SELECT CASE entry_type
        WHEN 'created' THEN CASE WHEN serving = 'held' THEN 'held' ELSE 'created' END
        WHEN 'updated' THEN 'updated'
        WHEN 'restored' THEN 'updated'
        WHEN 'superseded' THEN 'superseded'
        WHEN 'deleted' THEN 'deleted'
        WHEN 'erased' THEN 'deleted'
        WHEN 'reviewed' THEN 'reviewed'
        WHEN 'released' THEN 'released'
    END
$$;

CREATE FUNCTION public.webhook_from_change_event() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    state text;
BEGIN
    -- Most Contexts subscribe to nothing, or not to this kind: leave before reading the
    -- record (the kind is one of two, as the record is held or not).
    IF NOT EXISTS (
        SELECT 1 FROM webhook_subscription
        WHERE context_id = NEW.context_id
          AND events && ARRAY[webhook_feed_kind(NEW.entry_type, 'live'),
                              webhook_feed_kind(NEW.entry_type, 'held')]
    ) THEN
        RETURN NULL;
    END IF;
    SELECT r.serving::text INTO state FROM memory_record r
    WHERE r.context_id = NEW.context_id AND r.id = NEW.record_id;
    PERFORM webhook_enqueue(
        NEW.context_id, webhook_feed_kind(NEW.entry_type, state), 'feed:' || NEW.seq, NEW.seq,
        jsonb_build_object('recordId', NEW.record_id, 'revision', NEW.revision,
                           'kind', NEW.kind, 'entryType', NEW.entry_type),
        NEW.created_at);
    RETURN NULL;
END
$$;

CREATE FUNCTION public.webhook_from_conflict() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM webhook_enqueue(
        NEW.context_id, 'hygiene_queued', 'conflict:' || NEW.id, NULL,
        jsonb_build_object('conflictId', NEW.id, 'recordA', NEW.record_a,
                           'recordB', NEW.record_b, 'verdict', NEW.verdict,
                           'origin', NEW.origin),
        NEW.created_at);
    RETURN NULL;
END
$$;

CREATE FUNCTION public.webhook_from_judgement() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM webhook_enqueue(
        NEW.context_id, 'judge_fail', 'judgement:' || NEW.id, NULL,
        jsonb_build_object('judgementId', NEW.id, 'gate', NEW.gate, 'reasons', NEW.reasons,
                           'source', NEW.source),
        NEW.created_at);
    RETURN NULL;
END
$$;

CREATE TABLE public.api_key (
    context_id uuid NOT NULL,
    id uuid NOT NULL,
    principal_id uuid NOT NULL,
    secret_hash bytea NOT NULL,
    capabilities text[] NOT NULL,
    scope_prefix text DEFAULT ''::text NOT NULL,
    expires_at timestamp with time zone,
    revoked_at timestamp with time zone,
    last_used_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.audit_event (
    context_id uuid,
    id uuid NOT NULL,
    actor_subject text NOT NULL,
    key_id uuid,
    action text NOT NULL,
    target_kind text,
    target_id uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.change_event (
    seq bigint NOT NULL,
    context_id uuid NOT NULL,
    record_id uuid,
    revision integer,
    kind text NOT NULL,
    entry_type text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.chunk (
    context_id uuid CONSTRAINT chunk_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT chunk_partitioned_id_not_null NOT NULL,
    turn_id uuid,
    document_id uuid,
    ordinal integer DEFAULT 0 CONSTRAINT chunk_partitioned_ordinal_not_null NOT NULL,
    text text CONSTRAINT chunk_partitioned_text_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
    embedding public.vector(384),
    scope_path text DEFAULT ''::text CONSTRAINT chunk_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT chunk_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT chunk_partitioned_owner_subject_not_null NOT NULL,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT chunk_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT chunk_partitioned_created_at_not_null NOT NULL,
    CONSTRAINT chunk_check CHECK (((turn_id IS NOT NULL) OR (document_id IS NOT NULL))),
    CONSTRAINT chunk_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
)
PARTITION BY HASH (context_id);

CREATE TABLE public.chunk_p00 (
    context_id uuid CONSTRAINT chunk_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT chunk_partitioned_id_not_null NOT NULL,
    turn_id uuid,
    document_id uuid,
    ordinal integer DEFAULT 0 CONSTRAINT chunk_partitioned_ordinal_not_null NOT NULL,
    text text CONSTRAINT chunk_partitioned_text_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
    embedding public.vector(384),
    scope_path text DEFAULT ''::text CONSTRAINT chunk_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT chunk_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT chunk_partitioned_owner_subject_not_null NOT NULL,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT chunk_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT chunk_partitioned_created_at_not_null NOT NULL,
    CONSTRAINT chunk_check CHECK (((turn_id IS NOT NULL) OR (document_id IS NOT NULL))),
    CONSTRAINT chunk_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
);

CREATE TABLE public.chunk_p01 (
    context_id uuid CONSTRAINT chunk_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT chunk_partitioned_id_not_null NOT NULL,
    turn_id uuid,
    document_id uuid,
    ordinal integer DEFAULT 0 CONSTRAINT chunk_partitioned_ordinal_not_null NOT NULL,
    text text CONSTRAINT chunk_partitioned_text_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
    embedding public.vector(384),
    scope_path text DEFAULT ''::text CONSTRAINT chunk_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT chunk_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT chunk_partitioned_owner_subject_not_null NOT NULL,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT chunk_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT chunk_partitioned_created_at_not_null NOT NULL,
    CONSTRAINT chunk_check CHECK (((turn_id IS NOT NULL) OR (document_id IS NOT NULL))),
    CONSTRAINT chunk_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
);

CREATE TABLE public.chunk_p02 (
    context_id uuid CONSTRAINT chunk_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT chunk_partitioned_id_not_null NOT NULL,
    turn_id uuid,
    document_id uuid,
    ordinal integer DEFAULT 0 CONSTRAINT chunk_partitioned_ordinal_not_null NOT NULL,
    text text CONSTRAINT chunk_partitioned_text_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
    embedding public.vector(384),
    scope_path text DEFAULT ''::text CONSTRAINT chunk_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT chunk_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT chunk_partitioned_owner_subject_not_null NOT NULL,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT chunk_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT chunk_partitioned_created_at_not_null NOT NULL,
    CONSTRAINT chunk_check CHECK (((turn_id IS NOT NULL) OR (document_id IS NOT NULL))),
    CONSTRAINT chunk_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
);

CREATE TABLE public.chunk_p03 (
    context_id uuid CONSTRAINT chunk_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT chunk_partitioned_id_not_null NOT NULL,
    turn_id uuid,
    document_id uuid,
    ordinal integer DEFAULT 0 CONSTRAINT chunk_partitioned_ordinal_not_null NOT NULL,
    text text CONSTRAINT chunk_partitioned_text_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
    embedding public.vector(384),
    scope_path text DEFAULT ''::text CONSTRAINT chunk_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT chunk_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT chunk_partitioned_owner_subject_not_null NOT NULL,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT chunk_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT chunk_partitioned_created_at_not_null NOT NULL,
    CONSTRAINT chunk_check CHECK (((turn_id IS NOT NULL) OR (document_id IS NOT NULL))),
    CONSTRAINT chunk_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
);

CREATE TABLE public.chunk_p04 (
    context_id uuid CONSTRAINT chunk_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT chunk_partitioned_id_not_null NOT NULL,
    turn_id uuid,
    document_id uuid,
    ordinal integer DEFAULT 0 CONSTRAINT chunk_partitioned_ordinal_not_null NOT NULL,
    text text CONSTRAINT chunk_partitioned_text_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
    embedding public.vector(384),
    scope_path text DEFAULT ''::text CONSTRAINT chunk_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT chunk_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT chunk_partitioned_owner_subject_not_null NOT NULL,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT chunk_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT chunk_partitioned_created_at_not_null NOT NULL,
    CONSTRAINT chunk_check CHECK (((turn_id IS NOT NULL) OR (document_id IS NOT NULL))),
    CONSTRAINT chunk_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
);

CREATE TABLE public.chunk_p05 (
    context_id uuid CONSTRAINT chunk_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT chunk_partitioned_id_not_null NOT NULL,
    turn_id uuid,
    document_id uuid,
    ordinal integer DEFAULT 0 CONSTRAINT chunk_partitioned_ordinal_not_null NOT NULL,
    text text CONSTRAINT chunk_partitioned_text_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
    embedding public.vector(384),
    scope_path text DEFAULT ''::text CONSTRAINT chunk_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT chunk_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT chunk_partitioned_owner_subject_not_null NOT NULL,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT chunk_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT chunk_partitioned_created_at_not_null NOT NULL,
    CONSTRAINT chunk_check CHECK (((turn_id IS NOT NULL) OR (document_id IS NOT NULL))),
    CONSTRAINT chunk_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
);

CREATE TABLE public.chunk_p06 (
    context_id uuid CONSTRAINT chunk_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT chunk_partitioned_id_not_null NOT NULL,
    turn_id uuid,
    document_id uuid,
    ordinal integer DEFAULT 0 CONSTRAINT chunk_partitioned_ordinal_not_null NOT NULL,
    text text CONSTRAINT chunk_partitioned_text_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
    embedding public.vector(384),
    scope_path text DEFAULT ''::text CONSTRAINT chunk_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT chunk_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT chunk_partitioned_owner_subject_not_null NOT NULL,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT chunk_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT chunk_partitioned_created_at_not_null NOT NULL,
    CONSTRAINT chunk_check CHECK (((turn_id IS NOT NULL) OR (document_id IS NOT NULL))),
    CONSTRAINT chunk_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
);

CREATE TABLE public.chunk_p07 (
    context_id uuid CONSTRAINT chunk_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT chunk_partitioned_id_not_null NOT NULL,
    turn_id uuid,
    document_id uuid,
    ordinal integer DEFAULT 0 CONSTRAINT chunk_partitioned_ordinal_not_null NOT NULL,
    text text CONSTRAINT chunk_partitioned_text_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
    embedding public.vector(384),
    scope_path text DEFAULT ''::text CONSTRAINT chunk_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT chunk_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT chunk_partitioned_owner_subject_not_null NOT NULL,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT chunk_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT chunk_partitioned_created_at_not_null NOT NULL,
    CONSTRAINT chunk_check CHECK (((turn_id IS NOT NULL) OR (document_id IS NOT NULL))),
    CONSTRAINT chunk_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
);

CREATE TABLE public.chunk_p08 (
    context_id uuid CONSTRAINT chunk_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT chunk_partitioned_id_not_null NOT NULL,
    turn_id uuid,
    document_id uuid,
    ordinal integer DEFAULT 0 CONSTRAINT chunk_partitioned_ordinal_not_null NOT NULL,
    text text CONSTRAINT chunk_partitioned_text_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
    embedding public.vector(384),
    scope_path text DEFAULT ''::text CONSTRAINT chunk_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT chunk_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT chunk_partitioned_owner_subject_not_null NOT NULL,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT chunk_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT chunk_partitioned_created_at_not_null NOT NULL,
    CONSTRAINT chunk_check CHECK (((turn_id IS NOT NULL) OR (document_id IS NOT NULL))),
    CONSTRAINT chunk_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
);

CREATE TABLE public.chunk_p09 (
    context_id uuid CONSTRAINT chunk_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT chunk_partitioned_id_not_null NOT NULL,
    turn_id uuid,
    document_id uuid,
    ordinal integer DEFAULT 0 CONSTRAINT chunk_partitioned_ordinal_not_null NOT NULL,
    text text CONSTRAINT chunk_partitioned_text_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
    embedding public.vector(384),
    scope_path text DEFAULT ''::text CONSTRAINT chunk_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT chunk_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT chunk_partitioned_owner_subject_not_null NOT NULL,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT chunk_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT chunk_partitioned_created_at_not_null NOT NULL,
    CONSTRAINT chunk_check CHECK (((turn_id IS NOT NULL) OR (document_id IS NOT NULL))),
    CONSTRAINT chunk_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
);

CREATE TABLE public.chunk_p10 (
    context_id uuid CONSTRAINT chunk_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT chunk_partitioned_id_not_null NOT NULL,
    turn_id uuid,
    document_id uuid,
    ordinal integer DEFAULT 0 CONSTRAINT chunk_partitioned_ordinal_not_null NOT NULL,
    text text CONSTRAINT chunk_partitioned_text_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
    embedding public.vector(384),
    scope_path text DEFAULT ''::text CONSTRAINT chunk_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT chunk_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT chunk_partitioned_owner_subject_not_null NOT NULL,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT chunk_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT chunk_partitioned_created_at_not_null NOT NULL,
    CONSTRAINT chunk_check CHECK (((turn_id IS NOT NULL) OR (document_id IS NOT NULL))),
    CONSTRAINT chunk_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
);

CREATE TABLE public.chunk_p11 (
    context_id uuid CONSTRAINT chunk_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT chunk_partitioned_id_not_null NOT NULL,
    turn_id uuid,
    document_id uuid,
    ordinal integer DEFAULT 0 CONSTRAINT chunk_partitioned_ordinal_not_null NOT NULL,
    text text CONSTRAINT chunk_partitioned_text_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
    embedding public.vector(384),
    scope_path text DEFAULT ''::text CONSTRAINT chunk_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT chunk_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT chunk_partitioned_owner_subject_not_null NOT NULL,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT chunk_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT chunk_partitioned_created_at_not_null NOT NULL,
    CONSTRAINT chunk_check CHECK (((turn_id IS NOT NULL) OR (document_id IS NOT NULL))),
    CONSTRAINT chunk_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
);

CREATE TABLE public.chunk_p12 (
    context_id uuid CONSTRAINT chunk_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT chunk_partitioned_id_not_null NOT NULL,
    turn_id uuid,
    document_id uuid,
    ordinal integer DEFAULT 0 CONSTRAINT chunk_partitioned_ordinal_not_null NOT NULL,
    text text CONSTRAINT chunk_partitioned_text_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
    embedding public.vector(384),
    scope_path text DEFAULT ''::text CONSTRAINT chunk_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT chunk_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT chunk_partitioned_owner_subject_not_null NOT NULL,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT chunk_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT chunk_partitioned_created_at_not_null NOT NULL,
    CONSTRAINT chunk_check CHECK (((turn_id IS NOT NULL) OR (document_id IS NOT NULL))),
    CONSTRAINT chunk_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
);

CREATE TABLE public.chunk_p13 (
    context_id uuid CONSTRAINT chunk_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT chunk_partitioned_id_not_null NOT NULL,
    turn_id uuid,
    document_id uuid,
    ordinal integer DEFAULT 0 CONSTRAINT chunk_partitioned_ordinal_not_null NOT NULL,
    text text CONSTRAINT chunk_partitioned_text_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
    embedding public.vector(384),
    scope_path text DEFAULT ''::text CONSTRAINT chunk_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT chunk_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT chunk_partitioned_owner_subject_not_null NOT NULL,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT chunk_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT chunk_partitioned_created_at_not_null NOT NULL,
    CONSTRAINT chunk_check CHECK (((turn_id IS NOT NULL) OR (document_id IS NOT NULL))),
    CONSTRAINT chunk_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
);

CREATE TABLE public.chunk_p14 (
    context_id uuid CONSTRAINT chunk_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT chunk_partitioned_id_not_null NOT NULL,
    turn_id uuid,
    document_id uuid,
    ordinal integer DEFAULT 0 CONSTRAINT chunk_partitioned_ordinal_not_null NOT NULL,
    text text CONSTRAINT chunk_partitioned_text_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
    embedding public.vector(384),
    scope_path text DEFAULT ''::text CONSTRAINT chunk_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT chunk_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT chunk_partitioned_owner_subject_not_null NOT NULL,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT chunk_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT chunk_partitioned_created_at_not_null NOT NULL,
    CONSTRAINT chunk_check CHECK (((turn_id IS NOT NULL) OR (document_id IS NOT NULL))),
    CONSTRAINT chunk_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
);

CREATE TABLE public.chunk_p15 (
    context_id uuid CONSTRAINT chunk_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT chunk_partitioned_id_not_null NOT NULL,
    turn_id uuid,
    document_id uuid,
    ordinal integer DEFAULT 0 CONSTRAINT chunk_partitioned_ordinal_not_null NOT NULL,
    text text CONSTRAINT chunk_partitioned_text_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
    embedding public.vector(384),
    scope_path text DEFAULT ''::text CONSTRAINT chunk_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT chunk_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT chunk_partitioned_owner_subject_not_null NOT NULL,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT chunk_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT chunk_partitioned_created_at_not_null NOT NULL,
    CONSTRAINT chunk_check CHECK (((turn_id IS NOT NULL) OR (document_id IS NOT NULL))),
    CONSTRAINT chunk_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
);

CREATE TABLE public.conflict (
    context_id uuid NOT NULL,
    id uuid NOT NULL,
    record_a uuid NOT NULL,
    record_b uuid NOT NULL,
    verdict text NOT NULL,
    superseding text,
    confidence double precision NOT NULL,
    similarity double precision,
    status text DEFAULT 'pending'::text NOT NULL,
    resolution text,
    judge_model text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    resolved_at timestamp with time zone,
    origin text DEFAULT 'scan'::text NOT NULL,
    judging_path text,
    action text,
    loser text,
    run_id uuid,
    revision_a integer,
    revision_b integer,
    reason text,
    decided_by text,
    decided_at timestamp with time zone,
    restored_at timestamp with time zone,
    dismissed_because text,
    CONSTRAINT conflict_action_check CHECK ((action = ANY (ARRAY['queued'::text, 'auto_resolved'::text, 'dismissed'::text, 'kept_both'::text, 'linked'::text]))),
    CONSTRAINT conflict_confidence_check CHECK (((confidence >= (0)::double precision) AND (confidence <= (1)::double precision))),
    CONSTRAINT conflict_dismissed_because_check CHECK ((dismissed_because = ANY (ARRAY['stale'::text, 'rejudged'::text, 'cross_project'::text]))),
    CONSTRAINT conflict_judging_path_check CHECK ((judging_path = ANY (ARRAY['adjudication'::text, 'hygiene'::text]))),
    CONSTRAINT conflict_loser_check CHECK ((loser = ANY (ARRAY['a'::text, 'b'::text]))),
    CONSTRAINT conflict_origin_check CHECK ((origin = ANY (ARRAY['scan'::text, 'challenge'::text, 'pass'::text]))),
    CONSTRAINT conflict_reason_check CHECK ((length(reason) <= 2000)),
    CONSTRAINT conflict_resolution_check CHECK ((resolution = ANY (ARRAY['keep_both'::text, 'keep_a'::text, 'keep_b'::text]))),
    CONSTRAINT conflict_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'resolved'::text, 'dismissed'::text]))),
    CONSTRAINT conflict_superseding_check CHECK ((superseding = ANY (ARRAY['a'::text, 'b'::text]))),
    CONSTRAINT conflict_verdict_check CHECK ((verdict = ANY (ARRAY['duplicate'::text, 'supersedes'::text, 'contradiction'::text, 'complementary'::text, 'unrelated'::text])))
);

CREATE TABLE public.context (
    id uuid NOT NULL,
    name text NOT NULL,
    config jsonb DEFAULT '{}'::jsonb NOT NULL,
    config_version integer DEFAULT 1 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT context_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200)))
);

CREATE TABLE public.document (
    context_id uuid NOT NULL,
    id uuid NOT NULL,
    principal_id uuid NOT NULL,
    filename text NOT NULL,
    content_type text NOT NULL,
    size_bytes bigint NOT NULL,
    storage_path text,
    status text DEFAULT 'pending'::text NOT NULL,
    failure_code text,
    failure_reasons text[] DEFAULT '{}'::text[] NOT NULL,
    parsed_text text,
    scope_path text DEFAULT ''::text NOT NULL,
    visibility text DEFAULT 'shared'::text NOT NULL,
    owner_subject text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    extraction_windows integer DEFAULT 0 NOT NULL,
    extraction_failed jsonb DEFAULT '[]'::jsonb NOT NULL,
    gist text,
    CONSTRAINT document_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'processing'::text, 'processed'::text, 'failed'::text, 'erased'::text]))),
    CONSTRAINT document_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
);

CREATE TABLE public.erasure (
    context_id uuid NOT NULL,
    id uuid NOT NULL,
    target_kind text NOT NULL,
    target jsonb NOT NULL,
    status text DEFAULT 'queued'::text NOT NULL,
    counts jsonb DEFAULT '{}'::jsonb NOT NULL,
    error text,
    requested_by text NOT NULL,
    key_id uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    started_at timestamp with time zone,
    finished_at timestamp with time zone,
    CONSTRAINT erasure_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'running'::text, 'done'::text, 'failed'::text]))),
    CONSTRAINT erasure_target_kind_check CHECK ((target_kind = ANY (ARRAY['records'::text, 'subject'::text, 'speaker'::text, 'scope'::text, 'session'::text, 'document'::text])))
);

CREATE TABLE public.extraction_usage (
    context_id uuid NOT NULL,
    day date NOT NULL,
    source_kind text NOT NULL,
    windows_run bigint DEFAULT 0 NOT NULL,
    windows_failed bigint DEFAULT 0 NOT NULL,
    dropped_chars bigint DEFAULT 0 NOT NULL,
    dropped_bytes bigint DEFAULT 0 NOT NULL,
    CONSTRAINT extraction_usage_source_kind_check CHECK ((source_kind = ANY (ARRAY['turn'::text, 'document'::text])))
);

CREATE TABLE public.hygiene_judged (
    context_id uuid NOT NULL,
    record_lo uuid NOT NULL,
    record_hi uuid NOT NULL,
    judge_model text NOT NULL,
    revision_lo integer NOT NULL,
    revision_hi integer NOT NULL,
    verdict text NOT NULL,
    judged_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT hygiene_judged_check CHECK ((record_lo < record_hi))
);

CREATE TABLE public.hygiene_run (
    context_id uuid NOT NULL,
    id uuid NOT NULL,
    kind text NOT NULL,
    rejudge boolean DEFAULT false NOT NULL,
    status text DEFAULT 'queued'::text NOT NULL,
    subjects uuid[] DEFAULT '{}'::uuid[] NOT NULL,
    requested_by text NOT NULL,
    counts jsonb DEFAULT jsonb_build_object('subjects', 0, 'pairs_judged', 0, 'skipped_cross_project', 0, 'queued', 0, 'auto_resolved', 0, 'dismissed', 0, 'linked', 0, 'reexamined', 0, 'stopped_on_queue_cap', false) NOT NULL,
    error text,
    watermark timestamp with time zone,
    watermark_id uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    started_at timestamp with time zone,
    finished_at timestamp with time zone,
    owed uuid[] DEFAULT '{}'::uuid[] NOT NULL,
    CONSTRAINT hygiene_run_kind_check CHECK ((kind = ANY (ARRAY['scan'::text, 'nightly'::text, 'write'::text]))),
    CONSTRAINT hygiene_run_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'running'::text, 'done'::text, 'failed'::text])))
);

CREATE TABLE public.import_item (
    context_id uuid NOT NULL,
    import_id uuid NOT NULL,
    seq integer NOT NULL,
    item_key text NOT NULL,
    payload jsonb,
    outcome text,
    detail text,
    target_id uuid,
    CONSTRAINT import_item_outcome_check CHECK ((outcome = ANY (ARRAY['imported'::text, 'held'::text, 'duplicate'::text, 'skipped'::text, 'refused'::text])))
);

CREATE TABLE public.import_run (
    context_id uuid NOT NULL,
    id uuid NOT NULL,
    format text NOT NULL,
    source_dir text NOT NULL,
    scope_path text DEFAULT ''::text NOT NULL,
    visibility text DEFAULT 'shared'::text NOT NULL,
    status text DEFAULT 'queued'::text NOT NULL,
    total integer DEFAULT 0 NOT NULL,
    processed integer DEFAULT 0 NOT NULL,
    counts jsonb DEFAULT '{}'::jsonb NOT NULL,
    error text,
    requested_by text NOT NULL,
    key_id uuid NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    started_at timestamp with time zone,
    finished_at timestamp with time zone,
    CONSTRAINT import_run_format_check CHECK ((format = ANY (ARRAY['memwarden'::text, 'mem0'::text, 'texts'::text]))),
    CONSTRAINT import_run_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'running'::text, 'done'::text, 'failed'::text]))),
    CONSTRAINT import_run_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
);

CREATE TABLE public.judgement (
    context_id uuid NOT NULL,
    id uuid NOT NULL,
    gate text NOT NULL,
    verdict text NOT NULL,
    reasons text[] DEFAULT '{}'::text[] NOT NULL,
    source text NOT NULL,
    scope_path text DEFAULT ''::text NOT NULL,
    visibility text DEFAULT 'shared'::text NOT NULL,
    excerpt text DEFAULT ''::text NOT NULL,
    row_count integer DEFAULT 1 NOT NULL,
    principal_id uuid,
    key_id uuid,
    turn_id uuid,
    document_id uuid,
    held boolean DEFAULT false NOT NULL,
    hold_decision text,
    hold_decided_at timestamp with time zone,
    override_verdict text,
    override_subject text,
    overridden_at timestamp with time zone,
    replay_state text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT judgement_excerpt_check CHECK ((length(excerpt) <= 500)),
    CONSTRAINT judgement_gate_check CHECK ((gate = ANY (ARRAY['input'::text, 'row'::text]))),
    CONSTRAINT judgement_hold_decision_check CHECK ((hold_decision = ANY (ARRAY['approved'::text, 'rejected'::text]))),
    CONSTRAINT judgement_override_verdict_check CHECK ((override_verdict = ANY (ARRAY['pass'::text, 'warn'::text, 'fail'::text]))),
    CONSTRAINT judgement_verdict_check CHECK ((verdict = ANY (ARRAY['pass'::text, 'warn'::text, 'fail'::text])))
);

CREATE TABLE public.memory_embedding (
    context_id uuid NOT NULL,
    record_id uuid NOT NULL,
    revision integer NOT NULL,
    embedding public.vector(384) NOT NULL,
    model text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.memory_link (
    context_id uuid NOT NULL,
    record_lo uuid NOT NULL,
    record_hi uuid NOT NULL,
    kind text DEFAULT 'complementary'::text NOT NULL,
    confidence double precision NOT NULL,
    judge_model text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT memory_link_check CHECK ((record_lo < record_hi)),
    CONSTRAINT memory_link_confidence_check CHECK (((confidence >= (0)::double precision) AND (confidence <= (1)::double precision))),
    CONSTRAINT memory_link_kind_check CHECK ((kind = 'complementary'::text))
);

CREATE TABLE public.memory_record (
    context_id uuid CONSTRAINT memory_record_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT memory_record_partitioned_id_not_null NOT NULL,
    kind text CONSTRAINT memory_record_partitioned_kind_not_null NOT NULL,
    memory_category text DEFAULT 'context'::text CONSTRAINT memory_record_partitioned_memory_category_not_null NOT NULL,
    scope_path text DEFAULT ''::text CONSTRAINT memory_record_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT memory_record_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT memory_record_partitioned_owner_subject_not_null NOT NULL,
    content jsonb CONSTRAINT memory_record_partitioned_content_not_null NOT NULL,
    body text CONSTRAINT memory_record_partitioned_body_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, body)) STORED,
    norm_name text,
    entity_id uuid,
    object_entity_id uuid,
    attr_key text,
    source_kind text DEFAULT 'command'::text CONSTRAINT memory_record_partitioned_source_kind_not_null NOT NULL,
    source_ref uuid,
    import_source_dir text,
    provenance_rank integer DEFAULT 0 CONSTRAINT memory_record_partitioned_provenance_rank_not_null NOT NULL,
    author_subject text CONSTRAINT memory_record_partitioned_author_subject_not_null NOT NULL,
    derived_from uuid[] DEFAULT '{}'::uuid[] CONSTRAINT memory_record_partitioned_derived_from_not_null NOT NULL,
    revision integer DEFAULT 1 CONSTRAINT memory_record_partitioned_revision_not_null NOT NULL,
    review_disposition text,
    review_revision integer,
    review_receipt_id uuid,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT memory_record_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    valid_from timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_valid_from_not_null NOT NULL,
    valid_to timestamp with time zone,
    superseded_by uuid,
    expires_at timestamp with time zone,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_created_at_not_null NOT NULL,
    modified_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_modified_at_not_null NOT NULL,
    embedding public.vector(384),
    embedding_revision integer,
    CONSTRAINT memory_record_embedding_current CHECK ((((embedding IS NULL) AND (embedding_revision IS NULL)) OR ((embedding IS NOT NULL) AND (embedding_revision = revision)))),
    CONSTRAINT memory_record_kind_check CHECK ((kind = ANY (ARRAY['entity'::text, 'attribute'::text, 'relation'::text, 'action'::text, 'instruction'::text, 'uncertainty'::text, 'note'::text]))),
    CONSTRAINT memory_record_memory_category_check CHECK ((memory_category = ANY (ARRAY['identity'::text, 'knowledge'::text, 'context'::text]))),
    CONSTRAINT memory_record_review_disposition_check CHECK ((review_disposition = ANY (ARRAY['approved'::text, 'rejected'::text]))),
    CONSTRAINT memory_record_revision_check CHECK ((revision >= 1)),
    CONSTRAINT memory_record_source_kind_check CHECK ((source_kind = ANY (ARRAY['turn'::text, 'document'::text, 'command'::text, 'reflection'::text, 'consolidation'::text, 'elaboration'::text, 'rollup'::text, 'gist'::text, 'judge'::text, 'import'::text]))),
    CONSTRAINT memory_record_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
)
PARTITION BY HASH (context_id);
ALTER TABLE ONLY public.memory_record ALTER COLUMN embedding SET STORAGE PLAIN;

CREATE TABLE public.memory_record_p00 (
    context_id uuid CONSTRAINT memory_record_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT memory_record_partitioned_id_not_null NOT NULL,
    kind text CONSTRAINT memory_record_partitioned_kind_not_null NOT NULL,
    memory_category text DEFAULT 'context'::text CONSTRAINT memory_record_partitioned_memory_category_not_null NOT NULL,
    scope_path text DEFAULT ''::text CONSTRAINT memory_record_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT memory_record_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT memory_record_partitioned_owner_subject_not_null NOT NULL,
    content jsonb CONSTRAINT memory_record_partitioned_content_not_null NOT NULL,
    body text CONSTRAINT memory_record_partitioned_body_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, body)) STORED,
    norm_name text,
    entity_id uuid,
    object_entity_id uuid,
    attr_key text,
    source_kind text DEFAULT 'command'::text CONSTRAINT memory_record_partitioned_source_kind_not_null NOT NULL,
    source_ref uuid,
    import_source_dir text,
    provenance_rank integer DEFAULT 0 CONSTRAINT memory_record_partitioned_provenance_rank_not_null NOT NULL,
    author_subject text CONSTRAINT memory_record_partitioned_author_subject_not_null NOT NULL,
    derived_from uuid[] DEFAULT '{}'::uuid[] CONSTRAINT memory_record_partitioned_derived_from_not_null NOT NULL,
    revision integer DEFAULT 1 CONSTRAINT memory_record_partitioned_revision_not_null NOT NULL,
    review_disposition text,
    review_revision integer,
    review_receipt_id uuid,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT memory_record_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    valid_from timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_valid_from_not_null NOT NULL,
    valid_to timestamp with time zone,
    superseded_by uuid,
    expires_at timestamp with time zone,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_created_at_not_null NOT NULL,
    modified_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_modified_at_not_null NOT NULL,
    embedding public.vector(384),
    embedding_revision integer,
    CONSTRAINT memory_record_embedding_current CHECK ((((embedding IS NULL) AND (embedding_revision IS NULL)) OR ((embedding IS NOT NULL) AND (embedding_revision = revision)))),
    CONSTRAINT memory_record_kind_check CHECK ((kind = ANY (ARRAY['entity'::text, 'attribute'::text, 'relation'::text, 'action'::text, 'instruction'::text, 'uncertainty'::text, 'note'::text]))),
    CONSTRAINT memory_record_memory_category_check CHECK ((memory_category = ANY (ARRAY['identity'::text, 'knowledge'::text, 'context'::text]))),
    CONSTRAINT memory_record_review_disposition_check CHECK ((review_disposition = ANY (ARRAY['approved'::text, 'rejected'::text]))),
    CONSTRAINT memory_record_revision_check CHECK ((revision >= 1)),
    CONSTRAINT memory_record_source_kind_check CHECK ((source_kind = ANY (ARRAY['turn'::text, 'document'::text, 'command'::text, 'reflection'::text, 'consolidation'::text, 'elaboration'::text, 'rollup'::text, 'gist'::text, 'judge'::text, 'import'::text]))),
    CONSTRAINT memory_record_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
)
WITH (toast_tuple_target='8160');
ALTER TABLE ONLY public.memory_record_p00 ALTER COLUMN embedding SET STORAGE PLAIN;

CREATE TABLE public.memory_record_p01 (
    context_id uuid CONSTRAINT memory_record_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT memory_record_partitioned_id_not_null NOT NULL,
    kind text CONSTRAINT memory_record_partitioned_kind_not_null NOT NULL,
    memory_category text DEFAULT 'context'::text CONSTRAINT memory_record_partitioned_memory_category_not_null NOT NULL,
    scope_path text DEFAULT ''::text CONSTRAINT memory_record_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT memory_record_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT memory_record_partitioned_owner_subject_not_null NOT NULL,
    content jsonb CONSTRAINT memory_record_partitioned_content_not_null NOT NULL,
    body text CONSTRAINT memory_record_partitioned_body_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, body)) STORED,
    norm_name text,
    entity_id uuid,
    object_entity_id uuid,
    attr_key text,
    source_kind text DEFAULT 'command'::text CONSTRAINT memory_record_partitioned_source_kind_not_null NOT NULL,
    source_ref uuid,
    import_source_dir text,
    provenance_rank integer DEFAULT 0 CONSTRAINT memory_record_partitioned_provenance_rank_not_null NOT NULL,
    author_subject text CONSTRAINT memory_record_partitioned_author_subject_not_null NOT NULL,
    derived_from uuid[] DEFAULT '{}'::uuid[] CONSTRAINT memory_record_partitioned_derived_from_not_null NOT NULL,
    revision integer DEFAULT 1 CONSTRAINT memory_record_partitioned_revision_not_null NOT NULL,
    review_disposition text,
    review_revision integer,
    review_receipt_id uuid,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT memory_record_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    valid_from timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_valid_from_not_null NOT NULL,
    valid_to timestamp with time zone,
    superseded_by uuid,
    expires_at timestamp with time zone,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_created_at_not_null NOT NULL,
    modified_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_modified_at_not_null NOT NULL,
    embedding public.vector(384),
    embedding_revision integer,
    CONSTRAINT memory_record_embedding_current CHECK ((((embedding IS NULL) AND (embedding_revision IS NULL)) OR ((embedding IS NOT NULL) AND (embedding_revision = revision)))),
    CONSTRAINT memory_record_kind_check CHECK ((kind = ANY (ARRAY['entity'::text, 'attribute'::text, 'relation'::text, 'action'::text, 'instruction'::text, 'uncertainty'::text, 'note'::text]))),
    CONSTRAINT memory_record_memory_category_check CHECK ((memory_category = ANY (ARRAY['identity'::text, 'knowledge'::text, 'context'::text]))),
    CONSTRAINT memory_record_review_disposition_check CHECK ((review_disposition = ANY (ARRAY['approved'::text, 'rejected'::text]))),
    CONSTRAINT memory_record_revision_check CHECK ((revision >= 1)),
    CONSTRAINT memory_record_source_kind_check CHECK ((source_kind = ANY (ARRAY['turn'::text, 'document'::text, 'command'::text, 'reflection'::text, 'consolidation'::text, 'elaboration'::text, 'rollup'::text, 'gist'::text, 'judge'::text, 'import'::text]))),
    CONSTRAINT memory_record_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
)
WITH (toast_tuple_target='8160');
ALTER TABLE ONLY public.memory_record_p01 ALTER COLUMN embedding SET STORAGE PLAIN;

CREATE TABLE public.memory_record_p02 (
    context_id uuid CONSTRAINT memory_record_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT memory_record_partitioned_id_not_null NOT NULL,
    kind text CONSTRAINT memory_record_partitioned_kind_not_null NOT NULL,
    memory_category text DEFAULT 'context'::text CONSTRAINT memory_record_partitioned_memory_category_not_null NOT NULL,
    scope_path text DEFAULT ''::text CONSTRAINT memory_record_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT memory_record_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT memory_record_partitioned_owner_subject_not_null NOT NULL,
    content jsonb CONSTRAINT memory_record_partitioned_content_not_null NOT NULL,
    body text CONSTRAINT memory_record_partitioned_body_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, body)) STORED,
    norm_name text,
    entity_id uuid,
    object_entity_id uuid,
    attr_key text,
    source_kind text DEFAULT 'command'::text CONSTRAINT memory_record_partitioned_source_kind_not_null NOT NULL,
    source_ref uuid,
    import_source_dir text,
    provenance_rank integer DEFAULT 0 CONSTRAINT memory_record_partitioned_provenance_rank_not_null NOT NULL,
    author_subject text CONSTRAINT memory_record_partitioned_author_subject_not_null NOT NULL,
    derived_from uuid[] DEFAULT '{}'::uuid[] CONSTRAINT memory_record_partitioned_derived_from_not_null NOT NULL,
    revision integer DEFAULT 1 CONSTRAINT memory_record_partitioned_revision_not_null NOT NULL,
    review_disposition text,
    review_revision integer,
    review_receipt_id uuid,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT memory_record_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    valid_from timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_valid_from_not_null NOT NULL,
    valid_to timestamp with time zone,
    superseded_by uuid,
    expires_at timestamp with time zone,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_created_at_not_null NOT NULL,
    modified_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_modified_at_not_null NOT NULL,
    embedding public.vector(384),
    embedding_revision integer,
    CONSTRAINT memory_record_embedding_current CHECK ((((embedding IS NULL) AND (embedding_revision IS NULL)) OR ((embedding IS NOT NULL) AND (embedding_revision = revision)))),
    CONSTRAINT memory_record_kind_check CHECK ((kind = ANY (ARRAY['entity'::text, 'attribute'::text, 'relation'::text, 'action'::text, 'instruction'::text, 'uncertainty'::text, 'note'::text]))),
    CONSTRAINT memory_record_memory_category_check CHECK ((memory_category = ANY (ARRAY['identity'::text, 'knowledge'::text, 'context'::text]))),
    CONSTRAINT memory_record_review_disposition_check CHECK ((review_disposition = ANY (ARRAY['approved'::text, 'rejected'::text]))),
    CONSTRAINT memory_record_revision_check CHECK ((revision >= 1)),
    CONSTRAINT memory_record_source_kind_check CHECK ((source_kind = ANY (ARRAY['turn'::text, 'document'::text, 'command'::text, 'reflection'::text, 'consolidation'::text, 'elaboration'::text, 'rollup'::text, 'gist'::text, 'judge'::text, 'import'::text]))),
    CONSTRAINT memory_record_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
)
WITH (toast_tuple_target='8160');
ALTER TABLE ONLY public.memory_record_p02 ALTER COLUMN embedding SET STORAGE PLAIN;

CREATE TABLE public.memory_record_p03 (
    context_id uuid CONSTRAINT memory_record_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT memory_record_partitioned_id_not_null NOT NULL,
    kind text CONSTRAINT memory_record_partitioned_kind_not_null NOT NULL,
    memory_category text DEFAULT 'context'::text CONSTRAINT memory_record_partitioned_memory_category_not_null NOT NULL,
    scope_path text DEFAULT ''::text CONSTRAINT memory_record_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT memory_record_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT memory_record_partitioned_owner_subject_not_null NOT NULL,
    content jsonb CONSTRAINT memory_record_partitioned_content_not_null NOT NULL,
    body text CONSTRAINT memory_record_partitioned_body_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, body)) STORED,
    norm_name text,
    entity_id uuid,
    object_entity_id uuid,
    attr_key text,
    source_kind text DEFAULT 'command'::text CONSTRAINT memory_record_partitioned_source_kind_not_null NOT NULL,
    source_ref uuid,
    import_source_dir text,
    provenance_rank integer DEFAULT 0 CONSTRAINT memory_record_partitioned_provenance_rank_not_null NOT NULL,
    author_subject text CONSTRAINT memory_record_partitioned_author_subject_not_null NOT NULL,
    derived_from uuid[] DEFAULT '{}'::uuid[] CONSTRAINT memory_record_partitioned_derived_from_not_null NOT NULL,
    revision integer DEFAULT 1 CONSTRAINT memory_record_partitioned_revision_not_null NOT NULL,
    review_disposition text,
    review_revision integer,
    review_receipt_id uuid,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT memory_record_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    valid_from timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_valid_from_not_null NOT NULL,
    valid_to timestamp with time zone,
    superseded_by uuid,
    expires_at timestamp with time zone,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_created_at_not_null NOT NULL,
    modified_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_modified_at_not_null NOT NULL,
    embedding public.vector(384),
    embedding_revision integer,
    CONSTRAINT memory_record_embedding_current CHECK ((((embedding IS NULL) AND (embedding_revision IS NULL)) OR ((embedding IS NOT NULL) AND (embedding_revision = revision)))),
    CONSTRAINT memory_record_kind_check CHECK ((kind = ANY (ARRAY['entity'::text, 'attribute'::text, 'relation'::text, 'action'::text, 'instruction'::text, 'uncertainty'::text, 'note'::text]))),
    CONSTRAINT memory_record_memory_category_check CHECK ((memory_category = ANY (ARRAY['identity'::text, 'knowledge'::text, 'context'::text]))),
    CONSTRAINT memory_record_review_disposition_check CHECK ((review_disposition = ANY (ARRAY['approved'::text, 'rejected'::text]))),
    CONSTRAINT memory_record_revision_check CHECK ((revision >= 1)),
    CONSTRAINT memory_record_source_kind_check CHECK ((source_kind = ANY (ARRAY['turn'::text, 'document'::text, 'command'::text, 'reflection'::text, 'consolidation'::text, 'elaboration'::text, 'rollup'::text, 'gist'::text, 'judge'::text, 'import'::text]))),
    CONSTRAINT memory_record_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
)
WITH (toast_tuple_target='8160');
ALTER TABLE ONLY public.memory_record_p03 ALTER COLUMN embedding SET STORAGE PLAIN;

CREATE TABLE public.memory_record_p04 (
    context_id uuid CONSTRAINT memory_record_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT memory_record_partitioned_id_not_null NOT NULL,
    kind text CONSTRAINT memory_record_partitioned_kind_not_null NOT NULL,
    memory_category text DEFAULT 'context'::text CONSTRAINT memory_record_partitioned_memory_category_not_null NOT NULL,
    scope_path text DEFAULT ''::text CONSTRAINT memory_record_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT memory_record_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT memory_record_partitioned_owner_subject_not_null NOT NULL,
    content jsonb CONSTRAINT memory_record_partitioned_content_not_null NOT NULL,
    body text CONSTRAINT memory_record_partitioned_body_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, body)) STORED,
    norm_name text,
    entity_id uuid,
    object_entity_id uuid,
    attr_key text,
    source_kind text DEFAULT 'command'::text CONSTRAINT memory_record_partitioned_source_kind_not_null NOT NULL,
    source_ref uuid,
    import_source_dir text,
    provenance_rank integer DEFAULT 0 CONSTRAINT memory_record_partitioned_provenance_rank_not_null NOT NULL,
    author_subject text CONSTRAINT memory_record_partitioned_author_subject_not_null NOT NULL,
    derived_from uuid[] DEFAULT '{}'::uuid[] CONSTRAINT memory_record_partitioned_derived_from_not_null NOT NULL,
    revision integer DEFAULT 1 CONSTRAINT memory_record_partitioned_revision_not_null NOT NULL,
    review_disposition text,
    review_revision integer,
    review_receipt_id uuid,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT memory_record_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    valid_from timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_valid_from_not_null NOT NULL,
    valid_to timestamp with time zone,
    superseded_by uuid,
    expires_at timestamp with time zone,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_created_at_not_null NOT NULL,
    modified_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_modified_at_not_null NOT NULL,
    embedding public.vector(384),
    embedding_revision integer,
    CONSTRAINT memory_record_embedding_current CHECK ((((embedding IS NULL) AND (embedding_revision IS NULL)) OR ((embedding IS NOT NULL) AND (embedding_revision = revision)))),
    CONSTRAINT memory_record_kind_check CHECK ((kind = ANY (ARRAY['entity'::text, 'attribute'::text, 'relation'::text, 'action'::text, 'instruction'::text, 'uncertainty'::text, 'note'::text]))),
    CONSTRAINT memory_record_memory_category_check CHECK ((memory_category = ANY (ARRAY['identity'::text, 'knowledge'::text, 'context'::text]))),
    CONSTRAINT memory_record_review_disposition_check CHECK ((review_disposition = ANY (ARRAY['approved'::text, 'rejected'::text]))),
    CONSTRAINT memory_record_revision_check CHECK ((revision >= 1)),
    CONSTRAINT memory_record_source_kind_check CHECK ((source_kind = ANY (ARRAY['turn'::text, 'document'::text, 'command'::text, 'reflection'::text, 'consolidation'::text, 'elaboration'::text, 'rollup'::text, 'gist'::text, 'judge'::text, 'import'::text]))),
    CONSTRAINT memory_record_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
)
WITH (toast_tuple_target='8160');
ALTER TABLE ONLY public.memory_record_p04 ALTER COLUMN embedding SET STORAGE PLAIN;

CREATE TABLE public.memory_record_p05 (
    context_id uuid CONSTRAINT memory_record_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT memory_record_partitioned_id_not_null NOT NULL,
    kind text CONSTRAINT memory_record_partitioned_kind_not_null NOT NULL,
    memory_category text DEFAULT 'context'::text CONSTRAINT memory_record_partitioned_memory_category_not_null NOT NULL,
    scope_path text DEFAULT ''::text CONSTRAINT memory_record_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT memory_record_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT memory_record_partitioned_owner_subject_not_null NOT NULL,
    content jsonb CONSTRAINT memory_record_partitioned_content_not_null NOT NULL,
    body text CONSTRAINT memory_record_partitioned_body_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, body)) STORED,
    norm_name text,
    entity_id uuid,
    object_entity_id uuid,
    attr_key text,
    source_kind text DEFAULT 'command'::text CONSTRAINT memory_record_partitioned_source_kind_not_null NOT NULL,
    source_ref uuid,
    import_source_dir text,
    provenance_rank integer DEFAULT 0 CONSTRAINT memory_record_partitioned_provenance_rank_not_null NOT NULL,
    author_subject text CONSTRAINT memory_record_partitioned_author_subject_not_null NOT NULL,
    derived_from uuid[] DEFAULT '{}'::uuid[] CONSTRAINT memory_record_partitioned_derived_from_not_null NOT NULL,
    revision integer DEFAULT 1 CONSTRAINT memory_record_partitioned_revision_not_null NOT NULL,
    review_disposition text,
    review_revision integer,
    review_receipt_id uuid,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT memory_record_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    valid_from timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_valid_from_not_null NOT NULL,
    valid_to timestamp with time zone,
    superseded_by uuid,
    expires_at timestamp with time zone,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_created_at_not_null NOT NULL,
    modified_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_modified_at_not_null NOT NULL,
    embedding public.vector(384),
    embedding_revision integer,
    CONSTRAINT memory_record_embedding_current CHECK ((((embedding IS NULL) AND (embedding_revision IS NULL)) OR ((embedding IS NOT NULL) AND (embedding_revision = revision)))),
    CONSTRAINT memory_record_kind_check CHECK ((kind = ANY (ARRAY['entity'::text, 'attribute'::text, 'relation'::text, 'action'::text, 'instruction'::text, 'uncertainty'::text, 'note'::text]))),
    CONSTRAINT memory_record_memory_category_check CHECK ((memory_category = ANY (ARRAY['identity'::text, 'knowledge'::text, 'context'::text]))),
    CONSTRAINT memory_record_review_disposition_check CHECK ((review_disposition = ANY (ARRAY['approved'::text, 'rejected'::text]))),
    CONSTRAINT memory_record_revision_check CHECK ((revision >= 1)),
    CONSTRAINT memory_record_source_kind_check CHECK ((source_kind = ANY (ARRAY['turn'::text, 'document'::text, 'command'::text, 'reflection'::text, 'consolidation'::text, 'elaboration'::text, 'rollup'::text, 'gist'::text, 'judge'::text, 'import'::text]))),
    CONSTRAINT memory_record_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
)
WITH (toast_tuple_target='8160');
ALTER TABLE ONLY public.memory_record_p05 ALTER COLUMN embedding SET STORAGE PLAIN;

CREATE TABLE public.memory_record_p06 (
    context_id uuid CONSTRAINT memory_record_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT memory_record_partitioned_id_not_null NOT NULL,
    kind text CONSTRAINT memory_record_partitioned_kind_not_null NOT NULL,
    memory_category text DEFAULT 'context'::text CONSTRAINT memory_record_partitioned_memory_category_not_null NOT NULL,
    scope_path text DEFAULT ''::text CONSTRAINT memory_record_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT memory_record_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT memory_record_partitioned_owner_subject_not_null NOT NULL,
    content jsonb CONSTRAINT memory_record_partitioned_content_not_null NOT NULL,
    body text CONSTRAINT memory_record_partitioned_body_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, body)) STORED,
    norm_name text,
    entity_id uuid,
    object_entity_id uuid,
    attr_key text,
    source_kind text DEFAULT 'command'::text CONSTRAINT memory_record_partitioned_source_kind_not_null NOT NULL,
    source_ref uuid,
    import_source_dir text,
    provenance_rank integer DEFAULT 0 CONSTRAINT memory_record_partitioned_provenance_rank_not_null NOT NULL,
    author_subject text CONSTRAINT memory_record_partitioned_author_subject_not_null NOT NULL,
    derived_from uuid[] DEFAULT '{}'::uuid[] CONSTRAINT memory_record_partitioned_derived_from_not_null NOT NULL,
    revision integer DEFAULT 1 CONSTRAINT memory_record_partitioned_revision_not_null NOT NULL,
    review_disposition text,
    review_revision integer,
    review_receipt_id uuid,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT memory_record_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    valid_from timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_valid_from_not_null NOT NULL,
    valid_to timestamp with time zone,
    superseded_by uuid,
    expires_at timestamp with time zone,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_created_at_not_null NOT NULL,
    modified_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_modified_at_not_null NOT NULL,
    embedding public.vector(384),
    embedding_revision integer,
    CONSTRAINT memory_record_embedding_current CHECK ((((embedding IS NULL) AND (embedding_revision IS NULL)) OR ((embedding IS NOT NULL) AND (embedding_revision = revision)))),
    CONSTRAINT memory_record_kind_check CHECK ((kind = ANY (ARRAY['entity'::text, 'attribute'::text, 'relation'::text, 'action'::text, 'instruction'::text, 'uncertainty'::text, 'note'::text]))),
    CONSTRAINT memory_record_memory_category_check CHECK ((memory_category = ANY (ARRAY['identity'::text, 'knowledge'::text, 'context'::text]))),
    CONSTRAINT memory_record_review_disposition_check CHECK ((review_disposition = ANY (ARRAY['approved'::text, 'rejected'::text]))),
    CONSTRAINT memory_record_revision_check CHECK ((revision >= 1)),
    CONSTRAINT memory_record_source_kind_check CHECK ((source_kind = ANY (ARRAY['turn'::text, 'document'::text, 'command'::text, 'reflection'::text, 'consolidation'::text, 'elaboration'::text, 'rollup'::text, 'gist'::text, 'judge'::text, 'import'::text]))),
    CONSTRAINT memory_record_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
)
WITH (toast_tuple_target='8160');
ALTER TABLE ONLY public.memory_record_p06 ALTER COLUMN embedding SET STORAGE PLAIN;

CREATE TABLE public.memory_record_p07 (
    context_id uuid CONSTRAINT memory_record_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT memory_record_partitioned_id_not_null NOT NULL,
    kind text CONSTRAINT memory_record_partitioned_kind_not_null NOT NULL,
    memory_category text DEFAULT 'context'::text CONSTRAINT memory_record_partitioned_memory_category_not_null NOT NULL,
    scope_path text DEFAULT ''::text CONSTRAINT memory_record_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT memory_record_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT memory_record_partitioned_owner_subject_not_null NOT NULL,
    content jsonb CONSTRAINT memory_record_partitioned_content_not_null NOT NULL,
    body text CONSTRAINT memory_record_partitioned_body_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, body)) STORED,
    norm_name text,
    entity_id uuid,
    object_entity_id uuid,
    attr_key text,
    source_kind text DEFAULT 'command'::text CONSTRAINT memory_record_partitioned_source_kind_not_null NOT NULL,
    source_ref uuid,
    import_source_dir text,
    provenance_rank integer DEFAULT 0 CONSTRAINT memory_record_partitioned_provenance_rank_not_null NOT NULL,
    author_subject text CONSTRAINT memory_record_partitioned_author_subject_not_null NOT NULL,
    derived_from uuid[] DEFAULT '{}'::uuid[] CONSTRAINT memory_record_partitioned_derived_from_not_null NOT NULL,
    revision integer DEFAULT 1 CONSTRAINT memory_record_partitioned_revision_not_null NOT NULL,
    review_disposition text,
    review_revision integer,
    review_receipt_id uuid,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT memory_record_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    valid_from timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_valid_from_not_null NOT NULL,
    valid_to timestamp with time zone,
    superseded_by uuid,
    expires_at timestamp with time zone,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_created_at_not_null NOT NULL,
    modified_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_modified_at_not_null NOT NULL,
    embedding public.vector(384),
    embedding_revision integer,
    CONSTRAINT memory_record_embedding_current CHECK ((((embedding IS NULL) AND (embedding_revision IS NULL)) OR ((embedding IS NOT NULL) AND (embedding_revision = revision)))),
    CONSTRAINT memory_record_kind_check CHECK ((kind = ANY (ARRAY['entity'::text, 'attribute'::text, 'relation'::text, 'action'::text, 'instruction'::text, 'uncertainty'::text, 'note'::text]))),
    CONSTRAINT memory_record_memory_category_check CHECK ((memory_category = ANY (ARRAY['identity'::text, 'knowledge'::text, 'context'::text]))),
    CONSTRAINT memory_record_review_disposition_check CHECK ((review_disposition = ANY (ARRAY['approved'::text, 'rejected'::text]))),
    CONSTRAINT memory_record_revision_check CHECK ((revision >= 1)),
    CONSTRAINT memory_record_source_kind_check CHECK ((source_kind = ANY (ARRAY['turn'::text, 'document'::text, 'command'::text, 'reflection'::text, 'consolidation'::text, 'elaboration'::text, 'rollup'::text, 'gist'::text, 'judge'::text, 'import'::text]))),
    CONSTRAINT memory_record_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
)
WITH (toast_tuple_target='8160');
ALTER TABLE ONLY public.memory_record_p07 ALTER COLUMN embedding SET STORAGE PLAIN;

CREATE TABLE public.memory_record_p08 (
    context_id uuid CONSTRAINT memory_record_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT memory_record_partitioned_id_not_null NOT NULL,
    kind text CONSTRAINT memory_record_partitioned_kind_not_null NOT NULL,
    memory_category text DEFAULT 'context'::text CONSTRAINT memory_record_partitioned_memory_category_not_null NOT NULL,
    scope_path text DEFAULT ''::text CONSTRAINT memory_record_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT memory_record_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT memory_record_partitioned_owner_subject_not_null NOT NULL,
    content jsonb CONSTRAINT memory_record_partitioned_content_not_null NOT NULL,
    body text CONSTRAINT memory_record_partitioned_body_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, body)) STORED,
    norm_name text,
    entity_id uuid,
    object_entity_id uuid,
    attr_key text,
    source_kind text DEFAULT 'command'::text CONSTRAINT memory_record_partitioned_source_kind_not_null NOT NULL,
    source_ref uuid,
    import_source_dir text,
    provenance_rank integer DEFAULT 0 CONSTRAINT memory_record_partitioned_provenance_rank_not_null NOT NULL,
    author_subject text CONSTRAINT memory_record_partitioned_author_subject_not_null NOT NULL,
    derived_from uuid[] DEFAULT '{}'::uuid[] CONSTRAINT memory_record_partitioned_derived_from_not_null NOT NULL,
    revision integer DEFAULT 1 CONSTRAINT memory_record_partitioned_revision_not_null NOT NULL,
    review_disposition text,
    review_revision integer,
    review_receipt_id uuid,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT memory_record_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    valid_from timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_valid_from_not_null NOT NULL,
    valid_to timestamp with time zone,
    superseded_by uuid,
    expires_at timestamp with time zone,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_created_at_not_null NOT NULL,
    modified_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_modified_at_not_null NOT NULL,
    embedding public.vector(384),
    embedding_revision integer,
    CONSTRAINT memory_record_embedding_current CHECK ((((embedding IS NULL) AND (embedding_revision IS NULL)) OR ((embedding IS NOT NULL) AND (embedding_revision = revision)))),
    CONSTRAINT memory_record_kind_check CHECK ((kind = ANY (ARRAY['entity'::text, 'attribute'::text, 'relation'::text, 'action'::text, 'instruction'::text, 'uncertainty'::text, 'note'::text]))),
    CONSTRAINT memory_record_memory_category_check CHECK ((memory_category = ANY (ARRAY['identity'::text, 'knowledge'::text, 'context'::text]))),
    CONSTRAINT memory_record_review_disposition_check CHECK ((review_disposition = ANY (ARRAY['approved'::text, 'rejected'::text]))),
    CONSTRAINT memory_record_revision_check CHECK ((revision >= 1)),
    CONSTRAINT memory_record_source_kind_check CHECK ((source_kind = ANY (ARRAY['turn'::text, 'document'::text, 'command'::text, 'reflection'::text, 'consolidation'::text, 'elaboration'::text, 'rollup'::text, 'gist'::text, 'judge'::text, 'import'::text]))),
    CONSTRAINT memory_record_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
)
WITH (toast_tuple_target='8160');
ALTER TABLE ONLY public.memory_record_p08 ALTER COLUMN embedding SET STORAGE PLAIN;

CREATE TABLE public.memory_record_p09 (
    context_id uuid CONSTRAINT memory_record_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT memory_record_partitioned_id_not_null NOT NULL,
    kind text CONSTRAINT memory_record_partitioned_kind_not_null NOT NULL,
    memory_category text DEFAULT 'context'::text CONSTRAINT memory_record_partitioned_memory_category_not_null NOT NULL,
    scope_path text DEFAULT ''::text CONSTRAINT memory_record_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT memory_record_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT memory_record_partitioned_owner_subject_not_null NOT NULL,
    content jsonb CONSTRAINT memory_record_partitioned_content_not_null NOT NULL,
    body text CONSTRAINT memory_record_partitioned_body_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, body)) STORED,
    norm_name text,
    entity_id uuid,
    object_entity_id uuid,
    attr_key text,
    source_kind text DEFAULT 'command'::text CONSTRAINT memory_record_partitioned_source_kind_not_null NOT NULL,
    source_ref uuid,
    import_source_dir text,
    provenance_rank integer DEFAULT 0 CONSTRAINT memory_record_partitioned_provenance_rank_not_null NOT NULL,
    author_subject text CONSTRAINT memory_record_partitioned_author_subject_not_null NOT NULL,
    derived_from uuid[] DEFAULT '{}'::uuid[] CONSTRAINT memory_record_partitioned_derived_from_not_null NOT NULL,
    revision integer DEFAULT 1 CONSTRAINT memory_record_partitioned_revision_not_null NOT NULL,
    review_disposition text,
    review_revision integer,
    review_receipt_id uuid,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT memory_record_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    valid_from timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_valid_from_not_null NOT NULL,
    valid_to timestamp with time zone,
    superseded_by uuid,
    expires_at timestamp with time zone,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_created_at_not_null NOT NULL,
    modified_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_modified_at_not_null NOT NULL,
    embedding public.vector(384),
    embedding_revision integer,
    CONSTRAINT memory_record_embedding_current CHECK ((((embedding IS NULL) AND (embedding_revision IS NULL)) OR ((embedding IS NOT NULL) AND (embedding_revision = revision)))),
    CONSTRAINT memory_record_kind_check CHECK ((kind = ANY (ARRAY['entity'::text, 'attribute'::text, 'relation'::text, 'action'::text, 'instruction'::text, 'uncertainty'::text, 'note'::text]))),
    CONSTRAINT memory_record_memory_category_check CHECK ((memory_category = ANY (ARRAY['identity'::text, 'knowledge'::text, 'context'::text]))),
    CONSTRAINT memory_record_review_disposition_check CHECK ((review_disposition = ANY (ARRAY['approved'::text, 'rejected'::text]))),
    CONSTRAINT memory_record_revision_check CHECK ((revision >= 1)),
    CONSTRAINT memory_record_source_kind_check CHECK ((source_kind = ANY (ARRAY['turn'::text, 'document'::text, 'command'::text, 'reflection'::text, 'consolidation'::text, 'elaboration'::text, 'rollup'::text, 'gist'::text, 'judge'::text, 'import'::text]))),
    CONSTRAINT memory_record_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
)
WITH (toast_tuple_target='8160');
ALTER TABLE ONLY public.memory_record_p09 ALTER COLUMN embedding SET STORAGE PLAIN;

CREATE TABLE public.memory_record_p10 (
    context_id uuid CONSTRAINT memory_record_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT memory_record_partitioned_id_not_null NOT NULL,
    kind text CONSTRAINT memory_record_partitioned_kind_not_null NOT NULL,
    memory_category text DEFAULT 'context'::text CONSTRAINT memory_record_partitioned_memory_category_not_null NOT NULL,
    scope_path text DEFAULT ''::text CONSTRAINT memory_record_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT memory_record_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT memory_record_partitioned_owner_subject_not_null NOT NULL,
    content jsonb CONSTRAINT memory_record_partitioned_content_not_null NOT NULL,
    body text CONSTRAINT memory_record_partitioned_body_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, body)) STORED,
    norm_name text,
    entity_id uuid,
    object_entity_id uuid,
    attr_key text,
    source_kind text DEFAULT 'command'::text CONSTRAINT memory_record_partitioned_source_kind_not_null NOT NULL,
    source_ref uuid,
    import_source_dir text,
    provenance_rank integer DEFAULT 0 CONSTRAINT memory_record_partitioned_provenance_rank_not_null NOT NULL,
    author_subject text CONSTRAINT memory_record_partitioned_author_subject_not_null NOT NULL,
    derived_from uuid[] DEFAULT '{}'::uuid[] CONSTRAINT memory_record_partitioned_derived_from_not_null NOT NULL,
    revision integer DEFAULT 1 CONSTRAINT memory_record_partitioned_revision_not_null NOT NULL,
    review_disposition text,
    review_revision integer,
    review_receipt_id uuid,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT memory_record_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    valid_from timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_valid_from_not_null NOT NULL,
    valid_to timestamp with time zone,
    superseded_by uuid,
    expires_at timestamp with time zone,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_created_at_not_null NOT NULL,
    modified_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_modified_at_not_null NOT NULL,
    embedding public.vector(384),
    embedding_revision integer,
    CONSTRAINT memory_record_embedding_current CHECK ((((embedding IS NULL) AND (embedding_revision IS NULL)) OR ((embedding IS NOT NULL) AND (embedding_revision = revision)))),
    CONSTRAINT memory_record_kind_check CHECK ((kind = ANY (ARRAY['entity'::text, 'attribute'::text, 'relation'::text, 'action'::text, 'instruction'::text, 'uncertainty'::text, 'note'::text]))),
    CONSTRAINT memory_record_memory_category_check CHECK ((memory_category = ANY (ARRAY['identity'::text, 'knowledge'::text, 'context'::text]))),
    CONSTRAINT memory_record_review_disposition_check CHECK ((review_disposition = ANY (ARRAY['approved'::text, 'rejected'::text]))),
    CONSTRAINT memory_record_revision_check CHECK ((revision >= 1)),
    CONSTRAINT memory_record_source_kind_check CHECK ((source_kind = ANY (ARRAY['turn'::text, 'document'::text, 'command'::text, 'reflection'::text, 'consolidation'::text, 'elaboration'::text, 'rollup'::text, 'gist'::text, 'judge'::text, 'import'::text]))),
    CONSTRAINT memory_record_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
)
WITH (toast_tuple_target='8160');
ALTER TABLE ONLY public.memory_record_p10 ALTER COLUMN embedding SET STORAGE PLAIN;

CREATE TABLE public.memory_record_p11 (
    context_id uuid CONSTRAINT memory_record_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT memory_record_partitioned_id_not_null NOT NULL,
    kind text CONSTRAINT memory_record_partitioned_kind_not_null NOT NULL,
    memory_category text DEFAULT 'context'::text CONSTRAINT memory_record_partitioned_memory_category_not_null NOT NULL,
    scope_path text DEFAULT ''::text CONSTRAINT memory_record_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT memory_record_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT memory_record_partitioned_owner_subject_not_null NOT NULL,
    content jsonb CONSTRAINT memory_record_partitioned_content_not_null NOT NULL,
    body text CONSTRAINT memory_record_partitioned_body_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, body)) STORED,
    norm_name text,
    entity_id uuid,
    object_entity_id uuid,
    attr_key text,
    source_kind text DEFAULT 'command'::text CONSTRAINT memory_record_partitioned_source_kind_not_null NOT NULL,
    source_ref uuid,
    import_source_dir text,
    provenance_rank integer DEFAULT 0 CONSTRAINT memory_record_partitioned_provenance_rank_not_null NOT NULL,
    author_subject text CONSTRAINT memory_record_partitioned_author_subject_not_null NOT NULL,
    derived_from uuid[] DEFAULT '{}'::uuid[] CONSTRAINT memory_record_partitioned_derived_from_not_null NOT NULL,
    revision integer DEFAULT 1 CONSTRAINT memory_record_partitioned_revision_not_null NOT NULL,
    review_disposition text,
    review_revision integer,
    review_receipt_id uuid,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT memory_record_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    valid_from timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_valid_from_not_null NOT NULL,
    valid_to timestamp with time zone,
    superseded_by uuid,
    expires_at timestamp with time zone,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_created_at_not_null NOT NULL,
    modified_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_modified_at_not_null NOT NULL,
    embedding public.vector(384),
    embedding_revision integer,
    CONSTRAINT memory_record_embedding_current CHECK ((((embedding IS NULL) AND (embedding_revision IS NULL)) OR ((embedding IS NOT NULL) AND (embedding_revision = revision)))),
    CONSTRAINT memory_record_kind_check CHECK ((kind = ANY (ARRAY['entity'::text, 'attribute'::text, 'relation'::text, 'action'::text, 'instruction'::text, 'uncertainty'::text, 'note'::text]))),
    CONSTRAINT memory_record_memory_category_check CHECK ((memory_category = ANY (ARRAY['identity'::text, 'knowledge'::text, 'context'::text]))),
    CONSTRAINT memory_record_review_disposition_check CHECK ((review_disposition = ANY (ARRAY['approved'::text, 'rejected'::text]))),
    CONSTRAINT memory_record_revision_check CHECK ((revision >= 1)),
    CONSTRAINT memory_record_source_kind_check CHECK ((source_kind = ANY (ARRAY['turn'::text, 'document'::text, 'command'::text, 'reflection'::text, 'consolidation'::text, 'elaboration'::text, 'rollup'::text, 'gist'::text, 'judge'::text, 'import'::text]))),
    CONSTRAINT memory_record_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
)
WITH (toast_tuple_target='8160');
ALTER TABLE ONLY public.memory_record_p11 ALTER COLUMN embedding SET STORAGE PLAIN;

CREATE TABLE public.memory_record_p12 (
    context_id uuid CONSTRAINT memory_record_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT memory_record_partitioned_id_not_null NOT NULL,
    kind text CONSTRAINT memory_record_partitioned_kind_not_null NOT NULL,
    memory_category text DEFAULT 'context'::text CONSTRAINT memory_record_partitioned_memory_category_not_null NOT NULL,
    scope_path text DEFAULT ''::text CONSTRAINT memory_record_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT memory_record_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT memory_record_partitioned_owner_subject_not_null NOT NULL,
    content jsonb CONSTRAINT memory_record_partitioned_content_not_null NOT NULL,
    body text CONSTRAINT memory_record_partitioned_body_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, body)) STORED,
    norm_name text,
    entity_id uuid,
    object_entity_id uuid,
    attr_key text,
    source_kind text DEFAULT 'command'::text CONSTRAINT memory_record_partitioned_source_kind_not_null NOT NULL,
    source_ref uuid,
    import_source_dir text,
    provenance_rank integer DEFAULT 0 CONSTRAINT memory_record_partitioned_provenance_rank_not_null NOT NULL,
    author_subject text CONSTRAINT memory_record_partitioned_author_subject_not_null NOT NULL,
    derived_from uuid[] DEFAULT '{}'::uuid[] CONSTRAINT memory_record_partitioned_derived_from_not_null NOT NULL,
    revision integer DEFAULT 1 CONSTRAINT memory_record_partitioned_revision_not_null NOT NULL,
    review_disposition text,
    review_revision integer,
    review_receipt_id uuid,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT memory_record_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    valid_from timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_valid_from_not_null NOT NULL,
    valid_to timestamp with time zone,
    superseded_by uuid,
    expires_at timestamp with time zone,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_created_at_not_null NOT NULL,
    modified_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_modified_at_not_null NOT NULL,
    embedding public.vector(384),
    embedding_revision integer,
    CONSTRAINT memory_record_embedding_current CHECK ((((embedding IS NULL) AND (embedding_revision IS NULL)) OR ((embedding IS NOT NULL) AND (embedding_revision = revision)))),
    CONSTRAINT memory_record_kind_check CHECK ((kind = ANY (ARRAY['entity'::text, 'attribute'::text, 'relation'::text, 'action'::text, 'instruction'::text, 'uncertainty'::text, 'note'::text]))),
    CONSTRAINT memory_record_memory_category_check CHECK ((memory_category = ANY (ARRAY['identity'::text, 'knowledge'::text, 'context'::text]))),
    CONSTRAINT memory_record_review_disposition_check CHECK ((review_disposition = ANY (ARRAY['approved'::text, 'rejected'::text]))),
    CONSTRAINT memory_record_revision_check CHECK ((revision >= 1)),
    CONSTRAINT memory_record_source_kind_check CHECK ((source_kind = ANY (ARRAY['turn'::text, 'document'::text, 'command'::text, 'reflection'::text, 'consolidation'::text, 'elaboration'::text, 'rollup'::text, 'gist'::text, 'judge'::text, 'import'::text]))),
    CONSTRAINT memory_record_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
)
WITH (toast_tuple_target='8160');
ALTER TABLE ONLY public.memory_record_p12 ALTER COLUMN embedding SET STORAGE PLAIN;

CREATE TABLE public.memory_record_p13 (
    context_id uuid CONSTRAINT memory_record_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT memory_record_partitioned_id_not_null NOT NULL,
    kind text CONSTRAINT memory_record_partitioned_kind_not_null NOT NULL,
    memory_category text DEFAULT 'context'::text CONSTRAINT memory_record_partitioned_memory_category_not_null NOT NULL,
    scope_path text DEFAULT ''::text CONSTRAINT memory_record_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT memory_record_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT memory_record_partitioned_owner_subject_not_null NOT NULL,
    content jsonb CONSTRAINT memory_record_partitioned_content_not_null NOT NULL,
    body text CONSTRAINT memory_record_partitioned_body_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, body)) STORED,
    norm_name text,
    entity_id uuid,
    object_entity_id uuid,
    attr_key text,
    source_kind text DEFAULT 'command'::text CONSTRAINT memory_record_partitioned_source_kind_not_null NOT NULL,
    source_ref uuid,
    import_source_dir text,
    provenance_rank integer DEFAULT 0 CONSTRAINT memory_record_partitioned_provenance_rank_not_null NOT NULL,
    author_subject text CONSTRAINT memory_record_partitioned_author_subject_not_null NOT NULL,
    derived_from uuid[] DEFAULT '{}'::uuid[] CONSTRAINT memory_record_partitioned_derived_from_not_null NOT NULL,
    revision integer DEFAULT 1 CONSTRAINT memory_record_partitioned_revision_not_null NOT NULL,
    review_disposition text,
    review_revision integer,
    review_receipt_id uuid,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT memory_record_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    valid_from timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_valid_from_not_null NOT NULL,
    valid_to timestamp with time zone,
    superseded_by uuid,
    expires_at timestamp with time zone,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_created_at_not_null NOT NULL,
    modified_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_modified_at_not_null NOT NULL,
    embedding public.vector(384),
    embedding_revision integer,
    CONSTRAINT memory_record_embedding_current CHECK ((((embedding IS NULL) AND (embedding_revision IS NULL)) OR ((embedding IS NOT NULL) AND (embedding_revision = revision)))),
    CONSTRAINT memory_record_kind_check CHECK ((kind = ANY (ARRAY['entity'::text, 'attribute'::text, 'relation'::text, 'action'::text, 'instruction'::text, 'uncertainty'::text, 'note'::text]))),
    CONSTRAINT memory_record_memory_category_check CHECK ((memory_category = ANY (ARRAY['identity'::text, 'knowledge'::text, 'context'::text]))),
    CONSTRAINT memory_record_review_disposition_check CHECK ((review_disposition = ANY (ARRAY['approved'::text, 'rejected'::text]))),
    CONSTRAINT memory_record_revision_check CHECK ((revision >= 1)),
    CONSTRAINT memory_record_source_kind_check CHECK ((source_kind = ANY (ARRAY['turn'::text, 'document'::text, 'command'::text, 'reflection'::text, 'consolidation'::text, 'elaboration'::text, 'rollup'::text, 'gist'::text, 'judge'::text, 'import'::text]))),
    CONSTRAINT memory_record_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
)
WITH (toast_tuple_target='8160');
ALTER TABLE ONLY public.memory_record_p13 ALTER COLUMN embedding SET STORAGE PLAIN;

CREATE TABLE public.memory_record_p14 (
    context_id uuid CONSTRAINT memory_record_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT memory_record_partitioned_id_not_null NOT NULL,
    kind text CONSTRAINT memory_record_partitioned_kind_not_null NOT NULL,
    memory_category text DEFAULT 'context'::text CONSTRAINT memory_record_partitioned_memory_category_not_null NOT NULL,
    scope_path text DEFAULT ''::text CONSTRAINT memory_record_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT memory_record_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT memory_record_partitioned_owner_subject_not_null NOT NULL,
    content jsonb CONSTRAINT memory_record_partitioned_content_not_null NOT NULL,
    body text CONSTRAINT memory_record_partitioned_body_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, body)) STORED,
    norm_name text,
    entity_id uuid,
    object_entity_id uuid,
    attr_key text,
    source_kind text DEFAULT 'command'::text CONSTRAINT memory_record_partitioned_source_kind_not_null NOT NULL,
    source_ref uuid,
    import_source_dir text,
    provenance_rank integer DEFAULT 0 CONSTRAINT memory_record_partitioned_provenance_rank_not_null NOT NULL,
    author_subject text CONSTRAINT memory_record_partitioned_author_subject_not_null NOT NULL,
    derived_from uuid[] DEFAULT '{}'::uuid[] CONSTRAINT memory_record_partitioned_derived_from_not_null NOT NULL,
    revision integer DEFAULT 1 CONSTRAINT memory_record_partitioned_revision_not_null NOT NULL,
    review_disposition text,
    review_revision integer,
    review_receipt_id uuid,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT memory_record_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    valid_from timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_valid_from_not_null NOT NULL,
    valid_to timestamp with time zone,
    superseded_by uuid,
    expires_at timestamp with time zone,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_created_at_not_null NOT NULL,
    modified_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_modified_at_not_null NOT NULL,
    embedding public.vector(384),
    embedding_revision integer,
    CONSTRAINT memory_record_embedding_current CHECK ((((embedding IS NULL) AND (embedding_revision IS NULL)) OR ((embedding IS NOT NULL) AND (embedding_revision = revision)))),
    CONSTRAINT memory_record_kind_check CHECK ((kind = ANY (ARRAY['entity'::text, 'attribute'::text, 'relation'::text, 'action'::text, 'instruction'::text, 'uncertainty'::text, 'note'::text]))),
    CONSTRAINT memory_record_memory_category_check CHECK ((memory_category = ANY (ARRAY['identity'::text, 'knowledge'::text, 'context'::text]))),
    CONSTRAINT memory_record_review_disposition_check CHECK ((review_disposition = ANY (ARRAY['approved'::text, 'rejected'::text]))),
    CONSTRAINT memory_record_revision_check CHECK ((revision >= 1)),
    CONSTRAINT memory_record_source_kind_check CHECK ((source_kind = ANY (ARRAY['turn'::text, 'document'::text, 'command'::text, 'reflection'::text, 'consolidation'::text, 'elaboration'::text, 'rollup'::text, 'gist'::text, 'judge'::text, 'import'::text]))),
    CONSTRAINT memory_record_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
)
WITH (toast_tuple_target='8160');
ALTER TABLE ONLY public.memory_record_p14 ALTER COLUMN embedding SET STORAGE PLAIN;

CREATE TABLE public.memory_record_p15 (
    context_id uuid CONSTRAINT memory_record_partitioned_context_id_not_null NOT NULL,
    id uuid CONSTRAINT memory_record_partitioned_id_not_null NOT NULL,
    kind text CONSTRAINT memory_record_partitioned_kind_not_null NOT NULL,
    memory_category text DEFAULT 'context'::text CONSTRAINT memory_record_partitioned_memory_category_not_null NOT NULL,
    scope_path text DEFAULT ''::text CONSTRAINT memory_record_partitioned_scope_path_not_null NOT NULL,
    visibility text DEFAULT 'shared'::text CONSTRAINT memory_record_partitioned_visibility_not_null NOT NULL,
    owner_subject text CONSTRAINT memory_record_partitioned_owner_subject_not_null NOT NULL,
    content jsonb CONSTRAINT memory_record_partitioned_content_not_null NOT NULL,
    body text CONSTRAINT memory_record_partitioned_body_not_null NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, body)) STORED,
    norm_name text,
    entity_id uuid,
    object_entity_id uuid,
    attr_key text,
    source_kind text DEFAULT 'command'::text CONSTRAINT memory_record_partitioned_source_kind_not_null NOT NULL,
    source_ref uuid,
    import_source_dir text,
    provenance_rank integer DEFAULT 0 CONSTRAINT memory_record_partitioned_provenance_rank_not_null NOT NULL,
    author_subject text CONSTRAINT memory_record_partitioned_author_subject_not_null NOT NULL,
    derived_from uuid[] DEFAULT '{}'::uuid[] CONSTRAINT memory_record_partitioned_derived_from_not_null NOT NULL,
    revision integer DEFAULT 1 CONSTRAINT memory_record_partitioned_revision_not_null NOT NULL,
    review_disposition text,
    review_revision integer,
    review_receipt_id uuid,
    serving public.serving_state DEFAULT 'live'::public.serving_state CONSTRAINT memory_record_partitioned_serving_not_null NOT NULL,
    hold_judgement_id uuid,
    valid_from timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_valid_from_not_null NOT NULL,
    valid_to timestamp with time zone,
    superseded_by uuid,
    expires_at timestamp with time zone,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_created_at_not_null NOT NULL,
    modified_at timestamp with time zone DEFAULT now() CONSTRAINT memory_record_partitioned_modified_at_not_null NOT NULL,
    embedding public.vector(384),
    embedding_revision integer,
    CONSTRAINT memory_record_embedding_current CHECK ((((embedding IS NULL) AND (embedding_revision IS NULL)) OR ((embedding IS NOT NULL) AND (embedding_revision = revision)))),
    CONSTRAINT memory_record_kind_check CHECK ((kind = ANY (ARRAY['entity'::text, 'attribute'::text, 'relation'::text, 'action'::text, 'instruction'::text, 'uncertainty'::text, 'note'::text]))),
    CONSTRAINT memory_record_memory_category_check CHECK ((memory_category = ANY (ARRAY['identity'::text, 'knowledge'::text, 'context'::text]))),
    CONSTRAINT memory_record_review_disposition_check CHECK ((review_disposition = ANY (ARRAY['approved'::text, 'rejected'::text]))),
    CONSTRAINT memory_record_revision_check CHECK ((revision >= 1)),
    CONSTRAINT memory_record_source_kind_check CHECK ((source_kind = ANY (ARRAY['turn'::text, 'document'::text, 'command'::text, 'reflection'::text, 'consolidation'::text, 'elaboration'::text, 'rollup'::text, 'gist'::text, 'judge'::text, 'import'::text]))),
    CONSTRAINT memory_record_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
)
WITH (toast_tuple_target='8160');
ALTER TABLE ONLY public.memory_record_p15 ALTER COLUMN embedding SET STORAGE PLAIN;

CREATE TABLE public.memory_record_past (
    context_id uuid NOT NULL,
    record_id uuid NOT NULL,
    seq bigint NOT NULL,
    sys_to timestamp with time zone NOT NULL,
    known boolean DEFAULT true NOT NULL,
    revision integer NOT NULL,
    memory_category text NOT NULL,
    content jsonb,
    body text NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, body)) STORED,
    scope_path text NOT NULL,
    visibility text NOT NULL,
    owner_subject text NOT NULL,
    serving public.serving_state NOT NULL,
    review_disposition text,
    valid_from timestamp with time zone NOT NULL,
    valid_to timestamp with time zone,
    superseded_by uuid,
    expires_at timestamp with time zone,
    derived_from uuid[] NOT NULL,
    entity_id uuid,
    object_entity_id uuid,
    attr_key text,
    norm_name text,
    source_kind text NOT NULL,
    source_ref uuid
);

ALTER TABLE public.memory_record_past ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.memory_record_past_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.memory_revision (
    context_id uuid NOT NULL,
    record_id uuid NOT NULL,
    revision integer NOT NULL,
    op text NOT NULL,
    content jsonb,
    actor_subject text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    cause text NOT NULL,
    valid_from timestamp with time zone,
    valid_to timestamp with time zone,
    replaced_by uuid,
    CONSTRAINT memory_revision_cause_check CHECK ((cause = ANY (ARRAY['write'::text, 'correction'::text, 'declared_supersede'::text, 'hygiene_resolution'::text, 'consolidation'::text, 'review_decision'::text, 'restore'::text, 'delete'::text, 'erasure'::text, 'unknown'::text]))),
    CONSTRAINT memory_revision_op_check CHECK ((op = ANY (ARRAY['create'::text, 'update'::text, 'delete'::text, 'review'::text, 'supersede'::text, 'hold'::text, 'release'::text, 'restore'::text, 'erase'::text])))
);

CREATE TABLE public.pass_run (
    context_id uuid NOT NULL,
    id uuid NOT NULL,
    stage text NOT NULL,
    trigger text NOT NULL,
    status text DEFAULT 'queued'::text NOT NULL,
    inputs integer DEFAULT 0 NOT NULL,
    written integer DEFAULT 0 NOT NULL,
    dropped integer DEFAULT 0 NOT NULL,
    held integer DEFAULT 0 NOT NULL,
    error_code text,
    requested_by text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    started_at timestamp with time zone,
    finished_at timestamp with time zone,
    CONSTRAINT pass_run_stage_check CHECK ((stage = ANY (ARRAY['consolidation'::text, 'elaboration'::text, 'rollup'::text, 'gist'::text]))),
    CONSTRAINT pass_run_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'running'::text, 'done'::text, 'failed'::text]))),
    CONSTRAINT pass_run_trigger_check CHECK ((trigger = ANY (ARRAY['manual'::text, 'settled'::text, 'schedule'::text])))
);

CREATE TABLE public.pass_watermark (
    context_id uuid NOT NULL,
    stage text NOT NULL,
    unit text NOT NULL,
    fingerprint text NOT NULL,
    run_id uuid,
    updated_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.principal (
    context_id uuid NOT NULL,
    id uuid NOT NULL,
    subject text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT principal_subject_check CHECK (((length(subject) >= 1) AND (length(subject) <= 200)))
);

CREATE TABLE public.principal_grant (
    context_id uuid NOT NULL,
    principal_id uuid NOT NULL,
    capability text NOT NULL,
    scope_prefix text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT principal_grant_capability_check CHECK ((capability = ANY (ARRAY['memory_read'::text, 'memory_write'::text, 'memory_review'::text, 'grant:manage'::text])))
);

CREATE TABLE public.procrastinate_events (
    id bigint NOT NULL,
    job_id bigint NOT NULL,
    type public.procrastinate_job_event_type,
    at timestamp with time zone DEFAULT now()
);

CREATE SEQUENCE public.procrastinate_events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.procrastinate_events_id_seq OWNED BY public.procrastinate_events.id;

CREATE SEQUENCE public.procrastinate_jobs_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.procrastinate_jobs_id_seq OWNED BY public.procrastinate_jobs.id;

CREATE TABLE public.procrastinate_periodic_defers (
    id bigint NOT NULL,
    task_name character varying(128) NOT NULL,
    defer_timestamp bigint,
    job_id bigint,
    periodic_id character varying(128) DEFAULT ''::character varying NOT NULL
);

CREATE SEQUENCE public.procrastinate_periodic_defers_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.procrastinate_periodic_defers_id_seq OWNED BY public.procrastinate_periodic_defers.id;

CREATE TABLE public.procrastinate_workers (
    id bigint NOT NULL,
    last_heartbeat timestamp with time zone DEFAULT now() NOT NULL
);

ALTER TABLE public.procrastinate_workers ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.procrastinate_workers_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.recall_event (
    context_id uuid NOT NULL,
    record_id uuid NOT NULL,
    day date NOT NULL,
    hits integer DEFAULT 0 NOT NULL
);

CREATE TABLE public.reexamination_guard (
    context_id uuid NOT NULL,
    record_id uuid NOT NULL,
    judge_model text NOT NULL,
    examined_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.retained_input (
    context_id uuid NOT NULL,
    judgement_id uuid NOT NULL,
    route text NOT NULL,
    payload jsonb NOT NULL,
    principal_id uuid NOT NULL,
    key_id uuid NOT NULL,
    expires_at timestamp with time zone,
    consumed_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT retained_input_route_check CHECK ((route = ANY (ARRAY['facts'::text, 'facts_batch'::text])))
);

CREATE TABLE public.review_receipt (
    context_id uuid NOT NULL,
    id uuid NOT NULL,
    record_id uuid NOT NULL,
    revision integer NOT NULL,
    disposition text NOT NULL,
    reviewer_subject text NOT NULL,
    key_id uuid NOT NULL,
    evidence_ref text NOT NULL,
    idempotency_key text,
    command_digest text NOT NULL,
    scope jsonb NOT NULL,
    decided_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT review_receipt_disposition_check CHECK ((disposition = ANY (ARRAY['approved'::text, 'rejected'::text, 'unreviewed'::text])))
);

CREATE TABLE public.schema_migration (
    version integer NOT NULL,
    name text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.session (
    context_id uuid NOT NULL,
    id uuid NOT NULL,
    principal_id uuid NOT NULL,
    scope_path text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.turn (
    context_id uuid NOT NULL,
    id uuid NOT NULL,
    session_id uuid NOT NULL,
    principal_id uuid NOT NULL,
    text text NOT NULL,
    scope_path text DEFAULT ''::text NOT NULL,
    visibility text DEFAULT 'shared'::text NOT NULL,
    owner_subject text NOT NULL,
    serving public.serving_state DEFAULT 'live'::public.serving_state NOT NULL,
    hold_judgement_id uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    extraction_windows integer DEFAULT 0 NOT NULL,
    extraction_failed jsonb DEFAULT '[]'::jsonb NOT NULL,
    speaker text,
    CONSTRAINT turn_visibility_check CHECK ((visibility = ANY (ARRAY['shared'::text, 'private'::text])))
);

CREATE TABLE public.usage (
    context_id uuid NOT NULL,
    day date NOT NULL,
    stage text NOT NULL,
    model text NOT NULL,
    calls bigint DEFAULT 0 NOT NULL,
    prompt_tokens bigint DEFAULT 0 NOT NULL,
    completion_tokens bigint DEFAULT 0 NOT NULL
);

CREATE TABLE public.webhook_delivery (
    context_id uuid NOT NULL,
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    n bigint NOT NULL,
    subscription_id uuid NOT NULL,
    event_id text NOT NULL,
    event_type text NOT NULL,
    feed_seq bigint,
    data jsonb NOT NULL,
    occurred_at timestamp with time zone DEFAULT now() NOT NULL,
    status text DEFAULT 'pending'::text NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    next_attempt_at timestamp with time zone DEFAULT now() NOT NULL,
    last_attempt_at timestamp with time zone,
    last_status_code integer,
    last_error text,
    delivered_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT webhook_delivery_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'delivered'::text, 'failed'::text])))
);

ALTER TABLE public.webhook_delivery ALTER COLUMN n ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.webhook_delivery_n_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE public.webhook_subscription (
    context_id uuid NOT NULL,
    id uuid NOT NULL,
    url text NOT NULL,
    events text[] NOT NULL,
    include_content boolean DEFAULT false NOT NULL,
    description text DEFAULT ''::text NOT NULL,
    secret text NOT NULL,
    key_id uuid,
    created_by text NOT NULL,
    status text DEFAULT 'active'::text NOT NULL,
    paused_reason text,
    consecutive_failures integer DEFAULT 0 NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT webhook_subscription_description_check CHECK ((length(description) <= 500)),
    CONSTRAINT webhook_subscription_events_check CHECK ((cardinality(events) >= 1)),
    CONSTRAINT webhook_subscription_paused_reason_check CHECK ((paused_reason = ANY (ARRAY['gone'::text, 'failures'::text, 'manual'::text]))),
    CONSTRAINT webhook_subscription_status_check CHECK ((status = ANY (ARRAY['active'::text, 'paused'::text]))),
    CONSTRAINT webhook_subscription_url_check CHECK ((length(url) <= 2048))
);

ALTER TABLE ONLY public.chunk ATTACH PARTITION public.chunk_p00 FOR VALUES WITH (modulus 16, remainder 0);

ALTER TABLE ONLY public.chunk ATTACH PARTITION public.chunk_p01 FOR VALUES WITH (modulus 16, remainder 1);

ALTER TABLE ONLY public.chunk ATTACH PARTITION public.chunk_p02 FOR VALUES WITH (modulus 16, remainder 2);

ALTER TABLE ONLY public.chunk ATTACH PARTITION public.chunk_p03 FOR VALUES WITH (modulus 16, remainder 3);

ALTER TABLE ONLY public.chunk ATTACH PARTITION public.chunk_p04 FOR VALUES WITH (modulus 16, remainder 4);

ALTER TABLE ONLY public.chunk ATTACH PARTITION public.chunk_p05 FOR VALUES WITH (modulus 16, remainder 5);

ALTER TABLE ONLY public.chunk ATTACH PARTITION public.chunk_p06 FOR VALUES WITH (modulus 16, remainder 6);

ALTER TABLE ONLY public.chunk ATTACH PARTITION public.chunk_p07 FOR VALUES WITH (modulus 16, remainder 7);

ALTER TABLE ONLY public.chunk ATTACH PARTITION public.chunk_p08 FOR VALUES WITH (modulus 16, remainder 8);

ALTER TABLE ONLY public.chunk ATTACH PARTITION public.chunk_p09 FOR VALUES WITH (modulus 16, remainder 9);

ALTER TABLE ONLY public.chunk ATTACH PARTITION public.chunk_p10 FOR VALUES WITH (modulus 16, remainder 10);

ALTER TABLE ONLY public.chunk ATTACH PARTITION public.chunk_p11 FOR VALUES WITH (modulus 16, remainder 11);

ALTER TABLE ONLY public.chunk ATTACH PARTITION public.chunk_p12 FOR VALUES WITH (modulus 16, remainder 12);

ALTER TABLE ONLY public.chunk ATTACH PARTITION public.chunk_p13 FOR VALUES WITH (modulus 16, remainder 13);

ALTER TABLE ONLY public.chunk ATTACH PARTITION public.chunk_p14 FOR VALUES WITH (modulus 16, remainder 14);

ALTER TABLE ONLY public.chunk ATTACH PARTITION public.chunk_p15 FOR VALUES WITH (modulus 16, remainder 15);

ALTER TABLE ONLY public.memory_record ATTACH PARTITION public.memory_record_p00 FOR VALUES WITH (modulus 16, remainder 0);

ALTER TABLE ONLY public.memory_record ATTACH PARTITION public.memory_record_p01 FOR VALUES WITH (modulus 16, remainder 1);

ALTER TABLE ONLY public.memory_record ATTACH PARTITION public.memory_record_p02 FOR VALUES WITH (modulus 16, remainder 2);

ALTER TABLE ONLY public.memory_record ATTACH PARTITION public.memory_record_p03 FOR VALUES WITH (modulus 16, remainder 3);

ALTER TABLE ONLY public.memory_record ATTACH PARTITION public.memory_record_p04 FOR VALUES WITH (modulus 16, remainder 4);

ALTER TABLE ONLY public.memory_record ATTACH PARTITION public.memory_record_p05 FOR VALUES WITH (modulus 16, remainder 5);

ALTER TABLE ONLY public.memory_record ATTACH PARTITION public.memory_record_p06 FOR VALUES WITH (modulus 16, remainder 6);

ALTER TABLE ONLY public.memory_record ATTACH PARTITION public.memory_record_p07 FOR VALUES WITH (modulus 16, remainder 7);

ALTER TABLE ONLY public.memory_record ATTACH PARTITION public.memory_record_p08 FOR VALUES WITH (modulus 16, remainder 8);

ALTER TABLE ONLY public.memory_record ATTACH PARTITION public.memory_record_p09 FOR VALUES WITH (modulus 16, remainder 9);

ALTER TABLE ONLY public.memory_record ATTACH PARTITION public.memory_record_p10 FOR VALUES WITH (modulus 16, remainder 10);

ALTER TABLE ONLY public.memory_record ATTACH PARTITION public.memory_record_p11 FOR VALUES WITH (modulus 16, remainder 11);

ALTER TABLE ONLY public.memory_record ATTACH PARTITION public.memory_record_p12 FOR VALUES WITH (modulus 16, remainder 12);

ALTER TABLE ONLY public.memory_record ATTACH PARTITION public.memory_record_p13 FOR VALUES WITH (modulus 16, remainder 13);

ALTER TABLE ONLY public.memory_record ATTACH PARTITION public.memory_record_p14 FOR VALUES WITH (modulus 16, remainder 14);

ALTER TABLE ONLY public.memory_record ATTACH PARTITION public.memory_record_p15 FOR VALUES WITH (modulus 16, remainder 15);

ALTER TABLE ONLY public.procrastinate_events ALTER COLUMN id SET DEFAULT nextval('public.procrastinate_events_id_seq'::regclass);

ALTER TABLE ONLY public.procrastinate_jobs ALTER COLUMN id SET DEFAULT nextval('public.procrastinate_jobs_id_seq'::regclass);

ALTER TABLE ONLY public.procrastinate_periodic_defers ALTER COLUMN id SET DEFAULT nextval('public.procrastinate_periodic_defers_id_seq'::regclass);

ALTER TABLE ONLY public.api_key
    ADD CONSTRAINT api_key_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.audit_event
    ADD CONSTRAINT audit_event_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.change_event
    ADD CONSTRAINT change_event_pkey PRIMARY KEY (context_id, seq);

ALTER TABLE ONLY public.chunk
    ADD CONSTRAINT chunk_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.chunk_p00
    ADD CONSTRAINT chunk_p00_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.chunk_p01
    ADD CONSTRAINT chunk_p01_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.chunk_p02
    ADD CONSTRAINT chunk_p02_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.chunk_p03
    ADD CONSTRAINT chunk_p03_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.chunk_p04
    ADD CONSTRAINT chunk_p04_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.chunk_p05
    ADD CONSTRAINT chunk_p05_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.chunk_p06
    ADD CONSTRAINT chunk_p06_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.chunk_p07
    ADD CONSTRAINT chunk_p07_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.chunk_p08
    ADD CONSTRAINT chunk_p08_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.chunk_p09
    ADD CONSTRAINT chunk_p09_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.chunk_p10
    ADD CONSTRAINT chunk_p10_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.chunk_p11
    ADD CONSTRAINT chunk_p11_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.chunk_p12
    ADD CONSTRAINT chunk_p12_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.chunk_p13
    ADD CONSTRAINT chunk_p13_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.chunk_p14
    ADD CONSTRAINT chunk_p14_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.chunk_p15
    ADD CONSTRAINT chunk_p15_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.conflict
    ADD CONSTRAINT conflict_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.context
    ADD CONSTRAINT context_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.document
    ADD CONSTRAINT document_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.erasure
    ADD CONSTRAINT erasure_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.extraction_usage
    ADD CONSTRAINT extraction_usage_pkey PRIMARY KEY (context_id, day, source_kind);

ALTER TABLE ONLY public.hygiene_judged
    ADD CONSTRAINT hygiene_judged_pkey PRIMARY KEY (context_id, record_lo, record_hi, judge_model);

ALTER TABLE ONLY public.hygiene_run
    ADD CONSTRAINT hygiene_run_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.import_item
    ADD CONSTRAINT import_item_pkey PRIMARY KEY (context_id, import_id, seq);

ALTER TABLE ONLY public.import_run
    ADD CONSTRAINT import_run_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.judgement
    ADD CONSTRAINT judgement_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.memory_embedding
    ADD CONSTRAINT memory_embedding_pkey PRIMARY KEY (context_id, record_id, revision);

ALTER TABLE ONLY public.memory_link
    ADD CONSTRAINT memory_link_pkey PRIMARY KEY (context_id, record_lo, record_hi);

ALTER TABLE ONLY public.memory_record
    ADD CONSTRAINT memory_record_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.memory_record_p00
    ADD CONSTRAINT memory_record_p00_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.memory_record_p01
    ADD CONSTRAINT memory_record_p01_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.memory_record_p02
    ADD CONSTRAINT memory_record_p02_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.memory_record_p03
    ADD CONSTRAINT memory_record_p03_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.memory_record_p04
    ADD CONSTRAINT memory_record_p04_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.memory_record_p05
    ADD CONSTRAINT memory_record_p05_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.memory_record_p06
    ADD CONSTRAINT memory_record_p06_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.memory_record_p07
    ADD CONSTRAINT memory_record_p07_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.memory_record_p08
    ADD CONSTRAINT memory_record_p08_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.memory_record_p09
    ADD CONSTRAINT memory_record_p09_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.memory_record_p10
    ADD CONSTRAINT memory_record_p10_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.memory_record_p11
    ADD CONSTRAINT memory_record_p11_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.memory_record_p12
    ADD CONSTRAINT memory_record_p12_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.memory_record_p13
    ADD CONSTRAINT memory_record_p13_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.memory_record_p14
    ADD CONSTRAINT memory_record_p14_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.memory_record_p15
    ADD CONSTRAINT memory_record_p15_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.memory_record_past
    ADD CONSTRAINT memory_record_past_pkey PRIMARY KEY (context_id, record_id, seq);

ALTER TABLE ONLY public.memory_revision
    ADD CONSTRAINT memory_revision_pkey PRIMARY KEY (context_id, record_id, revision);

ALTER TABLE ONLY public.pass_run
    ADD CONSTRAINT pass_run_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.pass_watermark
    ADD CONSTRAINT pass_watermark_pkey PRIMARY KEY (context_id, stage, unit);

ALTER TABLE ONLY public.principal
    ADD CONSTRAINT principal_context_id_subject_key UNIQUE (context_id, subject);

ALTER TABLE ONLY public.principal_grant
    ADD CONSTRAINT principal_grant_pkey PRIMARY KEY (context_id, principal_id, capability, scope_prefix);

ALTER TABLE ONLY public.principal
    ADD CONSTRAINT principal_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.procrastinate_events
    ADD CONSTRAINT procrastinate_events_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.procrastinate_jobs
    ADD CONSTRAINT procrastinate_jobs_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.procrastinate_periodic_defers
    ADD CONSTRAINT procrastinate_periodic_defers_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.procrastinate_periodic_defers
    ADD CONSTRAINT procrastinate_periodic_defers_unique UNIQUE (task_name, periodic_id, defer_timestamp);

ALTER TABLE ONLY public.procrastinate_workers
    ADD CONSTRAINT procrastinate_workers_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.recall_event
    ADD CONSTRAINT recall_event_pkey PRIMARY KEY (context_id, record_id, day);

ALTER TABLE ONLY public.reexamination_guard
    ADD CONSTRAINT reexamination_guard_pkey PRIMARY KEY (context_id, record_id, judge_model);

ALTER TABLE ONLY public.retained_input
    ADD CONSTRAINT retained_input_pkey PRIMARY KEY (context_id, judgement_id);

ALTER TABLE ONLY public.review_receipt
    ADD CONSTRAINT review_receipt_context_id_record_id_revision_key UNIQUE (context_id, record_id, revision);

ALTER TABLE ONLY public.review_receipt
    ADD CONSTRAINT review_receipt_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.schema_migration
    ADD CONSTRAINT schema_migration_pkey PRIMARY KEY (version);

ALTER TABLE ONLY public.session
    ADD CONSTRAINT session_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.turn
    ADD CONSTRAINT turn_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.usage
    ADD CONSTRAINT usage_pkey PRIMARY KEY (context_id, day, stage, model);

ALTER TABLE ONLY public.webhook_delivery
    ADD CONSTRAINT webhook_delivery_context_id_subscription_id_event_id_key UNIQUE (context_id, subscription_id, event_id);

ALTER TABLE ONLY public.webhook_delivery
    ADD CONSTRAINT webhook_delivery_pkey PRIMARY KEY (context_id, id);

ALTER TABLE ONLY public.webhook_subscription
    ADD CONSTRAINT webhook_subscription_pkey PRIMARY KEY (context_id, id);

CREATE INDEX api_key_id ON public.api_key USING btree (id);

CREATE INDEX audit_event_context ON public.audit_event USING btree (context_id, created_at);

CREATE INDEX change_event_record ON public.change_event USING btree (context_id, record_id, seq);

CREATE INDEX chunk_context_tsv ON ONLY public.chunk USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX chunk_document ON ONLY public.chunk USING btree (context_id, document_id);

CREATE INDEX chunk_hold ON ONLY public.chunk USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX chunk_p00_context_id_document_id_idx ON public.chunk_p00 USING btree (context_id, document_id);

CREATE INDEX chunk_p00_context_id_hold_judgement_id_idx ON public.chunk_p00 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX chunk_turn ON ONLY public.chunk USING btree (context_id, turn_id);

CREATE INDEX chunk_p00_context_id_turn_id_idx ON public.chunk_p00 USING btree (context_id, turn_id);

CREATE INDEX chunk_p00_expr_idx ON public.chunk_p00 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX chunk_p01_context_id_document_id_idx ON public.chunk_p01 USING btree (context_id, document_id);

CREATE INDEX chunk_p01_context_id_hold_judgement_id_idx ON public.chunk_p01 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX chunk_p01_context_id_turn_id_idx ON public.chunk_p01 USING btree (context_id, turn_id);

CREATE INDEX chunk_p01_expr_idx ON public.chunk_p01 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX chunk_p02_context_id_document_id_idx ON public.chunk_p02 USING btree (context_id, document_id);

CREATE INDEX chunk_p02_context_id_hold_judgement_id_idx ON public.chunk_p02 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX chunk_p02_context_id_turn_id_idx ON public.chunk_p02 USING btree (context_id, turn_id);

CREATE INDEX chunk_p02_expr_idx ON public.chunk_p02 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX chunk_p03_context_id_document_id_idx ON public.chunk_p03 USING btree (context_id, document_id);

CREATE INDEX chunk_p03_context_id_hold_judgement_id_idx ON public.chunk_p03 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX chunk_p03_context_id_turn_id_idx ON public.chunk_p03 USING btree (context_id, turn_id);

CREATE INDEX chunk_p03_expr_idx ON public.chunk_p03 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX chunk_p04_context_id_document_id_idx ON public.chunk_p04 USING btree (context_id, document_id);

CREATE INDEX chunk_p04_context_id_hold_judgement_id_idx ON public.chunk_p04 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX chunk_p04_context_id_turn_id_idx ON public.chunk_p04 USING btree (context_id, turn_id);

CREATE INDEX chunk_p04_expr_idx ON public.chunk_p04 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX chunk_p05_context_id_document_id_idx ON public.chunk_p05 USING btree (context_id, document_id);

CREATE INDEX chunk_p05_context_id_hold_judgement_id_idx ON public.chunk_p05 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX chunk_p05_context_id_turn_id_idx ON public.chunk_p05 USING btree (context_id, turn_id);

CREATE INDEX chunk_p05_expr_idx ON public.chunk_p05 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX chunk_p06_context_id_document_id_idx ON public.chunk_p06 USING btree (context_id, document_id);

CREATE INDEX chunk_p06_context_id_hold_judgement_id_idx ON public.chunk_p06 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX chunk_p06_context_id_turn_id_idx ON public.chunk_p06 USING btree (context_id, turn_id);

CREATE INDEX chunk_p06_expr_idx ON public.chunk_p06 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX chunk_p07_context_id_document_id_idx ON public.chunk_p07 USING btree (context_id, document_id);

CREATE INDEX chunk_p07_context_id_hold_judgement_id_idx ON public.chunk_p07 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX chunk_p07_context_id_turn_id_idx ON public.chunk_p07 USING btree (context_id, turn_id);

CREATE INDEX chunk_p07_expr_idx ON public.chunk_p07 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX chunk_p08_context_id_document_id_idx ON public.chunk_p08 USING btree (context_id, document_id);

CREATE INDEX chunk_p08_context_id_hold_judgement_id_idx ON public.chunk_p08 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX chunk_p08_context_id_turn_id_idx ON public.chunk_p08 USING btree (context_id, turn_id);

CREATE INDEX chunk_p08_expr_idx ON public.chunk_p08 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX chunk_p09_context_id_document_id_idx ON public.chunk_p09 USING btree (context_id, document_id);

CREATE INDEX chunk_p09_context_id_hold_judgement_id_idx ON public.chunk_p09 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX chunk_p09_context_id_turn_id_idx ON public.chunk_p09 USING btree (context_id, turn_id);

CREATE INDEX chunk_p09_expr_idx ON public.chunk_p09 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX chunk_p10_context_id_document_id_idx ON public.chunk_p10 USING btree (context_id, document_id);

CREATE INDEX chunk_p10_context_id_hold_judgement_id_idx ON public.chunk_p10 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX chunk_p10_context_id_turn_id_idx ON public.chunk_p10 USING btree (context_id, turn_id);

CREATE INDEX chunk_p10_expr_idx ON public.chunk_p10 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX chunk_p11_context_id_document_id_idx ON public.chunk_p11 USING btree (context_id, document_id);

CREATE INDEX chunk_p11_context_id_hold_judgement_id_idx ON public.chunk_p11 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX chunk_p11_context_id_turn_id_idx ON public.chunk_p11 USING btree (context_id, turn_id);

CREATE INDEX chunk_p11_expr_idx ON public.chunk_p11 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX chunk_p12_context_id_document_id_idx ON public.chunk_p12 USING btree (context_id, document_id);

CREATE INDEX chunk_p12_context_id_hold_judgement_id_idx ON public.chunk_p12 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX chunk_p12_context_id_turn_id_idx ON public.chunk_p12 USING btree (context_id, turn_id);

CREATE INDEX chunk_p12_expr_idx ON public.chunk_p12 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX chunk_p13_context_id_document_id_idx ON public.chunk_p13 USING btree (context_id, document_id);

CREATE INDEX chunk_p13_context_id_hold_judgement_id_idx ON public.chunk_p13 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX chunk_p13_context_id_turn_id_idx ON public.chunk_p13 USING btree (context_id, turn_id);

CREATE INDEX chunk_p13_expr_idx ON public.chunk_p13 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX chunk_p14_context_id_document_id_idx ON public.chunk_p14 USING btree (context_id, document_id);

CREATE INDEX chunk_p14_context_id_hold_judgement_id_idx ON public.chunk_p14 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX chunk_p14_context_id_turn_id_idx ON public.chunk_p14 USING btree (context_id, turn_id);

CREATE INDEX chunk_p14_expr_idx ON public.chunk_p14 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX chunk_p15_context_id_document_id_idx ON public.chunk_p15 USING btree (context_id, document_id);

CREATE INDEX chunk_p15_context_id_hold_judgement_id_idx ON public.chunk_p15 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX chunk_p15_context_id_turn_id_idx ON public.chunk_p15 USING btree (context_id, turn_id);

CREATE INDEX chunk_p15_expr_idx ON public.chunk_p15 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE UNIQUE INDEX conflict_pair_guard ON public.conflict USING btree (context_id, LEAST(record_a, record_b), GREATEST(record_a, record_b)) WHERE ((origin <> 'challenge'::text) AND ((status = 'pending'::text) OR (decided_by IS NOT NULL)));

CREATE INDEX conflict_pending ON public.conflict USING btree (context_id, status, created_at);

CREATE INDEX conflict_record_a ON public.conflict USING btree (context_id, record_a);

CREATE INDEX conflict_record_b ON public.conflict USING btree (context_id, record_b);

CREATE INDEX document_unprocessed ON public.document USING btree (context_id) INCLUDE (size_bytes) WHERE (status = ANY (ARRAY['pending'::text, 'processing'::text]));

CREATE INDEX erasure_open ON public.erasure USING btree (context_id) WHERE (status = ANY (ARRAY['queued'::text, 'running'::text]));

CREATE UNIQUE INDEX hygiene_run_one_full ON public.hygiene_run USING btree (context_id) WHERE ((kind <> 'write'::text) AND (status = ANY (ARRAY['queued'::text, 'running'::text])));

CREATE INDEX idx_procrastinate_jobs_worker_not_null ON public.procrastinate_jobs USING btree (worker_id) WHERE ((worker_id IS NOT NULL) AND (status = 'doing'::public.procrastinate_job_status));

CREATE INDEX idx_procrastinate_workers_last_heartbeat ON public.procrastinate_workers USING btree (last_heartbeat);

CREATE INDEX import_item_written ON public.import_item USING btree (context_id, item_key) WHERE (outcome = ANY (ARRAY['imported'::text, 'held'::text, 'duplicate'::text]));

CREATE INDEX import_run_open ON public.import_run USING btree (created_at) WHERE (status = ANY (ARRAY['queued'::text, 'running'::text]));

CREATE INDEX judgement_recent ON public.judgement USING btree (context_id, created_at DESC, id DESC);

CREATE INDEX memory_record_author ON ONLY public.memory_record USING btree (context_id, author_subject);

CREATE INDEX memory_record_context_tsv ON ONLY public.memory_record USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX memory_record_entity_attr ON ONLY public.memory_record USING btree (context_id, entity_id, attr_key) WHERE (entity_id IS NOT NULL);

CREATE INDEX memory_record_entity_name ON ONLY public.memory_record USING btree (context_id, norm_name) WHERE (kind = 'entity'::text);

CREATE INDEX memory_record_hold ON ONLY public.memory_record USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX memory_record_kind ON ONLY public.memory_record USING btree (context_id, kind, serving);

CREATE INDEX memory_record_modified ON ONLY public.memory_record USING btree (context_id, modified_at DESC, id DESC);

CREATE INDEX memory_record_note_ident ON ONLY public.memory_record USING btree (context_id, kind, norm_name) WHERE (kind = ANY (ARRAY['instruction'::text, 'uncertainty'::text]));

CREATE INDEX memory_record_object_entity ON ONLY public.memory_record USING btree (context_id, object_entity_id) WHERE (object_entity_id IS NOT NULL);

CREATE INDEX memory_record_p00_context_id_author_subject_idx ON public.memory_record_p00 USING btree (context_id, author_subject);

CREATE INDEX memory_record_p00_context_id_entity_id_attr_key_idx ON public.memory_record_p00 USING btree (context_id, entity_id, attr_key) WHERE (entity_id IS NOT NULL);

CREATE INDEX memory_record_p00_context_id_hold_judgement_id_idx ON public.memory_record_p00 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX memory_record_p00_context_id_kind_norm_name_idx ON public.memory_record_p00 USING btree (context_id, kind, norm_name) WHERE (kind = ANY (ARRAY['instruction'::text, 'uncertainty'::text]));

CREATE INDEX memory_record_p00_context_id_kind_serving_idx ON public.memory_record_p00 USING btree (context_id, kind, serving);

CREATE INDEX memory_record_p00_context_id_modified_at_id_idx ON public.memory_record_p00 USING btree (context_id, modified_at DESC, id DESC);

CREATE INDEX memory_record_p00_context_id_norm_name_idx ON public.memory_record_p00 USING btree (context_id, norm_name) WHERE (kind = 'entity'::text);

CREATE INDEX memory_record_p00_context_id_object_entity_id_idx ON public.memory_record_p00 USING btree (context_id, object_entity_id) WHERE (object_entity_id IS NOT NULL);

CREATE INDEX memory_record_source ON ONLY public.memory_record USING btree (context_id, source_kind, source_ref);

CREATE INDEX memory_record_p00_context_id_source_kind_source_ref_idx ON public.memory_record_p00 USING btree (context_id, source_kind, source_ref);

CREATE INDEX memory_record_p00_expr_idx ON public.memory_record_p00 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX memory_record_p01_context_id_author_subject_idx ON public.memory_record_p01 USING btree (context_id, author_subject);

CREATE INDEX memory_record_p01_context_id_entity_id_attr_key_idx ON public.memory_record_p01 USING btree (context_id, entity_id, attr_key) WHERE (entity_id IS NOT NULL);

CREATE INDEX memory_record_p01_context_id_hold_judgement_id_idx ON public.memory_record_p01 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX memory_record_p01_context_id_kind_norm_name_idx ON public.memory_record_p01 USING btree (context_id, kind, norm_name) WHERE (kind = ANY (ARRAY['instruction'::text, 'uncertainty'::text]));

CREATE INDEX memory_record_p01_context_id_kind_serving_idx ON public.memory_record_p01 USING btree (context_id, kind, serving);

CREATE INDEX memory_record_p01_context_id_modified_at_id_idx ON public.memory_record_p01 USING btree (context_id, modified_at DESC, id DESC);

CREATE INDEX memory_record_p01_context_id_norm_name_idx ON public.memory_record_p01 USING btree (context_id, norm_name) WHERE (kind = 'entity'::text);

CREATE INDEX memory_record_p01_context_id_object_entity_id_idx ON public.memory_record_p01 USING btree (context_id, object_entity_id) WHERE (object_entity_id IS NOT NULL);

CREATE INDEX memory_record_p01_context_id_source_kind_source_ref_idx ON public.memory_record_p01 USING btree (context_id, source_kind, source_ref);

CREATE INDEX memory_record_p01_expr_idx ON public.memory_record_p01 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX memory_record_p02_context_id_author_subject_idx ON public.memory_record_p02 USING btree (context_id, author_subject);

CREATE INDEX memory_record_p02_context_id_entity_id_attr_key_idx ON public.memory_record_p02 USING btree (context_id, entity_id, attr_key) WHERE (entity_id IS NOT NULL);

CREATE INDEX memory_record_p02_context_id_hold_judgement_id_idx ON public.memory_record_p02 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX memory_record_p02_context_id_kind_norm_name_idx ON public.memory_record_p02 USING btree (context_id, kind, norm_name) WHERE (kind = ANY (ARRAY['instruction'::text, 'uncertainty'::text]));

CREATE INDEX memory_record_p02_context_id_kind_serving_idx ON public.memory_record_p02 USING btree (context_id, kind, serving);

CREATE INDEX memory_record_p02_context_id_modified_at_id_idx ON public.memory_record_p02 USING btree (context_id, modified_at DESC, id DESC);

CREATE INDEX memory_record_p02_context_id_norm_name_idx ON public.memory_record_p02 USING btree (context_id, norm_name) WHERE (kind = 'entity'::text);

CREATE INDEX memory_record_p02_context_id_object_entity_id_idx ON public.memory_record_p02 USING btree (context_id, object_entity_id) WHERE (object_entity_id IS NOT NULL);

CREATE INDEX memory_record_p02_context_id_source_kind_source_ref_idx ON public.memory_record_p02 USING btree (context_id, source_kind, source_ref);

CREATE INDEX memory_record_p02_expr_idx ON public.memory_record_p02 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX memory_record_p03_context_id_author_subject_idx ON public.memory_record_p03 USING btree (context_id, author_subject);

CREATE INDEX memory_record_p03_context_id_entity_id_attr_key_idx ON public.memory_record_p03 USING btree (context_id, entity_id, attr_key) WHERE (entity_id IS NOT NULL);

CREATE INDEX memory_record_p03_context_id_hold_judgement_id_idx ON public.memory_record_p03 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX memory_record_p03_context_id_kind_norm_name_idx ON public.memory_record_p03 USING btree (context_id, kind, norm_name) WHERE (kind = ANY (ARRAY['instruction'::text, 'uncertainty'::text]));

CREATE INDEX memory_record_p03_context_id_kind_serving_idx ON public.memory_record_p03 USING btree (context_id, kind, serving);

CREATE INDEX memory_record_p03_context_id_modified_at_id_idx ON public.memory_record_p03 USING btree (context_id, modified_at DESC, id DESC);

CREATE INDEX memory_record_p03_context_id_norm_name_idx ON public.memory_record_p03 USING btree (context_id, norm_name) WHERE (kind = 'entity'::text);

CREATE INDEX memory_record_p03_context_id_object_entity_id_idx ON public.memory_record_p03 USING btree (context_id, object_entity_id) WHERE (object_entity_id IS NOT NULL);

CREATE INDEX memory_record_p03_context_id_source_kind_source_ref_idx ON public.memory_record_p03 USING btree (context_id, source_kind, source_ref);

CREATE INDEX memory_record_p03_expr_idx ON public.memory_record_p03 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX memory_record_p04_context_id_author_subject_idx ON public.memory_record_p04 USING btree (context_id, author_subject);

CREATE INDEX memory_record_p04_context_id_entity_id_attr_key_idx ON public.memory_record_p04 USING btree (context_id, entity_id, attr_key) WHERE (entity_id IS NOT NULL);

CREATE INDEX memory_record_p04_context_id_hold_judgement_id_idx ON public.memory_record_p04 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX memory_record_p04_context_id_kind_norm_name_idx ON public.memory_record_p04 USING btree (context_id, kind, norm_name) WHERE (kind = ANY (ARRAY['instruction'::text, 'uncertainty'::text]));

CREATE INDEX memory_record_p04_context_id_kind_serving_idx ON public.memory_record_p04 USING btree (context_id, kind, serving);

CREATE INDEX memory_record_p04_context_id_modified_at_id_idx ON public.memory_record_p04 USING btree (context_id, modified_at DESC, id DESC);

CREATE INDEX memory_record_p04_context_id_norm_name_idx ON public.memory_record_p04 USING btree (context_id, norm_name) WHERE (kind = 'entity'::text);

CREATE INDEX memory_record_p04_context_id_object_entity_id_idx ON public.memory_record_p04 USING btree (context_id, object_entity_id) WHERE (object_entity_id IS NOT NULL);

CREATE INDEX memory_record_p04_context_id_source_kind_source_ref_idx ON public.memory_record_p04 USING btree (context_id, source_kind, source_ref);

CREATE INDEX memory_record_p04_expr_idx ON public.memory_record_p04 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX memory_record_p05_context_id_author_subject_idx ON public.memory_record_p05 USING btree (context_id, author_subject);

CREATE INDEX memory_record_p05_context_id_entity_id_attr_key_idx ON public.memory_record_p05 USING btree (context_id, entity_id, attr_key) WHERE (entity_id IS NOT NULL);

CREATE INDEX memory_record_p05_context_id_hold_judgement_id_idx ON public.memory_record_p05 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX memory_record_p05_context_id_kind_norm_name_idx ON public.memory_record_p05 USING btree (context_id, kind, norm_name) WHERE (kind = ANY (ARRAY['instruction'::text, 'uncertainty'::text]));

CREATE INDEX memory_record_p05_context_id_kind_serving_idx ON public.memory_record_p05 USING btree (context_id, kind, serving);

CREATE INDEX memory_record_p05_context_id_modified_at_id_idx ON public.memory_record_p05 USING btree (context_id, modified_at DESC, id DESC);

CREATE INDEX memory_record_p05_context_id_norm_name_idx ON public.memory_record_p05 USING btree (context_id, norm_name) WHERE (kind = 'entity'::text);

CREATE INDEX memory_record_p05_context_id_object_entity_id_idx ON public.memory_record_p05 USING btree (context_id, object_entity_id) WHERE (object_entity_id IS NOT NULL);

CREATE INDEX memory_record_p05_context_id_source_kind_source_ref_idx ON public.memory_record_p05 USING btree (context_id, source_kind, source_ref);

CREATE INDEX memory_record_p05_expr_idx ON public.memory_record_p05 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX memory_record_p06_context_id_author_subject_idx ON public.memory_record_p06 USING btree (context_id, author_subject);

CREATE INDEX memory_record_p06_context_id_entity_id_attr_key_idx ON public.memory_record_p06 USING btree (context_id, entity_id, attr_key) WHERE (entity_id IS NOT NULL);

CREATE INDEX memory_record_p06_context_id_hold_judgement_id_idx ON public.memory_record_p06 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX memory_record_p06_context_id_kind_norm_name_idx ON public.memory_record_p06 USING btree (context_id, kind, norm_name) WHERE (kind = ANY (ARRAY['instruction'::text, 'uncertainty'::text]));

CREATE INDEX memory_record_p06_context_id_kind_serving_idx ON public.memory_record_p06 USING btree (context_id, kind, serving);

CREATE INDEX memory_record_p06_context_id_modified_at_id_idx ON public.memory_record_p06 USING btree (context_id, modified_at DESC, id DESC);

CREATE INDEX memory_record_p06_context_id_norm_name_idx ON public.memory_record_p06 USING btree (context_id, norm_name) WHERE (kind = 'entity'::text);

CREATE INDEX memory_record_p06_context_id_object_entity_id_idx ON public.memory_record_p06 USING btree (context_id, object_entity_id) WHERE (object_entity_id IS NOT NULL);

CREATE INDEX memory_record_p06_context_id_source_kind_source_ref_idx ON public.memory_record_p06 USING btree (context_id, source_kind, source_ref);

CREATE INDEX memory_record_p06_expr_idx ON public.memory_record_p06 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX memory_record_p07_context_id_author_subject_idx ON public.memory_record_p07 USING btree (context_id, author_subject);

CREATE INDEX memory_record_p07_context_id_entity_id_attr_key_idx ON public.memory_record_p07 USING btree (context_id, entity_id, attr_key) WHERE (entity_id IS NOT NULL);

CREATE INDEX memory_record_p07_context_id_hold_judgement_id_idx ON public.memory_record_p07 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX memory_record_p07_context_id_kind_norm_name_idx ON public.memory_record_p07 USING btree (context_id, kind, norm_name) WHERE (kind = ANY (ARRAY['instruction'::text, 'uncertainty'::text]));

CREATE INDEX memory_record_p07_context_id_kind_serving_idx ON public.memory_record_p07 USING btree (context_id, kind, serving);

CREATE INDEX memory_record_p07_context_id_modified_at_id_idx ON public.memory_record_p07 USING btree (context_id, modified_at DESC, id DESC);

CREATE INDEX memory_record_p07_context_id_norm_name_idx ON public.memory_record_p07 USING btree (context_id, norm_name) WHERE (kind = 'entity'::text);

CREATE INDEX memory_record_p07_context_id_object_entity_id_idx ON public.memory_record_p07 USING btree (context_id, object_entity_id) WHERE (object_entity_id IS NOT NULL);

CREATE INDEX memory_record_p07_context_id_source_kind_source_ref_idx ON public.memory_record_p07 USING btree (context_id, source_kind, source_ref);

CREATE INDEX memory_record_p07_expr_idx ON public.memory_record_p07 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX memory_record_p08_context_id_author_subject_idx ON public.memory_record_p08 USING btree (context_id, author_subject);

CREATE INDEX memory_record_p08_context_id_entity_id_attr_key_idx ON public.memory_record_p08 USING btree (context_id, entity_id, attr_key) WHERE (entity_id IS NOT NULL);

CREATE INDEX memory_record_p08_context_id_hold_judgement_id_idx ON public.memory_record_p08 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX memory_record_p08_context_id_kind_norm_name_idx ON public.memory_record_p08 USING btree (context_id, kind, norm_name) WHERE (kind = ANY (ARRAY['instruction'::text, 'uncertainty'::text]));

CREATE INDEX memory_record_p08_context_id_kind_serving_idx ON public.memory_record_p08 USING btree (context_id, kind, serving);

CREATE INDEX memory_record_p08_context_id_modified_at_id_idx ON public.memory_record_p08 USING btree (context_id, modified_at DESC, id DESC);

CREATE INDEX memory_record_p08_context_id_norm_name_idx ON public.memory_record_p08 USING btree (context_id, norm_name) WHERE (kind = 'entity'::text);

CREATE INDEX memory_record_p08_context_id_object_entity_id_idx ON public.memory_record_p08 USING btree (context_id, object_entity_id) WHERE (object_entity_id IS NOT NULL);

CREATE INDEX memory_record_p08_context_id_source_kind_source_ref_idx ON public.memory_record_p08 USING btree (context_id, source_kind, source_ref);

CREATE INDEX memory_record_p08_expr_idx ON public.memory_record_p08 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX memory_record_p09_context_id_author_subject_idx ON public.memory_record_p09 USING btree (context_id, author_subject);

CREATE INDEX memory_record_p09_context_id_entity_id_attr_key_idx ON public.memory_record_p09 USING btree (context_id, entity_id, attr_key) WHERE (entity_id IS NOT NULL);

CREATE INDEX memory_record_p09_context_id_hold_judgement_id_idx ON public.memory_record_p09 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX memory_record_p09_context_id_kind_norm_name_idx ON public.memory_record_p09 USING btree (context_id, kind, norm_name) WHERE (kind = ANY (ARRAY['instruction'::text, 'uncertainty'::text]));

CREATE INDEX memory_record_p09_context_id_kind_serving_idx ON public.memory_record_p09 USING btree (context_id, kind, serving);

CREATE INDEX memory_record_p09_context_id_modified_at_id_idx ON public.memory_record_p09 USING btree (context_id, modified_at DESC, id DESC);

CREATE INDEX memory_record_p09_context_id_norm_name_idx ON public.memory_record_p09 USING btree (context_id, norm_name) WHERE (kind = 'entity'::text);

CREATE INDEX memory_record_p09_context_id_object_entity_id_idx ON public.memory_record_p09 USING btree (context_id, object_entity_id) WHERE (object_entity_id IS NOT NULL);

CREATE INDEX memory_record_p09_context_id_source_kind_source_ref_idx ON public.memory_record_p09 USING btree (context_id, source_kind, source_ref);

CREATE INDEX memory_record_p09_expr_idx ON public.memory_record_p09 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX memory_record_p10_context_id_author_subject_idx ON public.memory_record_p10 USING btree (context_id, author_subject);

CREATE INDEX memory_record_p10_context_id_entity_id_attr_key_idx ON public.memory_record_p10 USING btree (context_id, entity_id, attr_key) WHERE (entity_id IS NOT NULL);

CREATE INDEX memory_record_p10_context_id_hold_judgement_id_idx ON public.memory_record_p10 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX memory_record_p10_context_id_kind_norm_name_idx ON public.memory_record_p10 USING btree (context_id, kind, norm_name) WHERE (kind = ANY (ARRAY['instruction'::text, 'uncertainty'::text]));

CREATE INDEX memory_record_p10_context_id_kind_serving_idx ON public.memory_record_p10 USING btree (context_id, kind, serving);

CREATE INDEX memory_record_p10_context_id_modified_at_id_idx ON public.memory_record_p10 USING btree (context_id, modified_at DESC, id DESC);

CREATE INDEX memory_record_p10_context_id_norm_name_idx ON public.memory_record_p10 USING btree (context_id, norm_name) WHERE (kind = 'entity'::text);

CREATE INDEX memory_record_p10_context_id_object_entity_id_idx ON public.memory_record_p10 USING btree (context_id, object_entity_id) WHERE (object_entity_id IS NOT NULL);

CREATE INDEX memory_record_p10_context_id_source_kind_source_ref_idx ON public.memory_record_p10 USING btree (context_id, source_kind, source_ref);

CREATE INDEX memory_record_p10_expr_idx ON public.memory_record_p10 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX memory_record_p11_context_id_author_subject_idx ON public.memory_record_p11 USING btree (context_id, author_subject);

CREATE INDEX memory_record_p11_context_id_entity_id_attr_key_idx ON public.memory_record_p11 USING btree (context_id, entity_id, attr_key) WHERE (entity_id IS NOT NULL);

CREATE INDEX memory_record_p11_context_id_hold_judgement_id_idx ON public.memory_record_p11 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX memory_record_p11_context_id_kind_norm_name_idx ON public.memory_record_p11 USING btree (context_id, kind, norm_name) WHERE (kind = ANY (ARRAY['instruction'::text, 'uncertainty'::text]));

CREATE INDEX memory_record_p11_context_id_kind_serving_idx ON public.memory_record_p11 USING btree (context_id, kind, serving);

CREATE INDEX memory_record_p11_context_id_modified_at_id_idx ON public.memory_record_p11 USING btree (context_id, modified_at DESC, id DESC);

CREATE INDEX memory_record_p11_context_id_norm_name_idx ON public.memory_record_p11 USING btree (context_id, norm_name) WHERE (kind = 'entity'::text);

CREATE INDEX memory_record_p11_context_id_object_entity_id_idx ON public.memory_record_p11 USING btree (context_id, object_entity_id) WHERE (object_entity_id IS NOT NULL);

CREATE INDEX memory_record_p11_context_id_source_kind_source_ref_idx ON public.memory_record_p11 USING btree (context_id, source_kind, source_ref);

CREATE INDEX memory_record_p11_expr_idx ON public.memory_record_p11 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX memory_record_p12_context_id_author_subject_idx ON public.memory_record_p12 USING btree (context_id, author_subject);

CREATE INDEX memory_record_p12_context_id_entity_id_attr_key_idx ON public.memory_record_p12 USING btree (context_id, entity_id, attr_key) WHERE (entity_id IS NOT NULL);

CREATE INDEX memory_record_p12_context_id_hold_judgement_id_idx ON public.memory_record_p12 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX memory_record_p12_context_id_kind_norm_name_idx ON public.memory_record_p12 USING btree (context_id, kind, norm_name) WHERE (kind = ANY (ARRAY['instruction'::text, 'uncertainty'::text]));

CREATE INDEX memory_record_p12_context_id_kind_serving_idx ON public.memory_record_p12 USING btree (context_id, kind, serving);

CREATE INDEX memory_record_p12_context_id_modified_at_id_idx ON public.memory_record_p12 USING btree (context_id, modified_at DESC, id DESC);

CREATE INDEX memory_record_p12_context_id_norm_name_idx ON public.memory_record_p12 USING btree (context_id, norm_name) WHERE (kind = 'entity'::text);

CREATE INDEX memory_record_p12_context_id_object_entity_id_idx ON public.memory_record_p12 USING btree (context_id, object_entity_id) WHERE (object_entity_id IS NOT NULL);

CREATE INDEX memory_record_p12_context_id_source_kind_source_ref_idx ON public.memory_record_p12 USING btree (context_id, source_kind, source_ref);

CREATE INDEX memory_record_p12_expr_idx ON public.memory_record_p12 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX memory_record_p13_context_id_author_subject_idx ON public.memory_record_p13 USING btree (context_id, author_subject);

CREATE INDEX memory_record_p13_context_id_entity_id_attr_key_idx ON public.memory_record_p13 USING btree (context_id, entity_id, attr_key) WHERE (entity_id IS NOT NULL);

CREATE INDEX memory_record_p13_context_id_hold_judgement_id_idx ON public.memory_record_p13 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX memory_record_p13_context_id_kind_norm_name_idx ON public.memory_record_p13 USING btree (context_id, kind, norm_name) WHERE (kind = ANY (ARRAY['instruction'::text, 'uncertainty'::text]));

CREATE INDEX memory_record_p13_context_id_kind_serving_idx ON public.memory_record_p13 USING btree (context_id, kind, serving);

CREATE INDEX memory_record_p13_context_id_modified_at_id_idx ON public.memory_record_p13 USING btree (context_id, modified_at DESC, id DESC);

CREATE INDEX memory_record_p13_context_id_norm_name_idx ON public.memory_record_p13 USING btree (context_id, norm_name) WHERE (kind = 'entity'::text);

CREATE INDEX memory_record_p13_context_id_object_entity_id_idx ON public.memory_record_p13 USING btree (context_id, object_entity_id) WHERE (object_entity_id IS NOT NULL);

CREATE INDEX memory_record_p13_context_id_source_kind_source_ref_idx ON public.memory_record_p13 USING btree (context_id, source_kind, source_ref);

CREATE INDEX memory_record_p13_expr_idx ON public.memory_record_p13 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX memory_record_p14_context_id_author_subject_idx ON public.memory_record_p14 USING btree (context_id, author_subject);

CREATE INDEX memory_record_p14_context_id_entity_id_attr_key_idx ON public.memory_record_p14 USING btree (context_id, entity_id, attr_key) WHERE (entity_id IS NOT NULL);

CREATE INDEX memory_record_p14_context_id_hold_judgement_id_idx ON public.memory_record_p14 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX memory_record_p14_context_id_kind_norm_name_idx ON public.memory_record_p14 USING btree (context_id, kind, norm_name) WHERE (kind = ANY (ARRAY['instruction'::text, 'uncertainty'::text]));

CREATE INDEX memory_record_p14_context_id_kind_serving_idx ON public.memory_record_p14 USING btree (context_id, kind, serving);

CREATE INDEX memory_record_p14_context_id_modified_at_id_idx ON public.memory_record_p14 USING btree (context_id, modified_at DESC, id DESC);

CREATE INDEX memory_record_p14_context_id_norm_name_idx ON public.memory_record_p14 USING btree (context_id, norm_name) WHERE (kind = 'entity'::text);

CREATE INDEX memory_record_p14_context_id_object_entity_id_idx ON public.memory_record_p14 USING btree (context_id, object_entity_id) WHERE (object_entity_id IS NOT NULL);

CREATE INDEX memory_record_p14_context_id_source_kind_source_ref_idx ON public.memory_record_p14 USING btree (context_id, source_kind, source_ref);

CREATE INDEX memory_record_p14_expr_idx ON public.memory_record_p14 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX memory_record_p15_context_id_author_subject_idx ON public.memory_record_p15 USING btree (context_id, author_subject);

CREATE INDEX memory_record_p15_context_id_entity_id_attr_key_idx ON public.memory_record_p15 USING btree (context_id, entity_id, attr_key) WHERE (entity_id IS NOT NULL);

CREATE INDEX memory_record_p15_context_id_hold_judgement_id_idx ON public.memory_record_p15 USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX memory_record_p15_context_id_kind_norm_name_idx ON public.memory_record_p15 USING btree (context_id, kind, norm_name) WHERE (kind = ANY (ARRAY['instruction'::text, 'uncertainty'::text]));

CREATE INDEX memory_record_p15_context_id_kind_serving_idx ON public.memory_record_p15 USING btree (context_id, kind, serving);

CREATE INDEX memory_record_p15_context_id_modified_at_id_idx ON public.memory_record_p15 USING btree (context_id, modified_at DESC, id DESC);

CREATE INDEX memory_record_p15_context_id_norm_name_idx ON public.memory_record_p15 USING btree (context_id, norm_name) WHERE (kind = 'entity'::text);

CREATE INDEX memory_record_p15_context_id_object_entity_id_idx ON public.memory_record_p15 USING btree (context_id, object_entity_id) WHERE (object_entity_id IS NOT NULL);

CREATE INDEX memory_record_p15_context_id_source_kind_source_ref_idx ON public.memory_record_p15 USING btree (context_id, source_kind, source_ref);

CREATE INDEX memory_record_p15_expr_idx ON public.memory_record_p15 USING gin (((tsv || public.context_lexeme(context_id)))) WITH (fastupdate=off);

CREATE INDEX memory_record_past_since ON public.memory_record_past USING btree (context_id, sys_to);

CREATE INDEX memory_record_past_until ON public.memory_record_past USING btree (context_id, record_id, sys_to);

CREATE INDEX pass_run_recent ON public.pass_run USING btree (context_id, stage, created_at DESC);

CREATE INDEX procrastinate_events_job_id_fkey_v1 ON public.procrastinate_events USING btree (job_id);

CREATE INDEX procrastinate_jobs_id_lock_idx_v1 ON public.procrastinate_jobs USING btree (id, lock) WHERE (status = ANY (ARRAY['todo'::public.procrastinate_job_status, 'doing'::public.procrastinate_job_status]));

CREATE UNIQUE INDEX procrastinate_jobs_lock_idx_v1 ON public.procrastinate_jobs USING btree (lock) WHERE (status = 'doing'::public.procrastinate_job_status);

CREATE INDEX procrastinate_jobs_priority_idx_v1 ON public.procrastinate_jobs USING btree (priority DESC, id) WHERE (status = 'todo'::public.procrastinate_job_status);

CREATE INDEX procrastinate_jobs_queue_name_idx_v1 ON public.procrastinate_jobs USING btree (queue_name);

CREATE UNIQUE INDEX procrastinate_jobs_queueing_lock_idx_v1 ON public.procrastinate_jobs USING btree (queueing_lock) WHERE (status = 'todo'::public.procrastinate_job_status);

CREATE INDEX procrastinate_periodic_defers_job_id_fkey_v1 ON public.procrastinate_periodic_defers USING btree (job_id);

CREATE UNIQUE INDEX review_receipt_idempotency ON public.review_receipt USING btree (context_id, reviewer_subject, idempotency_key) WHERE (idempotency_key IS NOT NULL);

CREATE INDEX turn_hold ON public.turn USING btree (context_id, hold_judgement_id) WHERE (hold_judgement_id IS NOT NULL);

CREATE INDEX turn_principal ON public.turn USING btree (context_id, principal_id);

CREATE INDEX turn_session ON public.turn USING btree (context_id, session_id, created_at);

CREATE INDEX webhook_delivery_by_subscription ON public.webhook_delivery USING btree (context_id, subscription_id, n);

CREATE INDEX webhook_delivery_due ON public.webhook_delivery USING btree (next_attempt_at) WHERE (status = 'pending'::text);

ALTER INDEX public.chunk_document ATTACH PARTITION public.chunk_p00_context_id_document_id_idx;

ALTER INDEX public.chunk_hold ATTACH PARTITION public.chunk_p00_context_id_hold_judgement_id_idx;

ALTER INDEX public.chunk_turn ATTACH PARTITION public.chunk_p00_context_id_turn_id_idx;

ALTER INDEX public.chunk_context_tsv ATTACH PARTITION public.chunk_p00_expr_idx;

ALTER INDEX public.chunk_pkey ATTACH PARTITION public.chunk_p00_pkey;

ALTER INDEX public.chunk_document ATTACH PARTITION public.chunk_p01_context_id_document_id_idx;

ALTER INDEX public.chunk_hold ATTACH PARTITION public.chunk_p01_context_id_hold_judgement_id_idx;

ALTER INDEX public.chunk_turn ATTACH PARTITION public.chunk_p01_context_id_turn_id_idx;

ALTER INDEX public.chunk_context_tsv ATTACH PARTITION public.chunk_p01_expr_idx;

ALTER INDEX public.chunk_pkey ATTACH PARTITION public.chunk_p01_pkey;

ALTER INDEX public.chunk_document ATTACH PARTITION public.chunk_p02_context_id_document_id_idx;

ALTER INDEX public.chunk_hold ATTACH PARTITION public.chunk_p02_context_id_hold_judgement_id_idx;

ALTER INDEX public.chunk_turn ATTACH PARTITION public.chunk_p02_context_id_turn_id_idx;

ALTER INDEX public.chunk_context_tsv ATTACH PARTITION public.chunk_p02_expr_idx;

ALTER INDEX public.chunk_pkey ATTACH PARTITION public.chunk_p02_pkey;

ALTER INDEX public.chunk_document ATTACH PARTITION public.chunk_p03_context_id_document_id_idx;

ALTER INDEX public.chunk_hold ATTACH PARTITION public.chunk_p03_context_id_hold_judgement_id_idx;

ALTER INDEX public.chunk_turn ATTACH PARTITION public.chunk_p03_context_id_turn_id_idx;

ALTER INDEX public.chunk_context_tsv ATTACH PARTITION public.chunk_p03_expr_idx;

ALTER INDEX public.chunk_pkey ATTACH PARTITION public.chunk_p03_pkey;

ALTER INDEX public.chunk_document ATTACH PARTITION public.chunk_p04_context_id_document_id_idx;

ALTER INDEX public.chunk_hold ATTACH PARTITION public.chunk_p04_context_id_hold_judgement_id_idx;

ALTER INDEX public.chunk_turn ATTACH PARTITION public.chunk_p04_context_id_turn_id_idx;

ALTER INDEX public.chunk_context_tsv ATTACH PARTITION public.chunk_p04_expr_idx;

ALTER INDEX public.chunk_pkey ATTACH PARTITION public.chunk_p04_pkey;

ALTER INDEX public.chunk_document ATTACH PARTITION public.chunk_p05_context_id_document_id_idx;

ALTER INDEX public.chunk_hold ATTACH PARTITION public.chunk_p05_context_id_hold_judgement_id_idx;

ALTER INDEX public.chunk_turn ATTACH PARTITION public.chunk_p05_context_id_turn_id_idx;

ALTER INDEX public.chunk_context_tsv ATTACH PARTITION public.chunk_p05_expr_idx;

ALTER INDEX public.chunk_pkey ATTACH PARTITION public.chunk_p05_pkey;

ALTER INDEX public.chunk_document ATTACH PARTITION public.chunk_p06_context_id_document_id_idx;

ALTER INDEX public.chunk_hold ATTACH PARTITION public.chunk_p06_context_id_hold_judgement_id_idx;

ALTER INDEX public.chunk_turn ATTACH PARTITION public.chunk_p06_context_id_turn_id_idx;

ALTER INDEX public.chunk_context_tsv ATTACH PARTITION public.chunk_p06_expr_idx;

ALTER INDEX public.chunk_pkey ATTACH PARTITION public.chunk_p06_pkey;

ALTER INDEX public.chunk_document ATTACH PARTITION public.chunk_p07_context_id_document_id_idx;

ALTER INDEX public.chunk_hold ATTACH PARTITION public.chunk_p07_context_id_hold_judgement_id_idx;

ALTER INDEX public.chunk_turn ATTACH PARTITION public.chunk_p07_context_id_turn_id_idx;

ALTER INDEX public.chunk_context_tsv ATTACH PARTITION public.chunk_p07_expr_idx;

ALTER INDEX public.chunk_pkey ATTACH PARTITION public.chunk_p07_pkey;

ALTER INDEX public.chunk_document ATTACH PARTITION public.chunk_p08_context_id_document_id_idx;

ALTER INDEX public.chunk_hold ATTACH PARTITION public.chunk_p08_context_id_hold_judgement_id_idx;

ALTER INDEX public.chunk_turn ATTACH PARTITION public.chunk_p08_context_id_turn_id_idx;

ALTER INDEX public.chunk_context_tsv ATTACH PARTITION public.chunk_p08_expr_idx;

ALTER INDEX public.chunk_pkey ATTACH PARTITION public.chunk_p08_pkey;

ALTER INDEX public.chunk_document ATTACH PARTITION public.chunk_p09_context_id_document_id_idx;

ALTER INDEX public.chunk_hold ATTACH PARTITION public.chunk_p09_context_id_hold_judgement_id_idx;

ALTER INDEX public.chunk_turn ATTACH PARTITION public.chunk_p09_context_id_turn_id_idx;

ALTER INDEX public.chunk_context_tsv ATTACH PARTITION public.chunk_p09_expr_idx;

ALTER INDEX public.chunk_pkey ATTACH PARTITION public.chunk_p09_pkey;

ALTER INDEX public.chunk_document ATTACH PARTITION public.chunk_p10_context_id_document_id_idx;

ALTER INDEX public.chunk_hold ATTACH PARTITION public.chunk_p10_context_id_hold_judgement_id_idx;

ALTER INDEX public.chunk_turn ATTACH PARTITION public.chunk_p10_context_id_turn_id_idx;

ALTER INDEX public.chunk_context_tsv ATTACH PARTITION public.chunk_p10_expr_idx;

ALTER INDEX public.chunk_pkey ATTACH PARTITION public.chunk_p10_pkey;

ALTER INDEX public.chunk_document ATTACH PARTITION public.chunk_p11_context_id_document_id_idx;

ALTER INDEX public.chunk_hold ATTACH PARTITION public.chunk_p11_context_id_hold_judgement_id_idx;

ALTER INDEX public.chunk_turn ATTACH PARTITION public.chunk_p11_context_id_turn_id_idx;

ALTER INDEX public.chunk_context_tsv ATTACH PARTITION public.chunk_p11_expr_idx;

ALTER INDEX public.chunk_pkey ATTACH PARTITION public.chunk_p11_pkey;

ALTER INDEX public.chunk_document ATTACH PARTITION public.chunk_p12_context_id_document_id_idx;

ALTER INDEX public.chunk_hold ATTACH PARTITION public.chunk_p12_context_id_hold_judgement_id_idx;

ALTER INDEX public.chunk_turn ATTACH PARTITION public.chunk_p12_context_id_turn_id_idx;

ALTER INDEX public.chunk_context_tsv ATTACH PARTITION public.chunk_p12_expr_idx;

ALTER INDEX public.chunk_pkey ATTACH PARTITION public.chunk_p12_pkey;

ALTER INDEX public.chunk_document ATTACH PARTITION public.chunk_p13_context_id_document_id_idx;

ALTER INDEX public.chunk_hold ATTACH PARTITION public.chunk_p13_context_id_hold_judgement_id_idx;

ALTER INDEX public.chunk_turn ATTACH PARTITION public.chunk_p13_context_id_turn_id_idx;

ALTER INDEX public.chunk_context_tsv ATTACH PARTITION public.chunk_p13_expr_idx;

ALTER INDEX public.chunk_pkey ATTACH PARTITION public.chunk_p13_pkey;

ALTER INDEX public.chunk_document ATTACH PARTITION public.chunk_p14_context_id_document_id_idx;

ALTER INDEX public.chunk_hold ATTACH PARTITION public.chunk_p14_context_id_hold_judgement_id_idx;

ALTER INDEX public.chunk_turn ATTACH PARTITION public.chunk_p14_context_id_turn_id_idx;

ALTER INDEX public.chunk_context_tsv ATTACH PARTITION public.chunk_p14_expr_idx;

ALTER INDEX public.chunk_pkey ATTACH PARTITION public.chunk_p14_pkey;

ALTER INDEX public.chunk_document ATTACH PARTITION public.chunk_p15_context_id_document_id_idx;

ALTER INDEX public.chunk_hold ATTACH PARTITION public.chunk_p15_context_id_hold_judgement_id_idx;

ALTER INDEX public.chunk_turn ATTACH PARTITION public.chunk_p15_context_id_turn_id_idx;

ALTER INDEX public.chunk_context_tsv ATTACH PARTITION public.chunk_p15_expr_idx;

ALTER INDEX public.chunk_pkey ATTACH PARTITION public.chunk_p15_pkey;

ALTER INDEX public.memory_record_author ATTACH PARTITION public.memory_record_p00_context_id_author_subject_idx;

ALTER INDEX public.memory_record_entity_attr ATTACH PARTITION public.memory_record_p00_context_id_entity_id_attr_key_idx;

ALTER INDEX public.memory_record_hold ATTACH PARTITION public.memory_record_p00_context_id_hold_judgement_id_idx;

ALTER INDEX public.memory_record_note_ident ATTACH PARTITION public.memory_record_p00_context_id_kind_norm_name_idx;

ALTER INDEX public.memory_record_kind ATTACH PARTITION public.memory_record_p00_context_id_kind_serving_idx;

ALTER INDEX public.memory_record_modified ATTACH PARTITION public.memory_record_p00_context_id_modified_at_id_idx;

ALTER INDEX public.memory_record_entity_name ATTACH PARTITION public.memory_record_p00_context_id_norm_name_idx;

ALTER INDEX public.memory_record_object_entity ATTACH PARTITION public.memory_record_p00_context_id_object_entity_id_idx;

ALTER INDEX public.memory_record_source ATTACH PARTITION public.memory_record_p00_context_id_source_kind_source_ref_idx;

ALTER INDEX public.memory_record_context_tsv ATTACH PARTITION public.memory_record_p00_expr_idx;

ALTER INDEX public.memory_record_pkey ATTACH PARTITION public.memory_record_p00_pkey;

ALTER INDEX public.memory_record_author ATTACH PARTITION public.memory_record_p01_context_id_author_subject_idx;

ALTER INDEX public.memory_record_entity_attr ATTACH PARTITION public.memory_record_p01_context_id_entity_id_attr_key_idx;

ALTER INDEX public.memory_record_hold ATTACH PARTITION public.memory_record_p01_context_id_hold_judgement_id_idx;

ALTER INDEX public.memory_record_note_ident ATTACH PARTITION public.memory_record_p01_context_id_kind_norm_name_idx;

ALTER INDEX public.memory_record_kind ATTACH PARTITION public.memory_record_p01_context_id_kind_serving_idx;

ALTER INDEX public.memory_record_modified ATTACH PARTITION public.memory_record_p01_context_id_modified_at_id_idx;

ALTER INDEX public.memory_record_entity_name ATTACH PARTITION public.memory_record_p01_context_id_norm_name_idx;

ALTER INDEX public.memory_record_object_entity ATTACH PARTITION public.memory_record_p01_context_id_object_entity_id_idx;

ALTER INDEX public.memory_record_source ATTACH PARTITION public.memory_record_p01_context_id_source_kind_source_ref_idx;

ALTER INDEX public.memory_record_context_tsv ATTACH PARTITION public.memory_record_p01_expr_idx;

ALTER INDEX public.memory_record_pkey ATTACH PARTITION public.memory_record_p01_pkey;

ALTER INDEX public.memory_record_author ATTACH PARTITION public.memory_record_p02_context_id_author_subject_idx;

ALTER INDEX public.memory_record_entity_attr ATTACH PARTITION public.memory_record_p02_context_id_entity_id_attr_key_idx;

ALTER INDEX public.memory_record_hold ATTACH PARTITION public.memory_record_p02_context_id_hold_judgement_id_idx;

ALTER INDEX public.memory_record_note_ident ATTACH PARTITION public.memory_record_p02_context_id_kind_norm_name_idx;

ALTER INDEX public.memory_record_kind ATTACH PARTITION public.memory_record_p02_context_id_kind_serving_idx;

ALTER INDEX public.memory_record_modified ATTACH PARTITION public.memory_record_p02_context_id_modified_at_id_idx;

ALTER INDEX public.memory_record_entity_name ATTACH PARTITION public.memory_record_p02_context_id_norm_name_idx;

ALTER INDEX public.memory_record_object_entity ATTACH PARTITION public.memory_record_p02_context_id_object_entity_id_idx;

ALTER INDEX public.memory_record_source ATTACH PARTITION public.memory_record_p02_context_id_source_kind_source_ref_idx;

ALTER INDEX public.memory_record_context_tsv ATTACH PARTITION public.memory_record_p02_expr_idx;

ALTER INDEX public.memory_record_pkey ATTACH PARTITION public.memory_record_p02_pkey;

ALTER INDEX public.memory_record_author ATTACH PARTITION public.memory_record_p03_context_id_author_subject_idx;

ALTER INDEX public.memory_record_entity_attr ATTACH PARTITION public.memory_record_p03_context_id_entity_id_attr_key_idx;

ALTER INDEX public.memory_record_hold ATTACH PARTITION public.memory_record_p03_context_id_hold_judgement_id_idx;

ALTER INDEX public.memory_record_note_ident ATTACH PARTITION public.memory_record_p03_context_id_kind_norm_name_idx;

ALTER INDEX public.memory_record_kind ATTACH PARTITION public.memory_record_p03_context_id_kind_serving_idx;

ALTER INDEX public.memory_record_modified ATTACH PARTITION public.memory_record_p03_context_id_modified_at_id_idx;

ALTER INDEX public.memory_record_entity_name ATTACH PARTITION public.memory_record_p03_context_id_norm_name_idx;

ALTER INDEX public.memory_record_object_entity ATTACH PARTITION public.memory_record_p03_context_id_object_entity_id_idx;

ALTER INDEX public.memory_record_source ATTACH PARTITION public.memory_record_p03_context_id_source_kind_source_ref_idx;

ALTER INDEX public.memory_record_context_tsv ATTACH PARTITION public.memory_record_p03_expr_idx;

ALTER INDEX public.memory_record_pkey ATTACH PARTITION public.memory_record_p03_pkey;

ALTER INDEX public.memory_record_author ATTACH PARTITION public.memory_record_p04_context_id_author_subject_idx;

ALTER INDEX public.memory_record_entity_attr ATTACH PARTITION public.memory_record_p04_context_id_entity_id_attr_key_idx;

ALTER INDEX public.memory_record_hold ATTACH PARTITION public.memory_record_p04_context_id_hold_judgement_id_idx;

ALTER INDEX public.memory_record_note_ident ATTACH PARTITION public.memory_record_p04_context_id_kind_norm_name_idx;

ALTER INDEX public.memory_record_kind ATTACH PARTITION public.memory_record_p04_context_id_kind_serving_idx;

ALTER INDEX public.memory_record_modified ATTACH PARTITION public.memory_record_p04_context_id_modified_at_id_idx;

ALTER INDEX public.memory_record_entity_name ATTACH PARTITION public.memory_record_p04_context_id_norm_name_idx;

ALTER INDEX public.memory_record_object_entity ATTACH PARTITION public.memory_record_p04_context_id_object_entity_id_idx;

ALTER INDEX public.memory_record_source ATTACH PARTITION public.memory_record_p04_context_id_source_kind_source_ref_idx;

ALTER INDEX public.memory_record_context_tsv ATTACH PARTITION public.memory_record_p04_expr_idx;

ALTER INDEX public.memory_record_pkey ATTACH PARTITION public.memory_record_p04_pkey;

ALTER INDEX public.memory_record_author ATTACH PARTITION public.memory_record_p05_context_id_author_subject_idx;

ALTER INDEX public.memory_record_entity_attr ATTACH PARTITION public.memory_record_p05_context_id_entity_id_attr_key_idx;

ALTER INDEX public.memory_record_hold ATTACH PARTITION public.memory_record_p05_context_id_hold_judgement_id_idx;

ALTER INDEX public.memory_record_note_ident ATTACH PARTITION public.memory_record_p05_context_id_kind_norm_name_idx;

ALTER INDEX public.memory_record_kind ATTACH PARTITION public.memory_record_p05_context_id_kind_serving_idx;

ALTER INDEX public.memory_record_modified ATTACH PARTITION public.memory_record_p05_context_id_modified_at_id_idx;

ALTER INDEX public.memory_record_entity_name ATTACH PARTITION public.memory_record_p05_context_id_norm_name_idx;

ALTER INDEX public.memory_record_object_entity ATTACH PARTITION public.memory_record_p05_context_id_object_entity_id_idx;

ALTER INDEX public.memory_record_source ATTACH PARTITION public.memory_record_p05_context_id_source_kind_source_ref_idx;

ALTER INDEX public.memory_record_context_tsv ATTACH PARTITION public.memory_record_p05_expr_idx;

ALTER INDEX public.memory_record_pkey ATTACH PARTITION public.memory_record_p05_pkey;

ALTER INDEX public.memory_record_author ATTACH PARTITION public.memory_record_p06_context_id_author_subject_idx;

ALTER INDEX public.memory_record_entity_attr ATTACH PARTITION public.memory_record_p06_context_id_entity_id_attr_key_idx;

ALTER INDEX public.memory_record_hold ATTACH PARTITION public.memory_record_p06_context_id_hold_judgement_id_idx;

ALTER INDEX public.memory_record_note_ident ATTACH PARTITION public.memory_record_p06_context_id_kind_norm_name_idx;

ALTER INDEX public.memory_record_kind ATTACH PARTITION public.memory_record_p06_context_id_kind_serving_idx;

ALTER INDEX public.memory_record_modified ATTACH PARTITION public.memory_record_p06_context_id_modified_at_id_idx;

ALTER INDEX public.memory_record_entity_name ATTACH PARTITION public.memory_record_p06_context_id_norm_name_idx;

ALTER INDEX public.memory_record_object_entity ATTACH PARTITION public.memory_record_p06_context_id_object_entity_id_idx;

ALTER INDEX public.memory_record_source ATTACH PARTITION public.memory_record_p06_context_id_source_kind_source_ref_idx;

ALTER INDEX public.memory_record_context_tsv ATTACH PARTITION public.memory_record_p06_expr_idx;

ALTER INDEX public.memory_record_pkey ATTACH PARTITION public.memory_record_p06_pkey;

ALTER INDEX public.memory_record_author ATTACH PARTITION public.memory_record_p07_context_id_author_subject_idx;

ALTER INDEX public.memory_record_entity_attr ATTACH PARTITION public.memory_record_p07_context_id_entity_id_attr_key_idx;

ALTER INDEX public.memory_record_hold ATTACH PARTITION public.memory_record_p07_context_id_hold_judgement_id_idx;

ALTER INDEX public.memory_record_note_ident ATTACH PARTITION public.memory_record_p07_context_id_kind_norm_name_idx;

ALTER INDEX public.memory_record_kind ATTACH PARTITION public.memory_record_p07_context_id_kind_serving_idx;

ALTER INDEX public.memory_record_modified ATTACH PARTITION public.memory_record_p07_context_id_modified_at_id_idx;

ALTER INDEX public.memory_record_entity_name ATTACH PARTITION public.memory_record_p07_context_id_norm_name_idx;

ALTER INDEX public.memory_record_object_entity ATTACH PARTITION public.memory_record_p07_context_id_object_entity_id_idx;

ALTER INDEX public.memory_record_source ATTACH PARTITION public.memory_record_p07_context_id_source_kind_source_ref_idx;

ALTER INDEX public.memory_record_context_tsv ATTACH PARTITION public.memory_record_p07_expr_idx;

ALTER INDEX public.memory_record_pkey ATTACH PARTITION public.memory_record_p07_pkey;

ALTER INDEX public.memory_record_author ATTACH PARTITION public.memory_record_p08_context_id_author_subject_idx;

ALTER INDEX public.memory_record_entity_attr ATTACH PARTITION public.memory_record_p08_context_id_entity_id_attr_key_idx;

ALTER INDEX public.memory_record_hold ATTACH PARTITION public.memory_record_p08_context_id_hold_judgement_id_idx;

ALTER INDEX public.memory_record_note_ident ATTACH PARTITION public.memory_record_p08_context_id_kind_norm_name_idx;

ALTER INDEX public.memory_record_kind ATTACH PARTITION public.memory_record_p08_context_id_kind_serving_idx;

ALTER INDEX public.memory_record_modified ATTACH PARTITION public.memory_record_p08_context_id_modified_at_id_idx;

ALTER INDEX public.memory_record_entity_name ATTACH PARTITION public.memory_record_p08_context_id_norm_name_idx;

ALTER INDEX public.memory_record_object_entity ATTACH PARTITION public.memory_record_p08_context_id_object_entity_id_idx;

ALTER INDEX public.memory_record_source ATTACH PARTITION public.memory_record_p08_context_id_source_kind_source_ref_idx;

ALTER INDEX public.memory_record_context_tsv ATTACH PARTITION public.memory_record_p08_expr_idx;

ALTER INDEX public.memory_record_pkey ATTACH PARTITION public.memory_record_p08_pkey;

ALTER INDEX public.memory_record_author ATTACH PARTITION public.memory_record_p09_context_id_author_subject_idx;

ALTER INDEX public.memory_record_entity_attr ATTACH PARTITION public.memory_record_p09_context_id_entity_id_attr_key_idx;

ALTER INDEX public.memory_record_hold ATTACH PARTITION public.memory_record_p09_context_id_hold_judgement_id_idx;

ALTER INDEX public.memory_record_note_ident ATTACH PARTITION public.memory_record_p09_context_id_kind_norm_name_idx;

ALTER INDEX public.memory_record_kind ATTACH PARTITION public.memory_record_p09_context_id_kind_serving_idx;

ALTER INDEX public.memory_record_modified ATTACH PARTITION public.memory_record_p09_context_id_modified_at_id_idx;

ALTER INDEX public.memory_record_entity_name ATTACH PARTITION public.memory_record_p09_context_id_norm_name_idx;

ALTER INDEX public.memory_record_object_entity ATTACH PARTITION public.memory_record_p09_context_id_object_entity_id_idx;

ALTER INDEX public.memory_record_source ATTACH PARTITION public.memory_record_p09_context_id_source_kind_source_ref_idx;

ALTER INDEX public.memory_record_context_tsv ATTACH PARTITION public.memory_record_p09_expr_idx;

ALTER INDEX public.memory_record_pkey ATTACH PARTITION public.memory_record_p09_pkey;

ALTER INDEX public.memory_record_author ATTACH PARTITION public.memory_record_p10_context_id_author_subject_idx;

ALTER INDEX public.memory_record_entity_attr ATTACH PARTITION public.memory_record_p10_context_id_entity_id_attr_key_idx;

ALTER INDEX public.memory_record_hold ATTACH PARTITION public.memory_record_p10_context_id_hold_judgement_id_idx;

ALTER INDEX public.memory_record_note_ident ATTACH PARTITION public.memory_record_p10_context_id_kind_norm_name_idx;

ALTER INDEX public.memory_record_kind ATTACH PARTITION public.memory_record_p10_context_id_kind_serving_idx;

ALTER INDEX public.memory_record_modified ATTACH PARTITION public.memory_record_p10_context_id_modified_at_id_idx;

ALTER INDEX public.memory_record_entity_name ATTACH PARTITION public.memory_record_p10_context_id_norm_name_idx;

ALTER INDEX public.memory_record_object_entity ATTACH PARTITION public.memory_record_p10_context_id_object_entity_id_idx;

ALTER INDEX public.memory_record_source ATTACH PARTITION public.memory_record_p10_context_id_source_kind_source_ref_idx;

ALTER INDEX public.memory_record_context_tsv ATTACH PARTITION public.memory_record_p10_expr_idx;

ALTER INDEX public.memory_record_pkey ATTACH PARTITION public.memory_record_p10_pkey;

ALTER INDEX public.memory_record_author ATTACH PARTITION public.memory_record_p11_context_id_author_subject_idx;

ALTER INDEX public.memory_record_entity_attr ATTACH PARTITION public.memory_record_p11_context_id_entity_id_attr_key_idx;

ALTER INDEX public.memory_record_hold ATTACH PARTITION public.memory_record_p11_context_id_hold_judgement_id_idx;

ALTER INDEX public.memory_record_note_ident ATTACH PARTITION public.memory_record_p11_context_id_kind_norm_name_idx;

ALTER INDEX public.memory_record_kind ATTACH PARTITION public.memory_record_p11_context_id_kind_serving_idx;

ALTER INDEX public.memory_record_modified ATTACH PARTITION public.memory_record_p11_context_id_modified_at_id_idx;

ALTER INDEX public.memory_record_entity_name ATTACH PARTITION public.memory_record_p11_context_id_norm_name_idx;

ALTER INDEX public.memory_record_object_entity ATTACH PARTITION public.memory_record_p11_context_id_object_entity_id_idx;

ALTER INDEX public.memory_record_source ATTACH PARTITION public.memory_record_p11_context_id_source_kind_source_ref_idx;

ALTER INDEX public.memory_record_context_tsv ATTACH PARTITION public.memory_record_p11_expr_idx;

ALTER INDEX public.memory_record_pkey ATTACH PARTITION public.memory_record_p11_pkey;

ALTER INDEX public.memory_record_author ATTACH PARTITION public.memory_record_p12_context_id_author_subject_idx;

ALTER INDEX public.memory_record_entity_attr ATTACH PARTITION public.memory_record_p12_context_id_entity_id_attr_key_idx;

ALTER INDEX public.memory_record_hold ATTACH PARTITION public.memory_record_p12_context_id_hold_judgement_id_idx;

ALTER INDEX public.memory_record_note_ident ATTACH PARTITION public.memory_record_p12_context_id_kind_norm_name_idx;

ALTER INDEX public.memory_record_kind ATTACH PARTITION public.memory_record_p12_context_id_kind_serving_idx;

ALTER INDEX public.memory_record_modified ATTACH PARTITION public.memory_record_p12_context_id_modified_at_id_idx;

ALTER INDEX public.memory_record_entity_name ATTACH PARTITION public.memory_record_p12_context_id_norm_name_idx;

ALTER INDEX public.memory_record_object_entity ATTACH PARTITION public.memory_record_p12_context_id_object_entity_id_idx;

ALTER INDEX public.memory_record_source ATTACH PARTITION public.memory_record_p12_context_id_source_kind_source_ref_idx;

ALTER INDEX public.memory_record_context_tsv ATTACH PARTITION public.memory_record_p12_expr_idx;

ALTER INDEX public.memory_record_pkey ATTACH PARTITION public.memory_record_p12_pkey;

ALTER INDEX public.memory_record_author ATTACH PARTITION public.memory_record_p13_context_id_author_subject_idx;

ALTER INDEX public.memory_record_entity_attr ATTACH PARTITION public.memory_record_p13_context_id_entity_id_attr_key_idx;

ALTER INDEX public.memory_record_hold ATTACH PARTITION public.memory_record_p13_context_id_hold_judgement_id_idx;

ALTER INDEX public.memory_record_note_ident ATTACH PARTITION public.memory_record_p13_context_id_kind_norm_name_idx;

ALTER INDEX public.memory_record_kind ATTACH PARTITION public.memory_record_p13_context_id_kind_serving_idx;

ALTER INDEX public.memory_record_modified ATTACH PARTITION public.memory_record_p13_context_id_modified_at_id_idx;

ALTER INDEX public.memory_record_entity_name ATTACH PARTITION public.memory_record_p13_context_id_norm_name_idx;

ALTER INDEX public.memory_record_object_entity ATTACH PARTITION public.memory_record_p13_context_id_object_entity_id_idx;

ALTER INDEX public.memory_record_source ATTACH PARTITION public.memory_record_p13_context_id_source_kind_source_ref_idx;

ALTER INDEX public.memory_record_context_tsv ATTACH PARTITION public.memory_record_p13_expr_idx;

ALTER INDEX public.memory_record_pkey ATTACH PARTITION public.memory_record_p13_pkey;

ALTER INDEX public.memory_record_author ATTACH PARTITION public.memory_record_p14_context_id_author_subject_idx;

ALTER INDEX public.memory_record_entity_attr ATTACH PARTITION public.memory_record_p14_context_id_entity_id_attr_key_idx;

ALTER INDEX public.memory_record_hold ATTACH PARTITION public.memory_record_p14_context_id_hold_judgement_id_idx;

ALTER INDEX public.memory_record_note_ident ATTACH PARTITION public.memory_record_p14_context_id_kind_norm_name_idx;

ALTER INDEX public.memory_record_kind ATTACH PARTITION public.memory_record_p14_context_id_kind_serving_idx;

ALTER INDEX public.memory_record_modified ATTACH PARTITION public.memory_record_p14_context_id_modified_at_id_idx;

ALTER INDEX public.memory_record_entity_name ATTACH PARTITION public.memory_record_p14_context_id_norm_name_idx;

ALTER INDEX public.memory_record_object_entity ATTACH PARTITION public.memory_record_p14_context_id_object_entity_id_idx;

ALTER INDEX public.memory_record_source ATTACH PARTITION public.memory_record_p14_context_id_source_kind_source_ref_idx;

ALTER INDEX public.memory_record_context_tsv ATTACH PARTITION public.memory_record_p14_expr_idx;

ALTER INDEX public.memory_record_pkey ATTACH PARTITION public.memory_record_p14_pkey;

ALTER INDEX public.memory_record_author ATTACH PARTITION public.memory_record_p15_context_id_author_subject_idx;

ALTER INDEX public.memory_record_entity_attr ATTACH PARTITION public.memory_record_p15_context_id_entity_id_attr_key_idx;

ALTER INDEX public.memory_record_hold ATTACH PARTITION public.memory_record_p15_context_id_hold_judgement_id_idx;

ALTER INDEX public.memory_record_note_ident ATTACH PARTITION public.memory_record_p15_context_id_kind_norm_name_idx;

ALTER INDEX public.memory_record_kind ATTACH PARTITION public.memory_record_p15_context_id_kind_serving_idx;

ALTER INDEX public.memory_record_modified ATTACH PARTITION public.memory_record_p15_context_id_modified_at_id_idx;

ALTER INDEX public.memory_record_entity_name ATTACH PARTITION public.memory_record_p15_context_id_norm_name_idx;

ALTER INDEX public.memory_record_object_entity ATTACH PARTITION public.memory_record_p15_context_id_object_entity_id_idx;

ALTER INDEX public.memory_record_source ATTACH PARTITION public.memory_record_p15_context_id_source_kind_source_ref_idx;

ALTER INDEX public.memory_record_context_tsv ATTACH PARTITION public.memory_record_p15_expr_idx;

ALTER INDEX public.memory_record_pkey ATTACH PARTITION public.memory_record_p15_pkey;

CREATE TRIGGER audit_event_no_update BEFORE DELETE OR UPDATE ON public.audit_event FOR EACH ROW EXECUTE FUNCTION public.audit_event_append_only();

CREATE TRIGGER memory_record_past AFTER UPDATE ON public.memory_record FOR EACH ROW WHEN (((((((((((((((((((((old.revision IS DISTINCT FROM new.revision) OR (old.memory_category IS DISTINCT FROM new.memory_category)) OR (old.content IS DISTINCT FROM new.content)) OR (old.body IS DISTINCT FROM new.body)) OR (old.scope_path IS DISTINCT FROM new.scope_path)) OR (old.visibility IS DISTINCT FROM new.visibility)) OR (old.owner_subject IS DISTINCT FROM new.owner_subject)) OR (old.serving IS DISTINCT FROM new.serving)) OR (old.review_disposition IS DISTINCT FROM new.review_disposition)) OR (old.valid_from IS DISTINCT FROM new.valid_from)) OR (old.valid_to IS DISTINCT FROM new.valid_to)) OR (old.superseded_by IS DISTINCT FROM new.superseded_by)) OR (old.expires_at IS DISTINCT FROM new.expires_at)) OR (old.derived_from IS DISTINCT FROM new.derived_from)) OR (old.entity_id IS DISTINCT FROM new.entity_id)) OR (old.object_entity_id IS DISTINCT FROM new.object_entity_id)) OR (old.attr_key IS DISTINCT FROM new.attr_key)) OR (old.norm_name IS DISTINCT FROM new.norm_name)) OR (old.source_kind IS DISTINCT FROM new.source_kind)) OR (old.source_ref IS DISTINCT FROM new.source_ref))) EXECUTE FUNCTION public.memory_record_keep_past();

CREATE TRIGGER memory_revision_fill BEFORE INSERT ON public.memory_revision FOR EACH ROW EXECUTE FUNCTION public.memory_revision_fill();

CREATE TRIGGER procrastinate_jobs_notify_queue_job_aborted_v1 AFTER UPDATE OF abort_requested ON public.procrastinate_jobs FOR EACH ROW WHEN (((old.abort_requested = false) AND (new.abort_requested = true) AND (new.status = 'doing'::public.procrastinate_job_status))) EXECUTE FUNCTION public.procrastinate_notify_queue_abort_job_v1();

CREATE TRIGGER procrastinate_jobs_notify_queue_job_inserted_v1 AFTER INSERT ON public.procrastinate_jobs FOR EACH ROW WHEN ((new.status = 'todo'::public.procrastinate_job_status)) EXECUTE FUNCTION public.procrastinate_notify_queue_job_inserted_v1();

CREATE TRIGGER procrastinate_trigger_abort_requested_events_v1 AFTER UPDATE OF abort_requested ON public.procrastinate_jobs FOR EACH ROW WHEN ((new.abort_requested = true)) EXECUTE FUNCTION public.procrastinate_trigger_abort_requested_events_procedure_v1();

CREATE TRIGGER procrastinate_trigger_delete_jobs_v1 BEFORE DELETE ON public.procrastinate_jobs FOR EACH ROW EXECUTE FUNCTION public.procrastinate_unlink_periodic_defers_v1();

CREATE TRIGGER procrastinate_trigger_scheduled_events_v1 AFTER INSERT OR UPDATE ON public.procrastinate_jobs FOR EACH ROW WHEN (((new.scheduled_at IS NOT NULL) AND (new.status = 'todo'::public.procrastinate_job_status))) EXECUTE FUNCTION public.procrastinate_trigger_function_scheduled_events_v1();

CREATE TRIGGER procrastinate_trigger_status_events_insert_v1 AFTER INSERT ON public.procrastinate_jobs FOR EACH ROW WHEN ((new.status = 'todo'::public.procrastinate_job_status)) EXECUTE FUNCTION public.procrastinate_trigger_function_status_events_insert_v1();

CREATE TRIGGER procrastinate_trigger_status_events_update_v1 AFTER UPDATE OF status ON public.procrastinate_jobs FOR EACH ROW EXECUTE FUNCTION public.procrastinate_trigger_function_status_events_update_v1();

CREATE TRIGGER webhook_change_event AFTER INSERT ON public.change_event FOR EACH ROW EXECUTE FUNCTION public.webhook_from_change_event();

CREATE TRIGGER webhook_conflict AFTER INSERT ON public.conflict FOR EACH ROW WHEN ((new.action = 'queued'::text)) EXECUTE FUNCTION public.webhook_from_conflict();

CREATE TRIGGER webhook_judgement AFTER INSERT ON public.judgement FOR EACH ROW WHEN ((new.verdict = 'fail'::text)) EXECUTE FUNCTION public.webhook_from_judgement();

ALTER TABLE ONLY public.api_key
    ADD CONSTRAINT api_key_context_id_principal_id_fkey FOREIGN KEY (context_id, principal_id) REFERENCES public.principal(context_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.change_event
    ADD CONSTRAINT change_event_context_id_fkey FOREIGN KEY (context_id) REFERENCES public.context(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.conflict
    ADD CONSTRAINT conflict_context_id_fkey FOREIGN KEY (context_id) REFERENCES public.context(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.document
    ADD CONSTRAINT document_context_id_fkey FOREIGN KEY (context_id) REFERENCES public.context(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.erasure
    ADD CONSTRAINT erasure_context_id_fkey FOREIGN KEY (context_id) REFERENCES public.context(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.extraction_usage
    ADD CONSTRAINT extraction_usage_context_id_fkey FOREIGN KEY (context_id) REFERENCES public.context(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.hygiene_judged
    ADD CONSTRAINT hygiene_judged_context_id_fkey FOREIGN KEY (context_id) REFERENCES public.context(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.hygiene_run
    ADD CONSTRAINT hygiene_run_context_id_fkey FOREIGN KEY (context_id) REFERENCES public.context(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.import_item
    ADD CONSTRAINT import_item_context_id_import_id_fkey FOREIGN KEY (context_id, import_id) REFERENCES public.import_run(context_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.import_run
    ADD CONSTRAINT import_run_context_id_fkey FOREIGN KEY (context_id) REFERENCES public.context(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.judgement
    ADD CONSTRAINT judgement_context_id_fkey FOREIGN KEY (context_id) REFERENCES public.context(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.memory_embedding
    ADD CONSTRAINT memory_embedding_context_id_record_id_fkey FOREIGN KEY (context_id, record_id) REFERENCES public.memory_record(context_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.memory_link
    ADD CONSTRAINT memory_link_context_id_fkey FOREIGN KEY (context_id) REFERENCES public.context(id) ON DELETE CASCADE;

ALTER TABLE public.memory_record
    ADD CONSTRAINT memory_record_context_id_fkey FOREIGN KEY (context_id) REFERENCES public.context(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.memory_record_past
    ADD CONSTRAINT memory_record_past_context_id_record_id_fkey FOREIGN KEY (context_id, record_id) REFERENCES public.memory_record(context_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.memory_revision
    ADD CONSTRAINT memory_revision_context_id_record_id_fkey FOREIGN KEY (context_id, record_id) REFERENCES public.memory_record(context_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pass_run
    ADD CONSTRAINT pass_run_context_id_fkey FOREIGN KEY (context_id) REFERENCES public.context(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.pass_watermark
    ADD CONSTRAINT pass_watermark_context_id_fkey FOREIGN KEY (context_id) REFERENCES public.context(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.principal
    ADD CONSTRAINT principal_context_id_fkey FOREIGN KEY (context_id) REFERENCES public.context(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.principal_grant
    ADD CONSTRAINT principal_grant_context_id_principal_id_fkey FOREIGN KEY (context_id, principal_id) REFERENCES public.principal(context_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.procrastinate_events
    ADD CONSTRAINT procrastinate_events_job_id_fkey FOREIGN KEY (job_id) REFERENCES public.procrastinate_jobs(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.procrastinate_jobs
    ADD CONSTRAINT procrastinate_jobs_worker_id_fkey FOREIGN KEY (worker_id) REFERENCES public.procrastinate_workers(id) ON DELETE SET NULL;

ALTER TABLE ONLY public.procrastinate_periodic_defers
    ADD CONSTRAINT procrastinate_periodic_defers_job_id_fkey FOREIGN KEY (job_id) REFERENCES public.procrastinate_jobs(id);

ALTER TABLE ONLY public.retained_input
    ADD CONSTRAINT retained_input_context_id_judgement_id_fkey FOREIGN KEY (context_id, judgement_id) REFERENCES public.judgement(context_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.review_receipt
    ADD CONSTRAINT review_receipt_context_id_fkey FOREIGN KEY (context_id) REFERENCES public.context(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.session
    ADD CONSTRAINT session_context_id_fkey FOREIGN KEY (context_id) REFERENCES public.context(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.turn
    ADD CONSTRAINT turn_context_id_session_id_fkey FOREIGN KEY (context_id, session_id) REFERENCES public.session(context_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.usage
    ADD CONSTRAINT usage_context_id_fkey FOREIGN KEY (context_id) REFERENCES public.context(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.webhook_delivery
    ADD CONSTRAINT webhook_delivery_context_id_subscription_id_fkey FOREIGN KEY (context_id, subscription_id) REFERENCES public.webhook_subscription(context_id, id) ON DELETE CASCADE;

ALTER TABLE ONLY public.webhook_subscription
    ADD CONSTRAINT webhook_subscription_context_id_fkey FOREIGN KEY (context_id) REFERENCES public.context(id) ON DELETE CASCADE;
