-- Reads as of a moment (issue 25, "Time"). A record row holds only its present state, and
-- memory_revision keeps content but not when a hold was released, a review decided, a
-- validity closed or a scope changed. So every change to what serving reads keeps the row's
-- previous state here, with the moment it stopped being true (`sys_to`, the changing
-- transaction's start, as every stored time is). The state at T is the earliest kept state
-- with sys_to > T, else the row itself; inserts cost nothing, and one trigger covers every
-- path that updates a record (no writer has to remember it).
CREATE TABLE memory_record_past (
    context_id         uuid NOT NULL,
    record_id          uuid NOT NULL,
    seq                bigint GENERATED ALWAYS AS IDENTITY,
    sys_to             timestamptz NOT NULL,
    -- false: a state from before this migration, not known (as_of does not serve it)
    known              boolean NOT NULL DEFAULT true,
    revision           integer NOT NULL,
    memory_category    text NOT NULL,
    content            jsonb,
    body               text NOT NULL,
    tsv                tsvector GENERATED ALWAYS AS (to_tsvector('english', body)) STORED,
    scope_path         text NOT NULL,
    visibility         text NOT NULL,
    owner_subject      text NOT NULL,
    serving            serving_state NOT NULL,
    review_disposition text,
    valid_from         timestamptz NOT NULL,
    valid_to           timestamptz,
    superseded_by      uuid,
    expires_at         timestamptz,
    derived_from       uuid[] NOT NULL,
    entity_id          uuid,
    object_entity_id   uuid,
    attr_key           text,
    norm_name          text,
    source_kind        text NOT NULL,
    source_ref         uuid,
    PRIMARY KEY (context_id, record_id, seq),
    FOREIGN KEY (context_id, record_id) REFERENCES memory_record(context_id, id)
        ON DELETE CASCADE
);
CREATE INDEX memory_record_past_until ON memory_record_past (context_id, record_id, sys_to);
-- memory_as_of reads only the states that ended after its moment: few, for a recent one
CREATE INDEX memory_record_past_since ON memory_record_past (context_id, sys_to);

-- Keeps OLD when a served column changed. An erasure (serving becomes `erased`) blanks every
-- kept state of the record first and keeps the last one content-free: erased content never
-- comes back through a past moment.
CREATE FUNCTION memory_record_keep_past() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE TRIGGER memory_record_past AFTER UPDATE ON memory_record
FOR EACH ROW
WHEN ((OLD.revision, OLD.memory_category, OLD.content, OLD.body, OLD.scope_path,
       OLD.visibility, OLD.owner_subject, OLD.serving, OLD.review_disposition,
       OLD.valid_from, OLD.valid_to, OLD.superseded_by, OLD.expires_at, OLD.derived_from,
       OLD.entity_id, OLD.object_entity_id, OLD.attr_key, OLD.norm_name, OLD.source_kind,
       OLD.source_ref)
      IS DISTINCT FROM
      (NEW.revision, NEW.memory_category, NEW.content, NEW.body, NEW.scope_path,
       NEW.visibility, NEW.owner_subject, NEW.serving, NEW.review_disposition,
       NEW.valid_from, NEW.valid_to, NEW.superseded_by, NEW.expires_at, NEW.derived_from,
       NEW.entity_id, NEW.object_entity_id, NEW.attr_key, NEW.norm_name, NEW.source_kind,
       NEW.source_ref))
EXECUTE FUNCTION memory_record_keep_past();

-- Backfill: a record changed after it was created, before this migration, has states
-- nobody kept. Its present state holds from its last change (modified_at: every state
-- change sets it); before that, back to its creation, one state marked not known.
INSERT INTO memory_record_past (
    context_id, record_id, sys_to, known, revision, memory_category, content, body,
    scope_path, visibility, owner_subject, serving, review_disposition, valid_from, valid_to,
    superseded_by, expires_at, derived_from, entity_id, object_entity_id, attr_key, norm_name,
    source_kind, source_ref)
SELECT r.context_id, r.id, r.modified_at, false, r.revision, r.memory_category, NULL, '',
       r.scope_path, r.visibility, r.owner_subject, r.serving, r.review_disposition,
       r.valid_from, r.valid_to, r.superseded_by, r.expires_at, r.derived_from, r.entity_id,
       r.object_entity_id, NULL, NULL, r.source_kind, r.source_ref
FROM memory_record r
WHERE r.modified_at > r.created_at;

-- One record's state at `at` (null row fields when it did not exist then). Erased records
-- come back with serving `erased` and no content, so a gate blocks them.
CREATE FUNCTION memory_state_at(ctx uuid, rid uuid, at timestamptz)
RETURNS TABLE (serving serving_state, review_disposition text, expires_at timestamptz,
               valid_to timestamptz, derived_from uuid[], known boolean)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
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

-- memory_sources_servable at a past moment: every source a derived record was made from
-- (and theirs, 16 deep) servable as it stood then; a source missing, not yet written, not
-- known or erased blocks.
CREATE FUNCTION memory_sources_servable_at(ctx uuid, sources uuid[], at timestamptz)
RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS $$
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

-- Every record of a Context as it stood at `at`: written by then, not erased since, with
-- the kept state that was true then, else its present one. The states that ended after
-- `at` are read in one range of memory_record_past_since (the earliest per record wins) and
-- hash-joined, so a record without one costs no lookup. `embedding` is the present row's
-- vector when its present state is the one read (`past` false); a past state's vector is
-- its revision's row in memory_embedding (recall_asof_vector). Inlined into the as_of
-- reads (queries/recall.sql), which apply the serving gate at `at` to these rows.
CREATE FUNCTION memory_as_of(ctx uuid, at timestamptz)
RETURNS TABLE (context_id uuid, id uuid, kind text, revision integer, memory_category text,
               content jsonb, body text, tsv tsvector, scope_path text, visibility text,
               owner_subject text, serving serving_state, review_disposition text,
               valid_from timestamptz, valid_to timestamptz, superseded_by uuid,
               expires_at timestamptz, derived_from uuid[], entity_id uuid,
               object_entity_id uuid, attr_key text, norm_name text, source_kind text,
               source_ref uuid, created_at timestamptz, known boolean, past boolean,
               embedding vector)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
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

-- The gate of an as_of read: memory_servable as the record stood at `at`.
CREATE FUNCTION memory_servable_at(ctx uuid, serving serving_state, review_disposition text,
                                   expires_at timestamptz, valid_to timestamptz,
                                   derived_from uuid[], known boolean, at timestamptz)
RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT known
       AND memory_block_reason(serving, review_disposition, expires_at, valid_to, at) IS NULL
       AND (cardinality(derived_from) = 0 OR memory_sources_servable_at(ctx, derived_from, at))
$$;

-- History at `at` (include_superseded / profile history): superseded or invalidated then.
CREATE FUNCTION memory_past_at(ctx uuid, serving serving_state, review_disposition text,
                               expires_at timestamptz, valid_to timestamptz,
                               derived_from uuid[], known boolean, at timestamptz)
RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT known
       AND memory_block_reason(serving, review_disposition, expires_at, valid_to, at)
           IN ('superseded', 'invalidated')
       AND (cardinality(derived_from) = 0 OR memory_sources_servable_at(ctx, derived_from, at))
$$;
