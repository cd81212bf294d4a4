-- memwarden initial schema. Every key leads with context_id; every query is scoped by it.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE context (
    id            uuid PRIMARY KEY,
    name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    config        jsonb NOT NULL DEFAULT '{}'::jsonb,
    config_version integer NOT NULL DEFAULT 1,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE principal (
    context_id  uuid NOT NULL REFERENCES context(id) ON DELETE CASCADE,
    id          uuid NOT NULL,
    subject     text NOT NULL CHECK (length(subject) BETWEEN 1 AND 200),
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, id),
    UNIQUE (context_id, subject)
);

-- What a principal may do, over the whole Context (scope_prefix NULL) or a scope prefix.
CREATE TABLE principal_grant (
    context_id    uuid NOT NULL,
    principal_id  uuid NOT NULL,
    capability    text NOT NULL CHECK (capability IN
                    ('memory_read', 'memory_write', 'memory_review', 'grant:manage')),
    scope_prefix  text NOT NULL DEFAULT '',
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, principal_id, capability, scope_prefix),
    FOREIGN KEY (context_id, principal_id) REFERENCES principal(context_id, id) ON DELETE CASCADE
);

-- A key narrows its principal's grants to its own capabilities and scope.
CREATE TABLE api_key (
    context_id    uuid NOT NULL,
    id            uuid NOT NULL,
    principal_id  uuid NOT NULL,
    secret_hash   bytea NOT NULL,
    capabilities  text[] NOT NULL,
    scope_prefix  text NOT NULL DEFAULT '',
    expires_at    timestamptz,
    revoked_at    timestamptz,
    last_used_at  timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, id),
    FOREIGN KEY (context_id, principal_id) REFERENCES principal(context_id, id) ON DELETE CASCADE
);
-- Authentication finds a key by its id before the Context is known.
CREATE UNIQUE INDEX api_key_id ON api_key (id);

CREATE TABLE session (
    context_id    uuid NOT NULL REFERENCES context(id) ON DELETE CASCADE,
    id            uuid NOT NULL,
    principal_id  uuid NOT NULL,
    scope_path    text NOT NULL DEFAULT '',
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, id)
);

-- Serving states shared by turns, chunks and memory records.
CREATE TYPE serving_state AS ENUM ('live', 'held', 'superseded', 'deleted');

CREATE TABLE turn (
    context_id     uuid NOT NULL,
    id             uuid NOT NULL,
    session_id     uuid NOT NULL,
    principal_id   uuid NOT NULL,
    text           text NOT NULL,
    scope_path     text NOT NULL DEFAULT '',
    visibility     text NOT NULL DEFAULT 'shared' CHECK (visibility IN ('shared', 'private')),
    owner_subject  text NOT NULL,
    serving        serving_state NOT NULL DEFAULT 'live',
    hold_judgement_id uuid,
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, id),
    FOREIGN KEY (context_id, session_id) REFERENCES session(context_id, id) ON DELETE CASCADE
);
CREATE INDEX turn_session ON turn (context_id, session_id, created_at);

CREATE TABLE document (
    context_id     uuid NOT NULL REFERENCES context(id) ON DELETE CASCADE,
    id             uuid NOT NULL,
    principal_id   uuid NOT NULL,
    filename       text NOT NULL,
    content_type   text NOT NULL,
    size_bytes     bigint NOT NULL,
    storage_path   text,
    status         text NOT NULL DEFAULT 'pending'
                     CHECK (status IN ('pending', 'processing', 'processed', 'failed')),
    failure_code   text,
    failure_reasons text[] NOT NULL DEFAULT '{}',
    parsed_text    text,
    scope_path     text NOT NULL DEFAULT '',
    visibility     text NOT NULL DEFAULT 'shared' CHECK (visibility IN ('shared', 'private')),
    owner_subject  text NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    updated_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, id)
);

CREATE TABLE chunk (
    context_id     uuid NOT NULL,
    id             uuid NOT NULL,
    turn_id        uuid,
    document_id    uuid,
    ordinal        integer NOT NULL DEFAULT 0,
    text           text NOT NULL,
    tsv            tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
    embedding      vector(384),
    scope_path     text NOT NULL DEFAULT '',
    visibility     text NOT NULL DEFAULT 'shared' CHECK (visibility IN ('shared', 'private')),
    owner_subject  text NOT NULL,
    serving        serving_state NOT NULL DEFAULT 'live',
    hold_judgement_id uuid,
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, id),
    CHECK (turn_id IS NOT NULL OR document_id IS NOT NULL)
);
CREATE INDEX chunk_tsv ON chunk USING gin (tsv);
CREATE INDEX chunk_turn ON chunk (context_id, turn_id);
CREATE INDEX chunk_document ON chunk (context_id, document_id);
CREATE INDEX chunk_embedding ON chunk USING hnsw (embedding vector_cosine_ops);

-- The memory records: entity, attribute, relation, action, instruction, uncertainty and
-- note (free-form records written through the memory command API).
CREATE TABLE memory_record (
    context_id        uuid NOT NULL REFERENCES context(id) ON DELETE CASCADE,
    id                uuid NOT NULL,
    kind              text NOT NULL CHECK (kind IN
                        ('entity', 'attribute', 'relation', 'action', 'instruction',
                         'uncertainty', 'note')),
    memory_category   text NOT NULL DEFAULT 'context'
                        CHECK (memory_category IN ('identity', 'knowledge', 'context')),
    -- scope
    scope_path        text NOT NULL DEFAULT '',
    visibility        text NOT NULL DEFAULT 'shared' CHECK (visibility IN ('shared', 'private')),
    owner_subject     text NOT NULL,
    -- content: kind-specific fields in content, searchable rendering in body
    content           jsonb NOT NULL,
    body              text NOT NULL,
    tsv               tsvector GENERATED ALWAYS AS (to_tsvector('english', body)) STORED,
    norm_name         text,             -- entities: normalised name for resolution
    entity_id         uuid,             -- attribute/relation/action: subject entity
    object_entity_id  uuid,             -- relation/action: object entity
    attr_key          text,             -- attribute key
    -- provenance
    source_kind       text NOT NULL DEFAULT 'command'
                        CHECK (source_kind IN ('turn', 'document', 'command', 'reflection',
                                               'consolidation', 'elaboration', 'rollup', 'gist',
                                               'judge')),
    source_ref        uuid,
    import_source_dir text,
    provenance_rank   integer NOT NULL DEFAULT 0,
    author_subject    text NOT NULL,
    derived_from      uuid[] NOT NULL DEFAULT '{}',
    -- versioning and review
    revision          integer NOT NULL DEFAULT 1 CHECK (revision >= 1),
    review_disposition text CHECK (review_disposition IN ('approved', 'rejected')),
    review_revision   integer,
    review_receipt_id uuid,
    -- serving and validity
    serving           serving_state NOT NULL DEFAULT 'live',
    hold_judgement_id uuid,
    valid_from        timestamptz NOT NULL DEFAULT now(),
    valid_to          timestamptz,
    superseded_by     uuid,
    expires_at        timestamptz,
    deleted_at        timestamptz,
    created_at        timestamptz NOT NULL DEFAULT now(),
    modified_at       timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, id)
);
CREATE INDEX memory_record_tsv ON memory_record USING gin (tsv);
CREATE INDEX memory_record_kind ON memory_record (context_id, kind, serving);
CREATE INDEX memory_record_entity_name ON memory_record (context_id, norm_name)
    WHERE kind = 'entity';
CREATE INDEX memory_record_entity_attr ON memory_record (context_id, entity_id, attr_key)
    WHERE entity_id IS NOT NULL;
CREATE INDEX memory_record_source ON memory_record (context_id, source_kind, source_ref);

-- Every revision's content, so history survives correction.
CREATE TABLE memory_revision (
    context_id   uuid NOT NULL,
    record_id    uuid NOT NULL,
    revision     integer NOT NULL,
    op           text NOT NULL CHECK (op IN ('create', 'update', 'delete', 'review', 'supersede',
                                             'hold', 'release', 'restore')),
    content      jsonb,
    actor_subject text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, record_id, revision),
    FOREIGN KEY (context_id, record_id) REFERENCES memory_record(context_id, id) ON DELETE CASCADE
);

-- A vector belongs to exactly one revision and is never reassigned.
CREATE TABLE memory_embedding (
    context_id   uuid NOT NULL,
    record_id    uuid NOT NULL,
    revision     integer NOT NULL,
    embedding    vector(384) NOT NULL,
    model        text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, record_id, revision),
    FOREIGN KEY (context_id, record_id) REFERENCES memory_record(context_id, id) ON DELETE CASCADE
);
CREATE INDEX memory_embedding_hnsw ON memory_embedding USING hnsw (embedding vector_cosine_ops);

-- The ingest judge's review log (a deny is never recorded here).
CREATE TABLE judgement (
    context_id     uuid NOT NULL REFERENCES context(id) ON DELETE CASCADE,
    id             uuid NOT NULL,
    gate           text NOT NULL CHECK (gate IN ('input', 'row')),
    verdict        text NOT NULL CHECK (verdict IN ('pass', 'warn', 'fail')),
    reasons        text[] NOT NULL DEFAULT '{}',
    source         text NOT NULL,
    scope_path     text NOT NULL DEFAULT '',
    visibility     text NOT NULL DEFAULT 'shared',
    excerpt        text NOT NULL DEFAULT '' CHECK (length(excerpt) <= 500),
    row_count      integer NOT NULL DEFAULT 1,
    principal_id   uuid,
    key_id         uuid,
    turn_id        uuid,
    document_id    uuid,
    held           boolean NOT NULL DEFAULT false,
    hold_decision  text CHECK (hold_decision IN ('approved', 'rejected')),
    hold_decided_at timestamptz,
    override_verdict text CHECK (override_verdict IN ('pass', 'warn', 'fail')),
    override_subject text,
    overridden_at  timestamptz,
    replay_state   text,
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, id)
);
CREATE INDEX judgement_recent ON judgement (context_id, created_at DESC, id DESC);

CREATE TABLE retained_input (
    context_id    uuid NOT NULL,
    judgement_id  uuid NOT NULL,
    route         text NOT NULL CHECK (route IN ('facts', 'facts_batch')),
    payload       jsonb NOT NULL,
    principal_id  uuid NOT NULL,
    key_id        uuid NOT NULL,
    expires_at    timestamptz,
    consumed_at   timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, judgement_id),
    FOREIGN KEY (context_id, judgement_id) REFERENCES judgement(context_id, id) ON DELETE CASCADE
);

-- Hygiene's review queue of adjudicated pairs.
CREATE TABLE conflict (
    context_id    uuid NOT NULL REFERENCES context(id) ON DELETE CASCADE,
    id            uuid NOT NULL,
    record_a      uuid NOT NULL,
    record_b      uuid NOT NULL,
    verdict       text NOT NULL CHECK (verdict IN
                    ('duplicate', 'supersedes', 'contradiction', 'complementary', 'unrelated')),
    superseding   text CHECK (superseding IN ('a', 'b')),
    confidence    double precision NOT NULL CHECK (confidence BETWEEN 0 AND 1),
    similarity    double precision,
    status        text NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'resolved', 'dismissed')),
    resolution    text,
    judge_model   text,
    created_at    timestamptz NOT NULL DEFAULT now(),
    resolved_at   timestamptz,
    PRIMARY KEY (context_id, id)
);
CREATE INDEX conflict_pending ON conflict (context_id, status, created_at);

CREATE TABLE reexamination_guard (
    context_id   uuid NOT NULL,
    record_id    uuid NOT NULL,
    judge_model  text NOT NULL,
    examined_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, record_id, judge_model)
);

CREATE TABLE recall_event (
    context_id  uuid NOT NULL,
    record_id   uuid NOT NULL,
    day         date NOT NULL,
    hits        integer NOT NULL DEFAULT 0,
    PRIMARY KEY (context_id, record_id, day)
);

CREATE TABLE review_receipt (
    context_id        uuid NOT NULL REFERENCES context(id) ON DELETE CASCADE,
    id                uuid NOT NULL,
    record_id         uuid NOT NULL,
    revision          integer NOT NULL,
    disposition       text NOT NULL CHECK (disposition IN ('approved', 'rejected', 'unreviewed')),
    reviewer_subject  text NOT NULL,
    key_id            uuid NOT NULL,
    evidence_ref      text NOT NULL,
    idempotency_key   text,
    command_digest    text NOT NULL,
    scope             jsonb NOT NULL,
    decided_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, id),
    UNIQUE (context_id, record_id, revision)
);
CREATE UNIQUE INDEX review_receipt_idempotency
    ON review_receipt (context_id, reviewer_subject, idempotency_key)
    WHERE idempotency_key IS NOT NULL;

-- Ordered change feed per Context (cursor = seq).
CREATE TABLE change_event (
    seq          bigint GENERATED ALWAYS AS IDENTITY,
    context_id   uuid NOT NULL REFERENCES context(id) ON DELETE CASCADE,
    record_id    uuid,
    revision     integer,
    kind         text NOT NULL,
    entry_type   text NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, seq)
);

-- Append-only: actor, action and target ids, never content.
CREATE TABLE audit_event (
    context_id     uuid,
    id             uuid NOT NULL,
    actor_subject  text NOT NULL,
    key_id         uuid,
    action         text NOT NULL,
    target_kind    text,
    target_id      uuid,
    created_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (id)
);
CREATE INDEX audit_event_context ON audit_event (context_id, created_at);

CREATE FUNCTION audit_event_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit_event is append-only';
END $$;
CREATE TRIGGER audit_event_no_update BEFORE UPDATE OR DELETE ON audit_event
    FOR EACH ROW EXECUTE FUNCTION audit_event_append_only();

CREATE TABLE usage (
    context_id         uuid NOT NULL REFERENCES context(id) ON DELETE CASCADE,
    day                date NOT NULL,
    stage              text NOT NULL,
    model              text NOT NULL,
    calls              bigint NOT NULL DEFAULT 0,
    prompt_tokens      bigint NOT NULL DEFAULT 0,
    completion_tokens  bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (context_id, day, stage, model)
);
