-- The write path: sessions, turns, chunks and reconciled memory records.
-- Reconciliation reads only servable records (memory_servable, 0002_review.sql) in the
-- write's own scope: same path, same visibility, and for private writes the same owner.

-- ingest_get_session --
SELECT id, principal_id, scope_path FROM session
WHERE context_id = %(context_id)s AND id = %(id)s

-- ingest_insert_session --
INSERT INTO session (context_id, id, principal_id, scope_path)
VALUES (%(context_id)s, %(id)s, %(principal_id)s, %(scope_path)s)

-- ingest_insert_turn --
INSERT INTO turn (context_id, id, session_id, principal_id, text, scope_path, visibility,
                  owner_subject, serving, hold_judgement_id, speaker)
VALUES (%(context_id)s, %(id)s, %(session_id)s, %(principal_id)s, %(text)s, %(scope_path)s,
        %(visibility)s, %(owner_subject)s, %(serving)s, %(hold_judgement_id)s, %(speaker)s)

-- ingest_insert_chunk --
INSERT INTO chunk (context_id, id, turn_id, ordinal, text, embedding, scope_path, visibility,
                   owner_subject, serving, hold_judgement_id)
VALUES (%(context_id)s, %(id)s, %(turn_id)s, %(ordinal)s, %(text)s, %(embedding)s,
        %(scope_path)s, %(visibility)s, %(owner_subject)s, %(serving)s, %(hold_judgement_id)s)

-- ingest_lock_scope --
-- One reconciliation per (Context, scope) at a time, so two writes never both insert "Alice".
SELECT pg_advisory_xact_lock(hashtextextended(
    'reconcile:' || %(context_id)s::text || ':' || %(scope_path)s || ':' || %(visibility)s, 0))

-- ingest_entities_by_name --
SELECT DISTINCT ON (r.norm_name) r.id, r.norm_name, r.content->>'name' AS name,
       coalesce(r.content->>'entityType', 'other') AS entity_type, r.memory_category
FROM memory_record r
WHERE r.context_id = %(context_id)s AND r.kind = 'entity' AND r.norm_name = ANY(%(names)s)
  AND r.scope_path = %(scope_path)s AND r.visibility = %(visibility)s
  AND (r.visibility = 'shared' OR r.owner_subject = %(subject)s)
  AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at, r.valid_to,
                      r.derived_from, now())
ORDER BY r.norm_name, r.created_at, r.id

-- ingest_speaker_names --
-- The values of the served name attributes (`name`, `preferred_name`, ...) of the speaker's
-- entity in the write's scope: names that resolve to the speaker for the speaker only.
SELECT a.content->>'value' AS value
FROM memory_record e
JOIN memory_record a ON a.context_id = e.context_id AND a.entity_id = e.id
WHERE e.context_id = %(context_id)s AND e.kind = 'entity' AND e.norm_name = %(norm)s
  AND e.scope_path = %(scope_path)s AND e.visibility = %(visibility)s
  AND (e.visibility = 'shared' OR e.owner_subject = %(subject)s)
  AND memory_servable(e.context_id, e.serving, e.review_disposition, e.expires_at, e.valid_to,
                      e.derived_from, now())
  AND a.kind = 'attribute' AND a.attr_key = ANY(%(keys)s)
  AND a.scope_path = e.scope_path AND a.visibility = e.visibility
  AND memory_servable(a.context_id, a.serving, a.review_disposition, a.expires_at, a.valid_to,
                      a.derived_from, now())
ORDER BY a.created_at, a.id

-- ingest_similar_entities --
-- For each name vector, the nearest servable entity name in the scope (exact scan: the
-- scope's entities are materialised so no ANN index sees the filter).
WITH eligible AS MATERIALIZED (
    SELECT r.id, r.norm_name, r.content, r.memory_category, r.embedding
    FROM memory_record r
    WHERE r.context_id = %(context_id)s AND r.kind = 'entity'
      AND r.norm_name NOT LIKE 'speaker:%%'
      AND r.embedding IS NOT NULL AND r.embedding_revision = r.revision
      AND r.scope_path = %(scope_path)s AND r.visibility = %(visibility)s
      AND (r.visibility = 'shared' OR r.owner_subject = %(subject)s)
      AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at,
                          r.valid_to, r.derived_from, now())
)
SELECT q.ord, best.id, best.norm_name, best.name, best.entity_type, best.memory_category,
       best.similarity
FROM unnest(%(vectors)s::vector[]) WITH ORDINALITY AS q(v, ord)
CROSS JOIN LATERAL (
    SELECT id, norm_name, content->>'name' AS name,
           coalesce(content->>'entityType', 'other') AS entity_type, memory_category,
           1 - (embedding <=> q.v) AS similarity
    FROM eligible
    ORDER BY embedding <=> q.v, id
    LIMIT 1
) best

-- ingest_live_facts --
SELECT r.id, r.kind, r.entity_id, r.object_entity_id, r.attr_key, r.content, r.source_kind
FROM memory_record r
WHERE r.context_id = %(context_id)s AND r.entity_id = ANY(%(entity_ids)s)
  AND r.attr_key = ANY(%(keys)s) AND r.kind IN ('attribute', 'relation', 'action')
  AND r.scope_path = %(scope_path)s AND r.visibility = %(visibility)s
  AND (r.visibility = 'shared' OR r.owner_subject = %(subject)s)
  AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at, r.valid_to,
                      r.derived_from, now())

-- ingest_live_notes --
SELECT r.id, r.kind, r.norm_name
FROM memory_record r
WHERE r.context_id = %(context_id)s AND r.kind IN ('instruction', 'uncertainty')
  AND r.norm_name = ANY(%(idents)s)
  AND r.scope_path = %(scope_path)s AND r.visibility = %(visibility)s
  AND (r.visibility = 'shared' OR r.owner_subject = %(subject)s)
  AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at, r.valid_to,
                      r.derived_from, now())

-- ingest_insert_record --
INSERT INTO memory_record (context_id, id, kind, memory_category, scope_path, visibility,
                           owner_subject, content, body, norm_name, entity_id,
                           object_entity_id, attr_key, source_kind, source_ref,
                           author_subject, serving, hold_judgement_id, derived_from,
                           provenance_rank)
VALUES (%(context_id)s, %(id)s, %(kind)s, %(memory_category)s, %(scope_path)s, %(visibility)s,
        %(owner_subject)s, %(content)s, %(body)s, %(norm_name)s, %(entity_id)s,
        %(object_entity_id)s, %(attr_key)s, %(source_kind)s, %(source_ref)s,
        %(author_subject)s, %(serving)s, %(hold_judgement_id)s, %(derived_from)s::uuid[],
        %(provenance_rank)s)

-- ingest_supersede --
-- Only a live record is superseded; its validity closes when the new one's opens.
UPDATE memory_record
SET serving = 'superseded', valid_to = now(), superseded_by = %(new_id)s,
    revision = revision + 1, embedding = NULL, embedding_revision = NULL, modified_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s AND serving = 'live'
RETURNING id, revision, kind, content

-- ingest_records_to_embed --
-- Records whose current revision has no vector yet.
SELECT r.id, r.revision, r.kind, r.content, r.body
FROM memory_record r
WHERE r.context_id = %(context_id)s AND r.id = ANY(%(ids)s)
  AND NOT EXISTS (SELECT 1 FROM memory_embedding e
                  WHERE e.context_id = r.context_id AND e.record_id = r.id
                    AND e.revision = r.revision)
