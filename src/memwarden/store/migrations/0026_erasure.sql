-- Erasure (issue 25): the irreversible forget. A plain delete keeps every revision's content;
-- an erased record keeps only a content-free tombstone (ids, kinds, times) in serving state
-- `erased`, which never serves again. The enum value is new in this transaction, so nothing
-- below names it (PostgreSQL refuses a new value's use before commit).
ALTER TYPE serving_state ADD VALUE IF NOT EXISTS 'erased';

-- An erased record blocks like a deleted one (the reason stays `deleted`: the Python twin,
-- domain/eligibility.py, says the same, and no reason names what was there). `erased` sorts
-- after `deleted`, the last value before it, so `>= 'deleted'` is both without naming the
-- new value, and the function stays immutable (inlined into every serving query).
CREATE OR REPLACE FUNCTION memory_block_reason(
    serving serving_state,
    review_disposition text,
    expires_at timestamptz,
    valid_to timestamptz,
    at timestamptz
) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
        WHEN serving >= 'deleted' THEN 'deleted'
        WHEN review_disposition IS NOT DISTINCT FROM 'rejected' THEN 'rejected'
        WHEN serving = 'held' THEN 'held'
        WHEN serving = 'superseded' THEN 'superseded'
        WHEN valid_to IS NOT NULL AND valid_to <= at THEN 'invalidated'
        WHEN expires_at IS NOT NULL AND expires_at <= at THEN 'expired'
    END
$$;

-- The revision an erasure adds to each record (its content NULL, as every earlier one's
-- becomes), and a document's erased state (its text, gist, name and original gone).
ALTER TABLE memory_revision DROP CONSTRAINT memory_revision_op_check;
ALTER TABLE memory_revision ADD CONSTRAINT memory_revision_op_check
    CHECK (op IN ('create', 'update', 'delete', 'review', 'supersede', 'hold', 'release',
                  'restore', 'erase'));
ALTER TABLE document DROP CONSTRAINT document_status_check;
ALTER TABLE document ADD CONSTRAINT document_status_check
    CHECK (status IN ('pending', 'processing', 'processed', 'failed', 'erased'));

-- One erasure request: its target (ids or a name, never content), where it stands, and
-- its counts per kind, advanced in the same transaction as each batch it erased (so a run
-- that dies mid-way is finished by the next one, and the counts stay true).
CREATE TABLE erasure (
    context_id   uuid NOT NULL REFERENCES context(id) ON DELETE CASCADE,
    id           uuid NOT NULL,
    target_kind  text NOT NULL
                   CHECK (target_kind IN ('records', 'subject', 'speaker', 'scope', 'session',
                                          'document')),
    target       jsonb NOT NULL,
    status       text NOT NULL DEFAULT 'queued'
                   CHECK (status IN ('queued', 'running', 'done', 'failed')),
    counts       jsonb NOT NULL DEFAULT '{}',
    error        text,
    requested_by text NOT NULL,
    key_id       uuid,
    created_at   timestamptz NOT NULL DEFAULT now(),
    started_at   timestamptz,
    finished_at  timestamptz,
    PRIMARY KEY (context_id, id)
);
CREATE INDEX erasure_open ON erasure (context_id) WHERE status IN ('queued', 'running');

-- What a subject erasure looks up: a Context's records by author, turns by principal.
CREATE INDEX memory_record_author ON memory_record (context_id, author_subject);
CREATE INDEX turn_principal ON turn (context_id, principal_id);
