-- Erasure (erasure/run.py, docs/erasure.md): requests, what a target names, and the batches
-- that replace content by tombstones. Every pick skips what is already erased, so a run that
-- died mid-way is finished by running it again, and a second run changes nothing.
--
-- The picks share one set of parameters (store/erasure.py: resolve): the named record ids,
-- the subject, the scope prefix, and the turns, documents and speaker entities the target
-- resolved to (empty arrays and NULLs where a kind does not use them). Each pick walks ids
-- upwards from `after` (the last id of the batch before), so a batch never rescans the
-- tombstones the batches before it left. A pick's correlated subqueries bind the Context
-- themselves: Citus routes a FOR UPDATE only when every table in it is pinned, and does not
-- carry the outer row's pin into a subquery.

-- erasure_insert --
INSERT INTO erasure (context_id, id, target_kind, target, requested_by, key_id)
VALUES (%(context_id)s, %(id)s, %(target_kind)s, %(target)s, %(requested_by)s, %(key_id)s)

-- erasure_get --
SELECT id, target_kind, target, status, counts, error, requested_by, key_id, created_at,
       started_at, finished_at
FROM erasure
WHERE context_id = %(context_id)s AND id = %(id)s

-- erasure_start --
-- Queued or running (a retried job after its worker died): running from now on. The time
-- is read in a CTE: Citus refuses now() inside COALESCE in an UPDATE.
WITH t AS (SELECT now() AS at)
UPDATE erasure SET status = 'running', started_at = coalesce(started_at, t.at)
FROM t
WHERE context_id = %(context_id)s AND id = %(id)s AND status IN ('queued', 'running')
RETURNING target_kind, target

-- erasure_finish --
UPDATE erasure SET status = %(status)s, error = %(error)s, finished_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s

-- erasure_add_counts --
UPDATE erasure e
SET counts = e.counts || (
    SELECT coalesce(jsonb_object_agg(a.key, coalesce((e.counts ->> a.key)::bigint, 0)
                                            + a.value::bigint), '{}'::jsonb)
    FROM jsonb_each_text(%(add)s::jsonb) a
)
WHERE context_id = %(context_id)s AND id = %(id)s

-- erasure_principal --
SELECT id FROM principal WHERE context_id = %(context_id)s AND subject = %(subject)s

-- erasure_scopes_of_records --
-- The named records that exist (any state), with their scopes, for the grant check.
SELECT id, scope_path FROM memory_record
WHERE context_id = %(context_id)s AND id = ANY(%(ids)s)

-- erasure_session_scope --
SELECT scope_path FROM session WHERE context_id = %(context_id)s AND id = %(id)s

-- erasure_document_scope --
SELECT scope_path FROM document WHERE context_id = %(context_id)s AND id = %(id)s

-- erasure_target_turns --
-- The turns a target names: a subject's (by its principal), an end user's (spoken by
-- them), a scope's, a session's, and the turns the named records were extracted from
-- (an imported text's records, `import`, name their turn as a turn's do).
SELECT t.id, t.session_id FROM turn t
WHERE t.context_id = %(context_id)s
  AND (t.principal_id = %(principal_id)s
       OR t.speaker = %(turn_speaker)s
       OR scope_covers(%(prefix)s, t.scope_path)
       OR t.session_id = %(session_id)s
       OR t.id IN (SELECT r.source_ref FROM memory_record r
                   WHERE r.context_id = %(context_id)s AND r.id = ANY(%(ids)s)
                     AND r.source_kind IN ('turn', 'import')))

-- erasure_target_documents --
SELECT d.id FROM document d
WHERE d.context_id = %(context_id)s
  AND (d.principal_id = %(principal_id)s
       OR scope_covers(%(prefix)s, d.scope_path)
       OR d.id = %(document_id)s)

-- erasure_speaker_entities --
-- A speaker's own entities (one per scope it spoke in): `speaker:<key>` (domain/speaker.py).
SELECT id FROM memory_record
WHERE context_id = %(context_id)s AND kind = 'entity' AND norm_name = %(speaker_norm)s

-- erasure_pick_facts --
-- Records the target names directly, entities last (erasure_pick_entities).
SELECT r.id FROM memory_record r
WHERE r.context_id = %(context_id)s AND r.serving::text <> 'erased' AND r.kind <> 'entity'
  AND (r.id = ANY(%(ids)s)
       OR (r.author_subject = %(subject)s AND r.source_kind NOT IN
               ('consolidation', 'elaboration', 'rollup', 'gist'))
       OR r.entity_id = ANY(%(entities)s)
       OR r.object_entity_id = ANY(%(entities)s)
       OR scope_covers(%(prefix)s, r.scope_path)
       OR (r.source_kind IN ('turn', 'import') AND r.source_ref = ANY(%(turns)s))
       OR (r.source_kind = 'document' AND r.source_ref = ANY(%(documents)s)))
  AND r.id > %(after)s
ORDER BY r.id
LIMIT %(limit)s
FOR UPDATE

-- erasure_pick_derived --
-- Records built from erased material: a source (record, turn or document) erased.
SELECT r.id FROM memory_record r
WHERE r.context_id = %(context_id)s AND r.serving::text <> 'erased'
  AND cardinality(r.derived_from) > 0
  AND (r.derived_from && %(turns)s OR r.derived_from && %(documents)s
       OR EXISTS (SELECT 1 FROM memory_record s
                  WHERE s.context_id = %(context_id)s AND s.id = ANY(r.derived_from)
                    AND s.serving::text = 'erased'))
  AND r.id > %(after)s
ORDER BY r.id
LIMIT %(limit)s
FOR UPDATE

-- erasure_pick_entities --
-- Entities the target names, and a pass's own entities (`document <name>`, `session <id>`)
-- whose facts were erased. An entity another record still names stays (another reader's
-- fact keeps its subject or object), unless it is the speaker's own.
SELECT r.id FROM memory_record r
WHERE r.context_id = %(context_id)s AND r.serving::text <> 'erased' AND r.kind = 'entity'
  AND (r.id = ANY(%(ids)s)
       OR r.id = ANY(%(entities)s)
       OR (r.author_subject = %(subject)s AND r.source_kind NOT IN
               ('consolidation', 'elaboration', 'rollup', 'gist'))
       OR scope_covers(%(prefix)s, r.scope_path)
       OR (r.source_kind IN ('turn', 'import') AND r.source_ref = ANY(%(turns)s))
       OR (r.source_kind = 'document' AND r.source_ref = ANY(%(documents)s))
       OR (r.source_kind IN ('consolidation', 'elaboration', 'rollup', 'gist')
           AND EXISTS (SELECT 1 FROM memory_record o
                       WHERE o.context_id = %(context_id)s AND o.serving::text = 'erased'
                         AND (o.entity_id = r.id OR o.object_entity_id = r.id))))
  AND (r.id = ANY(%(entities)s)
       OR NOT EXISTS (SELECT 1 FROM memory_record o
                      WHERE o.context_id = %(context_id)s AND o.serving::text <> 'erased'
                        AND o.id <> r.id
                        AND (o.entity_id = r.id OR o.object_entity_id = r.id)))
  AND r.id > %(after)s
ORDER BY r.id
LIMIT %(limit)s
FOR UPDATE

-- erasure_tombstone_records --
-- The tombstone: ids, kind, scope, owner, author, times and links by id stay; content,
-- names, keys and vectors go (tsv follows body). One revision more, as every change has.
-- The time is read in a CTE and the state compared as the enum, not as text: Citus refuses
-- now() inside COALESCE, and a STABLE function of a column (the enum's cast), in an UPDATE.
WITH t AS (SELECT now() AS at)
UPDATE memory_record
SET serving = 'erased', content = '{}'::jsonb, body = '', norm_name = NULL, attr_key = NULL,
    import_source_dir = NULL, embedding = NULL, embedding_revision = NULL,
    revision = revision + 1, deleted_at = coalesce(deleted_at, t.at), modified_at = t.at
FROM t
WHERE context_id = %(context_id)s AND id = ANY(%(ids)s) AND serving <> 'erased'
RETURNING id, revision

-- erasure_clear_revisions --
UPDATE memory_revision SET content = NULL
WHERE context_id = %(context_id)s AND record_id = ANY(%(ids)s) AND content IS NOT NULL

-- erasure_add_revisions --
INSERT INTO memory_revision (context_id, record_id, revision, op, content, actor_subject)
SELECT %(context_id)s, i, r, 'erase', NULL, %(actor)s
FROM unnest(%(ids)s::uuid[], %(revisions)s::int[]) AS t(i, r)
ON CONFLICT DO NOTHING

-- erasure_feed --
-- One `erased` entry per record, numbered after the Context's last (under lock_change_feed).
INSERT INTO change_event (context_id, seq, record_id, revision, kind, entry_type)
SELECT %(context_id)s,
       coalesce((SELECT max(seq) FROM change_event WHERE context_id = %(context_id)s), 0)
           + t.n,
       t.i, t.r, 'memory', 'erased'
FROM unnest(%(ids)s::uuid[], %(revisions)s::int[]) WITH ORDINALITY AS t(i, r, n)

-- erasure_drop_vectors --
DELETE FROM memory_embedding WHERE context_id = %(context_id)s AND record_id = ANY(%(ids)s)

-- erasure_drop_links --
DELETE FROM memory_link
WHERE context_id = %(context_id)s AND (record_lo = ANY(%(ids)s) OR record_hi = ANY(%(ids)s))

-- erasure_drop_queue_items --
-- Hygiene queue items (pending or decided) naming an erased record: their reasons may quote it.
DELETE FROM conflict
WHERE context_id = %(context_id)s AND (record_a = ANY(%(ids)s) OR record_b = ANY(%(ids)s))

-- erasure_drop_judged_pairs --
DELETE FROM hygiene_judged
WHERE context_id = %(context_id)s AND (record_lo = ANY(%(ids)s) OR record_hi = ANY(%(ids)s))

-- erasure_drop_traffic --
DELETE FROM recall_event WHERE context_id = %(context_id)s AND record_id = ANY(%(ids)s)

-- erasure_drop_guards --
DELETE FROM reexamination_guard WHERE context_id = %(context_id)s AND record_id = ANY(%(ids)s)

-- erasure_pick_turns --
SELECT id FROM turn
WHERE context_id = %(context_id)s AND id = ANY(%(turns)s) AND serving::text <> 'erased'
  AND id > %(after)s
ORDER BY id
LIMIT %(limit)s
FOR UPDATE

-- erasure_tombstone_turns --
-- The state compared as the enum (Citus: as in erasure_tombstone_records).
UPDATE turn SET serving = 'erased', text = '', extraction_failed = '[]'
WHERE context_id = %(context_id)s AND id = ANY(%(ids)s) AND serving <> 'erased'

-- erasure_drop_turn_chunks --
DELETE FROM chunk WHERE context_id = %(context_id)s AND turn_id = ANY(%(ids)s)

-- erasure_pick_documents --
SELECT id, storage_path FROM document
WHERE context_id = %(context_id)s AND id = ANY(%(documents)s) AND status <> 'erased'
  AND id > %(after)s
ORDER BY id
LIMIT %(limit)s
FOR UPDATE

-- erasure_tombstone_documents --
UPDATE document
SET status = 'erased', filename = 'erased', parsed_text = NULL, gist = NULL,
    storage_path = NULL, extraction_failed = '[]', failure_reasons = '{}', updated_at = now()
WHERE context_id = %(context_id)s AND id = ANY(%(ids)s) AND status <> 'erased'

-- erasure_drop_document_chunks --
DELETE FROM chunk WHERE context_id = %(context_id)s AND document_id = ANY(%(ids)s)

-- erasure_pick_judgements --
-- Review-log entries of the erased writes: the subject's, in the scope, of the erased turns
-- and documents, the holds of erased records, and a pass's row-gate entries that may quote
-- an erased derived record (the log keeps no row id: those the same run logged, in the same
-- scope, in its running time). Their excerpt goes; verdicts and reason codes stay.
SELECT j.id FROM judgement j
WHERE j.context_id = %(context_id)s AND j.excerpt <> ''
  AND (EXISTS (SELECT 1 FROM memory_record r
               JOIN pass_run p ON p.context_id = r.context_id AND p.id = r.source_ref
               WHERE r.context_id = %(context_id)s AND r.serving::text = 'erased'
                 AND r.source_kind = j.source AND r.scope_path = j.scope_path
                 AND j.created_at >= p.created_at
                 AND j.created_at <= coalesce(p.finished_at, now()))
       OR j.principal_id = %(principal_id)s
       OR scope_covers(%(prefix)s, j.scope_path)
       OR j.turn_id = ANY(%(turns)s)
       OR j.document_id = ANY(%(documents)s)
       OR j.id IN (SELECT r.hold_judgement_id FROM memory_record r
                   WHERE r.context_id = %(context_id)s AND r.serving::text = 'erased'
                     AND r.hold_judgement_id IS NOT NULL
                     AND (r.id = ANY(%(ids)s) OR r.source_ref = ANY(%(turns)s))))
  AND j.id > %(after)s
ORDER BY j.id
LIMIT %(limit)s
FOR UPDATE

-- erasure_clear_excerpts --
UPDATE judgement SET excerpt = '' WHERE context_id = %(context_id)s AND id = ANY(%(ids)s)

-- erasure_drop_retained --
-- The requests kept for a replay, of the same review-log entries.
DELETE FROM retained_input ri
USING judgement j
WHERE ri.context_id = %(context_id)s AND j.context_id = ri.context_id
  AND j.id = ri.judgement_id
  AND (j.principal_id = %(principal_id)s
       OR scope_covers(%(prefix)s, j.scope_path)
       OR j.turn_id = ANY(%(turns)s)
       OR j.document_id = ANY(%(documents)s)
       OR j.id IN (SELECT r.hold_judgement_id FROM memory_record r
                   WHERE r.context_id = %(context_id)s AND r.serving::text = 'erased'
                     AND r.hold_judgement_id IS NOT NULL
                     AND (r.id = ANY(%(ids)s) OR r.source_ref = ANY(%(turns)s))))

-- erasure_open --
-- Erasures that are queued or running, oldest first (recovery looks at them).
SELECT context_id, id FROM erasure
WHERE status IN ('queued', 'running') AND created_at < now() - make_interval(secs => %(older_than_s)s)
ORDER BY created_at
LIMIT 100

-- erasure_set_counts --
UPDATE erasure SET counts = counts || %(values)s::jsonb
WHERE context_id = %(context_id)s AND id = %(id)s
