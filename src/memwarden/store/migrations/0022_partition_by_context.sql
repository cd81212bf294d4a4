-- memory_record and chunk are split by a hash of context_id into 16 partitions.
-- A large Context gets partial HNSW indexes of its own (0016, store/vector_index.py). On one
-- shared table every statement opened, planned around and locked every such index, any
-- Context's: at 1,000 indexed Contexts a /query spent about 29 ms planning and each statement
-- took over 1,000 locks (docs/benchmarks.md, "Planning and many indexes"). A Context's
-- statements now prune to its own partition at planning, so they see that partition's
-- indexes only (about a 16th of them), and its full-text posting lists are a 16th as long.
-- Hashing keeps the choice automatic: nothing moves when a Context grows, and the layout is
-- the one a Citus cluster distributes by (docs/scale.md).
--
-- The tables are rebuilt: rows are copied into the partitioned ones, the keys, indexes and
-- foreign keys recreated under their old names. Per-Context vector indexes are not copied;
-- the vector_indexes job rebuilds them on the partitions, and recall scans such a Context
-- exactly until then (the same answer, more slowly).

CREATE TABLE memory_record_partitioned (
    context_id uuid NOT NULL,
    id uuid NOT NULL,
    kind text NOT NULL,
    memory_category text DEFAULT 'context'::text NOT NULL,
    scope_path text DEFAULT ''::text NOT NULL,
    visibility text DEFAULT 'shared'::text NOT NULL,
    owner_subject text NOT NULL,
    content jsonb NOT NULL,
    body text NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, body)) STORED,
    norm_name text,
    entity_id uuid,
    object_entity_id uuid,
    attr_key text,
    source_kind text DEFAULT 'command'::text NOT NULL,
    source_ref uuid,
    import_source_dir text,
    provenance_rank integer DEFAULT 0 NOT NULL,
    author_subject text NOT NULL,
    derived_from uuid[] DEFAULT '{}'::uuid[] NOT NULL,
    revision integer DEFAULT 1 NOT NULL,
    review_disposition text,
    review_revision integer,
    review_receipt_id uuid,
    serving serving_state DEFAULT 'live'::serving_state NOT NULL,
    hold_judgement_id uuid,
    valid_from timestamp with time zone DEFAULT now() NOT NULL,
    valid_to timestamp with time zone,
    superseded_by uuid,
    expires_at timestamp with time zone,
    deleted_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    modified_at timestamp with time zone DEFAULT now() NOT NULL,
    embedding vector(384) STORAGE PLAIN,
    embedding_revision integer
) PARTITION BY HASH (context_id);

CREATE TABLE chunk_partitioned (
    context_id uuid NOT NULL,
    id uuid NOT NULL,
    turn_id uuid,
    document_id uuid,
    ordinal integer DEFAULT 0 NOT NULL,
    text text NOT NULL,
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, text)) STORED,
    embedding vector(384),
    scope_path text DEFAULT ''::text NOT NULL,
    visibility text DEFAULT 'shared'::text NOT NULL,
    owner_subject text NOT NULL,
    serving serving_state DEFAULT 'live'::serving_state NOT NULL,
    hold_judgement_id uuid,
    created_at timestamp with time zone DEFAULT now() NOT NULL
) PARTITION BY HASH (context_id);

-- Partitions are named <table>_p00 .. <table>_p15. A record's vector stays inline (one
-- row read per candidate), as toast_tuple_target kept it before.
DO $$
BEGIN
    FOR n IN 0..15 LOOP
        EXECUTE format(
            'CREATE TABLE %I PARTITION OF memory_record_partitioned'
            ' FOR VALUES WITH (MODULUS 16, REMAINDER %s) WITH (toast_tuple_target = 8160)',
            'memory_record_p' || lpad(n::text, 2, '0'), n);
        EXECUTE format(
            'CREATE TABLE %I PARTITION OF chunk_partitioned'
            ' FOR VALUES WITH (MODULUS 16, REMAINDER %s)',
            'chunk_p' || lpad(n::text, 2, '0'), n);
    END LOOP;
END
$$;

INSERT INTO memory_record_partitioned (
    context_id, id, kind, memory_category, scope_path, visibility, owner_subject, content,
    body, norm_name, entity_id, object_entity_id, attr_key, source_kind, source_ref,
    import_source_dir, provenance_rank, author_subject, derived_from, revision,
    review_disposition, review_revision, review_receipt_id, serving, hold_judgement_id,
    valid_from, valid_to, superseded_by, expires_at, deleted_at, created_at, modified_at,
    embedding, embedding_revision)
SELECT
    context_id, id, kind, memory_category, scope_path, visibility, owner_subject, content,
    body, norm_name, entity_id, object_entity_id, attr_key, source_kind, source_ref,
    import_source_dir, provenance_rank, author_subject, derived_from, revision,
    review_disposition, review_revision, review_receipt_id, serving, hold_judgement_id,
    valid_from, valid_to, superseded_by, expires_at, deleted_at, created_at, modified_at,
    embedding, embedding_revision
FROM memory_record;

INSERT INTO chunk_partitioned (
    context_id, id, turn_id, document_id, ordinal, text, embedding, scope_path, visibility,
    owner_subject, serving, hold_judgement_id, created_at)
SELECT context_id, id, turn_id, document_id, ordinal, text, embedding, scope_path, visibility,
       owner_subject, serving, hold_judgement_id, created_at
FROM chunk;

ALTER TABLE memory_embedding DROP CONSTRAINT memory_embedding_context_id_record_id_fkey;
ALTER TABLE memory_revision DROP CONSTRAINT memory_revision_context_id_record_id_fkey;
DROP TABLE memory_record;
DROP TABLE chunk;
ALTER TABLE memory_record_partitioned RENAME TO memory_record;
ALTER TABLE chunk_partitioned RENAME TO chunk;

ALTER TABLE memory_record
    ADD CONSTRAINT memory_record_pkey PRIMARY KEY (context_id, id),
    ADD CONSTRAINT memory_record_context_id_fkey FOREIGN KEY (context_id)
        REFERENCES context(id) ON DELETE CASCADE,
    ADD CONSTRAINT memory_record_embedding_current CHECK (
        (embedding IS NULL AND embedding_revision IS NULL)
        OR (embedding IS NOT NULL AND embedding_revision = revision)),
    ADD CONSTRAINT memory_record_kind_check CHECK (kind = ANY (ARRAY['entity', 'attribute',
        'relation', 'action', 'instruction', 'uncertainty', 'note'])),
    ADD CONSTRAINT memory_record_memory_category_check CHECK (memory_category = ANY (ARRAY[
        'identity', 'knowledge', 'context'])),
    ADD CONSTRAINT memory_record_review_disposition_check CHECK (review_disposition = ANY (
        ARRAY['approved', 'rejected'])),
    ADD CONSTRAINT memory_record_revision_check CHECK (revision >= 1),
    ADD CONSTRAINT memory_record_source_kind_check CHECK (source_kind = ANY (ARRAY['turn',
        'document', 'command', 'reflection', 'consolidation', 'elaboration', 'rollup', 'gist',
        'judge'])),
    ADD CONSTRAINT memory_record_visibility_check CHECK (visibility = ANY (ARRAY['shared',
        'private']));

ALTER TABLE chunk
    ADD CONSTRAINT chunk_pkey PRIMARY KEY (context_id, id),
    ADD CONSTRAINT chunk_check CHECK (turn_id IS NOT NULL OR document_id IS NOT NULL),
    ADD CONSTRAINT chunk_visibility_check CHECK (visibility = ANY (ARRAY['shared', 'private']));

ALTER TABLE memory_embedding ADD CONSTRAINT memory_embedding_context_id_record_id_fkey
    FOREIGN KEY (context_id, record_id) REFERENCES memory_record(context_id, id)
    ON DELETE CASCADE;
ALTER TABLE memory_revision ADD CONSTRAINT memory_revision_context_id_record_id_fkey
    FOREIGN KEY (context_id, record_id) REFERENCES memory_record(context_id, id)
    ON DELETE CASCADE;

CREATE INDEX memory_record_context_tsv ON memory_record
    USING gin ((tsv || context_lexeme(context_id))) WITH (fastupdate = off);
CREATE INDEX memory_record_entity_attr ON memory_record (context_id, entity_id, attr_key)
    WHERE entity_id IS NOT NULL;
CREATE INDEX memory_record_entity_name ON memory_record (context_id, norm_name)
    WHERE kind = 'entity';
CREATE INDEX memory_record_hold ON memory_record (context_id, hold_judgement_id)
    WHERE hold_judgement_id IS NOT NULL;
CREATE INDEX memory_record_kind ON memory_record (context_id, kind, serving);
CREATE INDEX memory_record_modified ON memory_record (context_id, modified_at DESC, id DESC);
CREATE INDEX memory_record_note_ident ON memory_record (context_id, kind, norm_name)
    WHERE kind = ANY (ARRAY['instruction', 'uncertainty']);
CREATE INDEX memory_record_object_entity ON memory_record (context_id, object_entity_id)
    WHERE object_entity_id IS NOT NULL;
CREATE INDEX memory_record_source ON memory_record (context_id, source_kind, source_ref);

CREATE INDEX chunk_context_tsv ON chunk
    USING gin ((tsv || context_lexeme(context_id))) WITH (fastupdate = off);
CREATE INDEX chunk_document ON chunk (context_id, document_id);
CREATE INDEX chunk_hold ON chunk (context_id, hold_judgement_id)
    WHERE hold_judgement_id IS NOT NULL;
CREATE INDEX chunk_turn ON chunk (context_id, turn_id);
