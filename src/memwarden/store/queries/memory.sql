-- Memory records: commands, direct reads, review decisions, receipts, embeddings.
-- Every read that serves content applies memory_servable() (0002_review.sql).

-- insert_memory_record --
-- A record the judge holds is written held, under the review-log entry that holds it.
INSERT INTO memory_record (context_id, id, kind, memory_category, scope_path, visibility,
                           owner_subject, content, body, source_kind, author_subject,
                           expires_at, provenance_rank, serving, hold_judgement_id)
VALUES (%(context_id)s, %(id)s, %(kind)s, %(memory_category)s, %(scope_path)s,
        %(visibility)s, %(owner_subject)s, %(content)s, %(body)s, 'command',
        %(author_subject)s, %(expires_at)s, %(provenance_rank)s,
        CASE WHEN %(hold_judgement_id)s::uuid IS NULL THEN 'live' ELSE 'held' END::serving_state,
        %(hold_judgement_id)s)
ON CONFLICT (context_id, id) DO NOTHING
RETURNING id, revision, kind, created_at

-- lock_memory_record --
-- Metadata only, locked for a revision-checked change.
SELECT id, revision, kind, scope_path, visibility, owner_subject, serving, content,
       review_disposition, expires_at, valid_to, derived_from, deleted_at,
       memory_servable(context_id, serving, review_disposition, expires_at, valid_to,
                       derived_from, now()) AS servable
FROM memory_record
WHERE context_id = %(context_id)s AND id = %(id)s
FOR UPDATE

-- memory_record_state --
-- Metadata (no content) and the current decision, whatever the serving state.
SELECT r.id, r.revision, r.kind, r.scope_path, r.visibility, r.owner_subject, r.serving,
       r.expires_at, r.valid_to, r.derived_from, r.deleted_at, r.review_disposition,
       r.review_revision, r.review_receipt_id, rc.disposition AS receipt_disposition,
       rc.reviewer_subject AS receipt_reviewer, rc.decided_at AS receipt_decided_at,
       rc.revision AS receipt_revision, now() AS server_now
FROM memory_record r
LEFT JOIN review_receipt rc ON rc.context_id = r.context_id AND rc.id = r.review_receipt_id
WHERE r.context_id = %(context_id)s AND r.id = %(id)s

-- read_servable_record --
SELECT r.id, r.revision, r.kind, r.memory_category, r.content, r.body, r.scope_path,
       r.visibility, r.owner_subject, r.author_subject, r.expires_at, r.created_at,
       r.modified_at, r.review_revision, r.review_receipt_id, r.source_kind, r.derived_from,
       rc.disposition AS receipt_disposition, rc.reviewer_subject AS receipt_reviewer,
       rc.decided_at AS receipt_decided_at, rc.revision AS receipt_revision
FROM memory_record r
LEFT JOIN review_receipt rc ON rc.context_id = r.context_id AND rc.id = r.review_receipt_id
WHERE r.context_id = %(context_id)s AND r.id = %(id)s
  AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at, r.valid_to,
                      r.derived_from, now())

-- update_memory_content --
-- New content is a new, unreviewed revision.
UPDATE memory_record
SET content = %(content)s, body = %(body)s, expires_at = %(expires_at)s,
    revision = revision + 1, review_disposition = NULL, review_revision = NULL,
    review_receipt_id = NULL, embedding = NULL, embedding_revision = NULL, modified_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s AND revision = %(expected_revision)s
  AND serving <> 'deleted'
RETURNING revision, content

-- update_memory_expiry --
UPDATE memory_record
SET expires_at = %(expires_at)s, revision = revision + 1, embedding = NULL,
    embedding_revision = NULL, modified_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s AND revision = %(expected_revision)s
  AND serving <> 'deleted'
RETURNING revision, content

-- delete_memory_record --
UPDATE memory_record
SET serving = 'deleted', deleted_at = now(), revision = revision + 1, embedding = NULL,
    embedding_revision = NULL, modified_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s AND revision = %(expected_revision)s
  AND serving <> 'deleted'
RETURNING revision

-- apply_review --
-- Content and author stay; the revision advances. An approval raises the provenance rank
-- (domain/provenance.py); nothing here lowers it.
UPDATE memory_record
SET revision = revision + 1, review_disposition = %(stored_disposition)s,
    provenance_rank = greatest(provenance_rank, %(raise_rank)s),
    review_revision = revision + 1, review_receipt_id = %(receipt_id)s, embedding = NULL,
    embedding_revision = NULL, modified_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s AND revision = %(expected_revision)s
  AND serving <> 'deleted'
RETURNING revision, content

-- insert_memory_revision --
-- `cause` NULL: the one the op implies (migration 0028's trigger, which also keeps the
-- record's validity and replacement as this revision left them).
INSERT INTO memory_revision (context_id, record_id, revision, op, content, actor_subject, cause)
VALUES (%(context_id)s, %(record_id)s, %(revision)s, %(op)s, %(content)s, %(actor_subject)s,
        %(cause)s)

-- memory_revision_op --
SELECT op FROM memory_revision
WHERE context_id = %(context_id)s AND record_id = %(record_id)s AND revision = %(revision)s

-- insert_review_receipt --
INSERT INTO review_receipt (context_id, id, record_id, revision, disposition, reviewer_subject,
                            key_id, evidence_ref, idempotency_key, command_digest, scope)
VALUES (%(context_id)s, %(id)s, %(record_id)s, %(revision)s, %(disposition)s,
        %(reviewer_subject)s, %(key_id)s, %(evidence_ref)s, %(idempotency_key)s,
        %(command_digest)s, %(scope)s)
RETURNING decided_at

-- receipt_by_idempotency_key --
SELECT rc.id, rc.record_id, rc.revision, rc.disposition, rc.reviewer_subject, rc.key_id,
       rc.evidence_ref, rc.idempotency_key, rc.command_digest, rc.scope, rc.decided_at,
       r.scope_path, r.visibility, r.owner_subject
FROM review_receipt rc
LEFT JOIN memory_record r ON r.context_id = rc.context_id AND r.id = rc.record_id
WHERE rc.context_id = %(context_id)s AND rc.reviewer_subject = %(reviewer_subject)s
  AND rc.idempotency_key = %(idempotency_key)s

-- receipt_by_revision --
SELECT id, record_id, revision, disposition, reviewer_subject, key_id, evidence_ref,
       idempotency_key, command_digest, scope, decided_at
FROM review_receipt
WHERE context_id = %(context_id)s AND record_id = %(record_id)s AND revision = %(revision)s

-- insert_memory_embedding --
-- The one writer of vectors: records the revision's vector once and, when that revision is
-- still the record's current one, copies it onto the record row (0005_record_vector.sql).
WITH added AS (
    INSERT INTO memory_embedding (context_id, record_id, revision, embedding, model)
    VALUES (%(context_id)s, %(record_id)s, %(revision)s, %(embedding)s, %(model)s)
    ON CONFLICT (context_id, record_id, revision) DO NOTHING
    RETURNING context_id, record_id, revision, embedding, created_at
), attached AS (
    UPDATE memory_record r
    SET embedding = a.embedding, embedding_revision = a.revision
    FROM added a
    WHERE r.context_id = a.context_id AND r.id = a.record_id AND r.revision = a.revision
)
SELECT created_at FROM added

-- memory_source_graph --
-- The record and its transitive sources (bounded depth), metadata only, for the diagnostic.
WITH RECURSIVE walk(id, depth) AS (
    SELECT %(id)s::uuid, 0
    UNION
    SELECT d, w.depth + 1
    FROM walk w
    JOIN memory_record r ON r.context_id = %(context_id)s AND r.id = w.id
    CROSS JOIN LATERAL unnest(r.derived_from) AS d
    WHERE w.depth < %(max_depth)s
)
SELECT DISTINCT ON (r.id) r.id, r.serving, r.review_disposition, r.expires_at, r.valid_to,
       r.derived_from, r.scope_path, r.visibility, r.owner_subject, now() AS server_now
FROM walk w
JOIN memory_record r ON r.context_id = %(context_id)s AND r.id = w.id
ORDER BY r.id
