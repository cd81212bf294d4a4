-- Export and import (portability/, docs/portability.md).
--
-- The export walks share one set of parameters (store/portability.py: ExportFilter): the
-- reader's read prefixes and subject (`everything` for a manager of the whole Context,
-- who reads others' private records too), scope prefixes (none: all) and an optional
-- subject (what it wrote, owns, or what is about its own speaker entity). Each walk pages
-- by id upwards from `after`. Erased records are tombstones without content: not exported.

-- portability_records --
-- One page of records (entities first: `entities` true, then every other kind), each with
-- its revisions (each with the model of its vector, if it had one: the vector itself is not
-- exported, an import embeds the text again) and review receipts, oldest first.
SELECT r.id, r.kind, r.memory_category, r.scope_path, r.visibility, r.owner_subject,
       r.content, r.body, r.norm_name, r.entity_id, r.object_entity_id, r.attr_key,
       r.source_kind, r.source_ref, r.import_source_dir, r.provenance_rank,
       r.author_subject, r.derived_from, r.revision, r.review_disposition,
       r.review_revision, r.review_receipt_id, r.serving::text AS serving, r.valid_from,
       r.valid_to, r.superseded_by, r.expires_at, r.deleted_at, r.created_at, r.modified_at,
       (SELECT coalesce(jsonb_agg(jsonb_build_object(
                   'revision', v.revision, 'op', v.op, 'content', v.content,
                   'actor', v.actor_subject, 'at', v.created_at, 'cause', v.cause,
                   'validFrom', v.valid_from, 'validTo', v.valid_to,
                   'replacedBy', v.replaced_by,
                   'embeddingModel', (SELECT e.model FROM memory_embedding e
                                      WHERE e.context_id = v.context_id
                                        AND e.record_id = v.record_id
                                        AND e.revision = v.revision))
                   ORDER BY v.revision), '[]')
        FROM memory_revision v
        WHERE v.context_id = r.context_id AND v.record_id = r.id) AS revisions,
       (SELECT coalesce(jsonb_agg(jsonb_build_object(
                   'id', c.id, 'revision', c.revision, 'disposition', c.disposition,
                   'reviewer', c.reviewer_subject, 'keyId', c.key_id,
                   'evidenceRef', c.evidence_ref, 'idempotencyKey', c.idempotency_key,
                   'commandDigest', c.command_digest, 'scope', c.scope,
                   'decidedAt', c.decided_at) ORDER BY c.decided_at, c.id), '[]')
        FROM review_receipt c
        WHERE c.context_id = r.context_id AND c.record_id = r.id) AS receipts
FROM memory_record r
WHERE r.context_id = %(context_id)s AND r.serving::text <> 'erased'
  AND (r.kind = 'entity') = %(entities)s
  AND (%(everything)s OR memory_readable(r.scope_path, r.visibility, r.owner_subject,
                                         %(prefixes)s::text[], %(reader)s))
  AND (cardinality(%(scopes)s::text[]) = 0
       OR EXISTS (SELECT 1 FROM unnest(%(scopes)s::text[]) AS s(p) WHERE scope_covers(s.p, r.scope_path)))
  AND (%(subject)s::text IS NULL
       OR r.author_subject = %(subject)s OR r.owner_subject = %(subject)s
       OR r.norm_name = %(speaker_norm)s
       OR r.entity_id IN (SELECT e.id FROM memory_record e
                          WHERE e.context_id = %(context_id)s AND e.kind = 'entity'
                            AND e.norm_name = %(speaker_norm)s)
       OR r.object_entity_id IN (SELECT e.id FROM memory_record e
                                 WHERE e.context_id = %(context_id)s AND e.kind = 'entity'
                                   AND e.norm_name = %(speaker_norm)s))
  AND r.id > %(after)s
ORDER BY r.id
LIMIT %(limit)s

-- portability_links --
-- Hygiene's complementary links whose two records are both exported (readable, inside the
-- scope prefixes; with a subject, one of them the subject's).
SELECT l.record_lo, l.record_hi, l.kind, l.confidence, l.judge_model, l.created_at
FROM memory_link l
JOIN memory_record a ON a.context_id = l.context_id AND a.id = l.record_lo
JOIN memory_record b ON b.context_id = l.context_id AND b.id = l.record_hi
WHERE l.context_id = %(context_id)s
  AND a.serving::text <> 'erased' AND b.serving::text <> 'erased'
  AND (%(everything)s
       OR (memory_readable(a.scope_path, a.visibility, a.owner_subject,
                           %(prefixes)s::text[], %(reader)s)
           AND memory_readable(b.scope_path, b.visibility, b.owner_subject,
                               %(prefixes)s::text[], %(reader)s)))
  AND (cardinality(%(scopes)s::text[]) = 0
       OR EXISTS (SELECT 1 FROM unnest(%(scopes)s::text[]) AS s(p) WHERE scope_covers(s.p, a.scope_path)))
  AND (cardinality(%(scopes)s::text[]) = 0
       OR EXISTS (SELECT 1 FROM unnest(%(scopes)s::text[]) AS s(p) WHERE scope_covers(s.p, b.scope_path)))
  AND (%(subject)s::text IS NULL
       OR %(subject)s IN (a.author_subject, a.owner_subject, b.author_subject, b.owner_subject))
  AND (l.record_lo, l.record_hi) > (%(after)s, %(after_hi)s)
ORDER BY l.record_lo, l.record_hi
LIMIT %(limit)s

-- portability_turns --
-- A page of turns with their chunks and their session's scope and creator (sessions=true),
-- readable as records are; erased turns are tombstones (empty text): not exported.
SELECT t.id, t.session_id, p.subject AS principal_subject, t.text, t.scope_path,
       t.visibility, t.owner_subject, t.serving::text AS serving, t.speaker, t.created_at,
       s.scope_path AS session_scope, s.created_at AS session_created_at,
       (SELECT coalesce(jsonb_agg(jsonb_build_object(
                   'id', c.id, 'ordinal', c.ordinal, 'text', c.text,
                   'embedded', c.embedding IS NOT NULL) ORDER BY c.ordinal), '[]')
        FROM chunk c
        WHERE c.context_id = t.context_id AND c.turn_id = t.id) AS chunks
FROM turn t
JOIN session s ON s.context_id = t.context_id AND s.id = t.session_id
LEFT JOIN principal p ON p.context_id = t.context_id AND p.id = t.principal_id
WHERE t.context_id = %(context_id)s AND t.serving::text <> 'erased'
  AND (%(everything)s OR memory_readable(t.scope_path, t.visibility, t.owner_subject,
                                         %(prefixes)s::text[], %(reader)s))
  AND (cardinality(%(scopes)s::text[]) = 0
       OR EXISTS (SELECT 1 FROM unnest(%(scopes)s::text[]) AS s(p) WHERE scope_covers(s.p, t.scope_path)))
  AND (%(subject)s::text IS NULL OR p.subject = %(subject)s OR t.owner_subject = %(subject)s
       OR t.speaker = %(turn_speaker)s)
  AND t.id > %(after)s
ORDER BY t.id
LIMIT %(limit)s

-- portability_principals --
-- The Context's principals with their grants and their keys' metadata (never a secret's
-- hash): `include=keys`, for a manager of the whole Context.
SELECT p.id, p.subject, p.created_at,
       (SELECT coalesce(jsonb_agg(jsonb_build_object(
                   'capability', g.capability, 'scopePrefix', g.scope_prefix)
                   ORDER BY g.capability, g.scope_prefix), '[]')
        FROM principal_grant g
        WHERE g.context_id = p.context_id AND g.principal_id = p.id) AS grants,
       (SELECT coalesce(jsonb_agg(jsonb_build_object(
                   'id', k.id, 'capabilities', k.capabilities, 'scopePrefix', k.scope_prefix,
                   'expiresAt', k.expires_at, 'revokedAt', k.revoked_at,
                   'createdAt', k.created_at) ORDER BY k.created_at, k.id), '[]')
        FROM api_key k
        WHERE k.context_id = p.context_id AND k.principal_id = p.id) AS keys
FROM principal p
WHERE p.context_id = %(context_id)s AND p.id > %(after)s
ORDER BY p.id
LIMIT %(limit)s

-- portability_judgements --
-- Review-log entries with their excerpts (`include=judgements`, a manager of the whole
-- Context); an erasure already emptied the excerpts it reached.
SELECT j.id, j.gate, j.verdict, j.reasons, j.source, j.scope_path, j.visibility, j.excerpt,
       j.row_count, j.turn_id, j.document_id, j.held, j.hold_decision, j.override_verdict,
       j.override_subject, j.created_at
FROM judgement j
WHERE j.context_id = %(context_id)s
  AND (cardinality(%(scopes)s::text[]) = 0
       OR EXISTS (SELECT 1 FROM unnest(%(scopes)s::text[]) AS s(p) WHERE scope_covers(s.p, j.scope_path)))
  AND j.id > %(after)s
ORDER BY j.id
LIMIT %(limit)s

-- portability_import_insert --
INSERT INTO import_run (context_id, id, format, source_dir, scope_path, visibility, total,
                        requested_by, key_id)
VALUES (%(context_id)s, %(id)s, %(format)s, %(source_dir)s, %(scope_path)s, %(visibility)s,
        %(total)s, %(requested_by)s, %(key_id)s)

-- portability_import_items --
INSERT INTO import_item (context_id, import_id, seq, item_key, payload)
SELECT %(context_id)s, %(import_id)s, i.seq, i.item_key, i.payload
FROM unnest(%(seqs)s::int[], %(keys)s::text[], %(payloads)s::jsonb[]) AS i(seq, item_key, payload)

-- portability_import_get --
SELECT id, format, source_dir, scope_path, visibility, status, total, processed, counts,
       error, requested_by, key_id, created_at, started_at, finished_at
FROM import_run
WHERE context_id = %(context_id)s AND id = %(id)s

-- portability_import_start --
-- Queued or running (a job retried after its worker died): running from now on.
-- The time is read in a CTE: Citus refuses now() inside COALESCE in an UPDATE.
WITH t AS (SELECT now() AS at)
UPDATE import_run SET status = 'running', started_at = coalesce(started_at, t.at)
FROM t
WHERE context_id = %(context_id)s AND id = %(id)s AND status IN ('queued', 'running')
RETURNING id

-- portability_import_finish --
UPDATE import_run SET status = %(status)s, error = %(error)s, finished_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s

-- portability_import_pending --
-- The next items not yet processed after `after` (the last seq a run took), in file order,
-- locked so two runs never take one. A range of the primary key: the processed items
-- before `after` (dead row versions until vacuum) are never walked again.
SELECT seq, item_key, payload
FROM import_item
WHERE context_id = %(context_id)s AND import_id = %(import_id)s AND seq > %(after)s
  AND outcome IS NULL
ORDER BY seq
LIMIT %(limit)s
FOR UPDATE SKIP LOCKED

-- portability_item_done --
-- An item's outcome; its payload goes (what it wrote holds its content now, if anything).
UPDATE import_item SET outcome = %(outcome)s, detail = %(detail)s, target_id = %(target_id)s,
                       payload = NULL
WHERE context_id = %(context_id)s AND import_id = %(import_id)s AND seq = %(seq)s
  AND outcome IS NULL

-- portability_import_advance --
-- One batch's outcomes added to the counts, in the batch's transaction.
UPDATE import_run r
SET processed = r.processed + %(processed)s,
    counts = r.counts || (
        SELECT coalesce(jsonb_object_agg(a.key, coalesce((r.counts ->> a.key)::bigint, 0)
                                                + a.value::bigint), '{}'::jsonb)
        FROM jsonb_each_text(%(add)s::jsonb) a)
WHERE context_id = %(context_id)s AND id = %(id)s

-- portability_seen_keys --
-- Items of earlier imports (or earlier in this one) that wrote or matched a record: a
-- second import of the same item is a skip. With the record each one is now.
SELECT item_key, target_id
FROM import_item
WHERE context_id = %(context_id)s AND item_key = ANY(%(keys)s)
  AND outcome IN ('imported', 'held', 'duplicate')

-- portability_existing_ids --
SELECT id FROM memory_record WHERE context_id = %(context_id)s AND id = ANY(%(ids)s)

-- portability_live_like --
-- Served records a batch's records may be the same as: the same text, or for an entity the
-- same normalised name (portability/records.py matches kind, entity, key, scope,
-- visibility and owner).
SELECT id, kind, norm_name, entity_id, attr_key, body, scope_path, visibility, owner_subject
FROM memory_record
WHERE context_id = %(context_id)s AND serving = 'live'
  AND (body = ANY(%(bodies)s) OR (kind = 'entity' AND norm_name = ANY(%(norms)s)))
ORDER BY id

-- portability_existing_turns --
SELECT id FROM turn WHERE context_id = %(context_id)s AND id = ANY(%(ids)s)

-- portability_existing_sessions --
SELECT id FROM session WHERE context_id = %(context_id)s AND id = ANY(%(ids)s)

-- portability_insert_record --
-- A record as exported (its id, content, validity, serving and review state), with
-- `source_kind = 'import'` and the directory it came from.
INSERT INTO memory_record (context_id, id, kind, memory_category, scope_path, visibility,
                           owner_subject, content, body, norm_name, entity_id,
                           object_entity_id, attr_key, source_kind, source_ref,
                           import_source_dir, provenance_rank, author_subject, derived_from,
                           revision, review_disposition, review_revision, review_receipt_id,
                           serving, hold_judgement_id, valid_from, valid_to, superseded_by,
                           expires_at, deleted_at, created_at, modified_at)
VALUES (%(context_id)s, %(id)s, %(kind)s, %(memory_category)s, %(scope_path)s,
        %(visibility)s, %(owner_subject)s, %(content)s, %(body)s, %(norm_name)s,
        %(entity_id)s, %(object_entity_id)s, %(attr_key)s, 'import', %(source_ref)s,
        %(import_source_dir)s, %(provenance_rank)s, %(author_subject)s,
        %(derived_from)s::uuid[], %(revision)s, %(review_disposition)s, %(review_revision)s,
        %(review_receipt_id)s, %(serving)s::serving_state, %(hold_judgement_id)s,
        %(valid_from)s, %(valid_to)s, %(superseded_by)s, %(expires_at)s, %(deleted_at)s,
        %(created_at)s, %(modified_at)s)
ON CONFLICT DO NOTHING

-- portability_insert_revision --
-- With the cause, validity and replacement it had (its source's history, as it was).
INSERT INTO memory_revision (context_id, record_id, revision, op, content, actor_subject,
                             created_at, cause, valid_from, valid_to, replaced_by)
VALUES (%(context_id)s, %(record_id)s, %(revision)s, %(op)s, %(content)s, %(actor_subject)s,
        %(created_at)s, %(cause)s, %(valid_from)s, %(valid_to)s, %(replaced_by)s)

-- portability_insert_receipt --
INSERT INTO review_receipt (context_id, id, record_id, revision, disposition,
                            reviewer_subject, key_id, evidence_ref, idempotency_key,
                            command_digest, scope, decided_at)
VALUES (%(context_id)s, %(id)s, %(record_id)s, %(revision)s, %(disposition)s,
        %(reviewer_subject)s, %(key_id)s, %(evidence_ref)s, %(idempotency_key)s,
        %(command_digest)s, %(scope)s, %(decided_at)s)
ON CONFLICT DO NOTHING

-- portability_insert_link --
INSERT INTO memory_link (context_id, record_lo, record_hi, kind, confidence, judge_model,
                         created_at)
SELECT %(context_id)s, %(record_lo)s, %(record_hi)s, %(kind)s, %(confidence)s,
       %(judge_model)s, %(created_at)s
WHERE EXISTS (SELECT 1 FROM memory_record a
              WHERE a.context_id = %(context_id)s AND a.id = %(record_lo)s)
  AND EXISTS (SELECT 1 FROM memory_record b
              WHERE b.context_id = %(context_id)s AND b.id = %(record_hi)s)
ON CONFLICT DO NOTHING
RETURNING record_lo

-- portability_stamp_turn_records --
-- A text item's records (written as a turn's): the directory it came from and, when the
-- item carried one, its original time as their creation and the start of their validity.
UPDATE memory_record
SET import_source_dir = %(source_dir)s,
    created_at = coalesce(%(at)s, created_at),
    valid_from = coalesce(%(at)s, valid_from)
WHERE context_id = %(context_id)s AND source_kind = 'import' AND source_ref = %(turn_id)s
RETURNING id

-- portability_stamp_turn --
UPDATE turn SET created_at = coalesce(%(at)s, created_at)
WHERE context_id = %(context_id)s AND id = %(turn_id)s

-- portability_principal_of --
-- The principal of a subject, added (with no grants and no key) when the Context has none:
-- a session names its principal.
WITH added AS (
    INSERT INTO principal (context_id, id, subject)
    VALUES (%(context_id)s, %(id)s, %(subject)s)
    ON CONFLICT (context_id, subject) DO NOTHING
    RETURNING id
)
SELECT id FROM added
UNION ALL
SELECT id FROM principal WHERE context_id = %(context_id)s AND subject = %(subject)s
LIMIT 1

-- portability_insert_session --
INSERT INTO session (context_id, id, principal_id, scope_path, created_at)
VALUES (%(context_id)s, %(id)s, %(principal_id)s, %(scope_path)s, %(created_at)s)
ON CONFLICT DO NOTHING
RETURNING id

-- portability_insert_turn --
-- Its session is in (portability_existing_sessions, checked before): the principal is
-- the session's.
INSERT INTO turn (context_id, id, session_id, principal_id, text, scope_path, visibility,
                  owner_subject, serving, hold_judgement_id, speaker, created_at)
SELECT %(context_id)s, %(id)s, %(session_id)s, s.principal_id, %(text)s, %(scope_path)s,
       %(visibility)s, %(owner_subject)s, %(serving)s::serving_state, %(hold_judgement_id)s,
       %(speaker)s, %(created_at)s
FROM session s
WHERE s.context_id = %(context_id)s AND s.id = %(session_id)s
ON CONFLICT DO NOTHING

-- portability_insert_chunk --
INSERT INTO chunk (context_id, id, turn_id, ordinal, text, embedding, scope_path, visibility,
                   owner_subject, serving, hold_judgement_id, created_at)
VALUES (%(context_id)s, %(id)s, %(turn_id)s, %(ordinal)s, %(text)s, %(embedding)s,
        %(scope_path)s, %(visibility)s, %(owner_subject)s, %(serving)s::serving_state,
        %(hold_judgement_id)s, %(created_at)s)

-- portability_open_imports --
-- Imports still queued or running, oldest first: the minute sweep queues each again (a
-- live one's job keeps it alone: the job lock).
SELECT context_id, id FROM import_run
WHERE status IN ('queued', 'running') AND created_at < now() - make_interval(secs => %(older_than_s)s)
ORDER BY created_at
LIMIT 100
