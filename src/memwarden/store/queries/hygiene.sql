-- Memory hygiene (0014_hygiene.sql): candidate pairs, the review queue (`conflict`), judged
-- pairs, link edges, re-examination guards and hygiene runs. A record takes part only while
-- it is servable (memory_servable: held, rejected, deleted, expired and superseded records
-- never do), and only with an embedding of its current revision. Entities take no part in
-- a pair (names are consolidation's, which carries an entity's facts to its survivor).

-- hygiene_subject --
-- A scan subject with what adjudication and the cross-project filter read.
SELECT r.id, r.kind, r.body, r.content, r.scope_path, r.visibility, r.owner_subject,
       r.import_source_dir, r.provenance_rank, r.revision, r.attr_key,
       coalesce(e.norm_name, r.norm_name) AS entity_name, r.valid_from, r.modified_at
FROM memory_record r
LEFT JOIN memory_record e ON e.context_id = r.context_id AND e.id = r.entity_id
WHERE r.context_id = %(context_id)s AND r.id = ANY(%(ids)s)
  AND r.embedding IS NOT NULL AND r.embedding_revision = r.revision
  AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at, r.valid_to,
                      r.derived_from, now())

-- hygiene_pair_members --
-- A pending pair's sides as they stand now, served ones only, with or without a vector of
-- their current revision (a re-judge reads the text, not the vector).
SELECT r.id, r.kind, r.body, r.content, r.scope_path, r.visibility, r.owner_subject,
       r.import_source_dir, r.provenance_rank, r.revision, r.attr_key,
       coalesce(e.norm_name, r.norm_name) AS entity_name, r.valid_from, r.modified_at
FROM memory_record r
LEFT JOIN memory_record e ON e.context_id = r.context_id AND e.id = r.entity_id
WHERE r.context_id = %(context_id)s AND r.id = ANY(%(ids)s)
  AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at, r.valid_to,
                      r.derived_from, now())

-- hygiene_neighbours --
-- A subject's nearest live neighbours inside the band, in its owner's view (shared records
-- and the owner's own private ones), never a pair the queue holds pending or a person
-- decided. `judged_by`: the judge models that already looked at the pair at both sides'
-- current revisions. Exact scan of the Context's eligible rows (materialised, as search).
-- The correlated subquery binds the Context itself: Citus routes a statement only when
-- every table in it is pinned, and does not carry r's pin into a subquery.
WITH s AS (
    SELECT id, embedding, owner_subject FROM memory_record
    WHERE context_id = %(context_id)s AND id = %(id)s AND embedding IS NOT NULL
), eligible AS MATERIALIZED (
    SELECT r.id, r.embedding <=> s.embedding AS distance
    FROM memory_record r, s
    WHERE r.context_id = %(context_id)s AND r.id <> s.id AND r.kind <> 'entity'
      AND r.embedding IS NOT NULL AND r.embedding_revision = r.revision
      AND (r.visibility = 'shared' OR r.owner_subject = s.owner_subject)
      AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at,
                          r.valid_to, r.derived_from, now())
), near AS (
    SELECT id, 1 - distance AS similarity FROM eligible
    WHERE 1 - distance BETWEEN %(band_low)s AND %(band_high)s
    ORDER BY distance, id
    LIMIT %(limit)s
)
SELECT r.id, r.kind, r.body, r.content, r.scope_path, r.visibility, r.owner_subject,
       r.import_source_dir, r.provenance_rank, r.revision, r.attr_key,
       coalesce(e.norm_name, r.norm_name) AS entity_name, r.valid_from, r.modified_at,
       n.similarity,
       coalesce((SELECT array_agg(j.judge_model) FROM hygiene_judged j, memory_record me
                 WHERE j.context_id = %(context_id)s
                   AND j.record_lo = least(r.id, %(id)s) AND j.record_hi = greatest(r.id, %(id)s)
                   AND me.context_id = %(context_id)s AND me.id = %(id)s
                   AND j.revision_lo = CASE WHEN r.id < %(id)s THEN r.revision ELSE me.revision END
                   AND j.revision_hi = CASE WHEN r.id < %(id)s THEN me.revision ELSE r.revision END),
                '{}') AS judged_by
FROM near n
JOIN memory_record r ON r.context_id = %(context_id)s AND r.id = n.id
LEFT JOIN memory_record e ON e.context_id = r.context_id AND e.id = r.entity_id
WHERE NOT EXISTS (
    SELECT 1 FROM conflict c
    WHERE c.context_id = %(context_id)s AND c.origin <> 'challenge'
      AND least(c.record_a, c.record_b) = least(r.id, %(id)s)
      AND greatest(c.record_a, c.record_b) = greatest(r.id, %(id)s)
      AND (c.status = 'pending' OR c.decided_by IS NOT NULL))
ORDER BY n.similarity DESC, r.id

-- hygiene_write_candidates --
-- A write's supersede candidates in one statement. Subjects: the first `max_subjects` of
-- the write's records (in the order given) that are scan subjects (hygiene_subject's
-- filter) and not of the `skipped` kinds. For each, its `limit` nearest live neighbours in
-- the band and its owner's view, never a pair the queue holds pending or a person decided:
-- hygiene_neighbours' answer, without `judged_by`. One pass over the Context's eligible
-- rows serves every subject (the serving gate runs once per row, each row's distance to
-- every subject computed in the lateral subquery; OFFSET 0 keeps it per row). The caller
-- applies the cross-project filter, so each row names its subject's provenance too.
WITH s AS MATERIALIZED (
    SELECT x.ord, r.id, r.embedding, r.owner_subject, r.scope_path, r.visibility,
           r.import_source_dir
    FROM unnest(%(ids)s::uuid[]) WITH ORDINALITY AS x(id, ord)
    JOIN memory_record r ON r.context_id = %(context_id)s AND r.id = x.id
    WHERE r.embedding IS NOT NULL AND r.embedding_revision = r.revision
      AND r.kind <> ALL(%(skipped)s::text[])
      AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at,
                          r.valid_to, r.derived_from, now())
    ORDER BY x.ord
    LIMIT %(max_subjects)s
), scored AS MATERIALIZED (
    SELECT d.subject_id, r.id, d.distance
    FROM memory_record r
    CROSS JOIN LATERAL (
        SELECT s.id AS subject_id, r.embedding <=> s.embedding AS distance
        FROM s
        WHERE s.id <> r.id AND (r.visibility = 'shared' OR r.owner_subject = s.owner_subject)
        OFFSET 0
    ) d
    WHERE r.context_id = %(context_id)s
      AND r.embedding IS NOT NULL AND r.embedding_revision = r.revision
      AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at,
                          r.valid_to, r.derived_from, now())
      AND 1 - d.distance BETWEEN %(band_low)s AND %(band_high)s
), near AS (
    SELECT subject_id, id, 1 - distance AS similarity,
           row_number() OVER (PARTITION BY subject_id ORDER BY distance, id) AS rank
    FROM scored
)
SELECT s.id AS subject_id, s.scope_path AS subject_scope_path,
       s.owner_subject AS subject_owner_subject, s.visibility AS subject_visibility,
       s.import_source_dir AS subject_import_source_dir,
       r.id, r.kind, r.body, r.scope_path, r.owner_subject, r.visibility, r.import_source_dir,
       n.similarity
FROM near n
JOIN s ON s.id = n.subject_id
JOIN memory_record r ON r.context_id = %(context_id)s AND r.id = n.id
WHERE n.rank <= %(limit)s
  AND NOT EXISTS (
    SELECT 1 FROM conflict c
    WHERE c.context_id = %(context_id)s AND c.origin <> 'challenge'
      AND least(c.record_a, c.record_b) = least(r.id, s.id)
      AND greatest(c.record_a, c.record_b) = greatest(r.id, s.id)
      AND (c.status = 'pending' OR c.decided_by IS NOT NULL))
ORDER BY s.ord, n.similarity DESC, r.id

-- hygiene_recent_subjects --
-- The ordinary sweep's subjects: live records changed after the last full run's watermark,
-- oldest first, so a capped run's leftovers lead the next one (entities are not subjects).
SELECT r.id, r.modified_at
FROM memory_record r
WHERE r.context_id = %(context_id)s AND r.kind <> 'entity'
  AND r.embedding IS NOT NULL AND r.embedding_revision = r.revision
  AND (%(since)s::timestamptz IS NULL OR (r.modified_at, r.id) > (%(since)s, %(since_id)s))
  AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at, r.valid_to,
                      r.derived_from, now())
ORDER BY r.modified_at, r.id
LIMIT %(limit)s

-- hygiene_reexamine_subjects --
-- Live records recall returned at least `min_hits` times within the window that the judge
-- of their own path has not examined yet, most-recalled first.
SELECT r.id, sum(t.hits)::bigint AS hits, r.provenance_rank
FROM recall_event t
JOIN memory_record r ON r.context_id = t.context_id AND r.id = t.record_id
WHERE t.context_id = %(context_id)s AND t.day >= current_date - %(window_days)s::int
  AND r.kind <> 'entity'
  AND r.embedding IS NOT NULL AND r.embedding_revision = r.revision
  AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at, r.valid_to,
                      r.derived_from, now())
  AND NOT EXISTS (
      SELECT 1 FROM reexamination_guard g
      WHERE g.context_id = r.context_id AND g.record_id = r.id
        AND g.judge_model = CASE WHEN r.provenance_rank >= 2 THEN %(adjudication_model)s
                                 ELSE %(hygiene_model)s END)
GROUP BY r.id, r.provenance_rank
HAVING sum(t.hits) >= %(min_hits)s
ORDER BY sum(t.hits) DESC, r.id
LIMIT %(limit)s

-- hygiene_guard --
-- The time comes in with the row (excluded.examined_at): Citus evaluates now() in VALUES on
-- the coordinator but refuses it in DO UPDATE SET.
INSERT INTO reexamination_guard (context_id, record_id, judge_model, examined_at)
VALUES (%(context_id)s, %(record_id)s, %(judge_model)s, now())
ON CONFLICT (context_id, record_id, judge_model) DO UPDATE SET examined_at = excluded.examined_at

-- hygiene_judged --
-- judged_at comes in with the row, as in hygiene_guard (Citus).
INSERT INTO hygiene_judged (context_id, record_lo, record_hi, judge_model, revision_lo,
                            revision_hi, verdict, judged_at)
VALUES (%(context_id)s, %(record_lo)s, %(record_hi)s, %(judge_model)s, %(revision_lo)s,
        %(revision_hi)s, %(verdict)s, now())
ON CONFLICT (context_id, record_lo, record_hi, judge_model) DO UPDATE
SET revision_lo = excluded.revision_lo, revision_hi = excluded.revision_hi,
    verdict = excluded.verdict, judged_at = excluded.judged_at

-- hygiene_link --
INSERT INTO memory_link (context_id, record_lo, record_hi, confidence, judge_model)
VALUES (%(context_id)s, %(record_lo)s, %(record_hi)s, %(confidence)s, %(judge_model)s)
ON CONFLICT (context_id, record_lo, record_hi) DO UPDATE
SET confidence = excluded.confidence, judge_model = excluded.judge_model
RETURNING (xmax = 0) AS created

-- hygiene_links_of --
SELECT record_lo, record_hi, kind, confidence, judge_model, created_at
FROM memory_link
WHERE context_id = %(context_id)s AND (record_lo = %(id)s OR record_hi = %(id)s)
ORDER BY created_at, record_lo, record_hi

-- hygiene_insert_conflict --
-- A pair already pending, or decided by a person, is never queued again (the guard index).
INSERT INTO conflict (context_id, id, record_a, record_b, verdict, superseding, confidence,
                      similarity, status, judge_model, origin, judging_path, action, loser,
                      run_id, revision_a, revision_b, reason, decided_at)
VALUES (%(context_id)s, %(id)s, %(record_a)s, %(record_b)s, %(verdict)s, %(superseding)s,
        %(confidence)s, %(similarity)s, %(status)s, %(judge_model)s, %(origin)s,
        %(judging_path)s, %(action)s, %(loser)s, %(run_id)s, %(revision_a)s, %(revision_b)s,
        %(reason)s, CASE WHEN %(status)s = 'pending' THEN NULL ELSE now() END)
ON CONFLICT (context_id, least(record_a, record_b), greatest(record_a, record_b))
    WHERE origin <> 'challenge' AND (status = 'pending' OR decided_by IS NOT NULL)
    DO NOTHING
RETURNING id

-- hygiene_pending_challenge --
SELECT id FROM conflict
WHERE context_id = %(context_id)s AND origin = 'challenge' AND record_a = %(record_id)s
  AND status = 'pending'

-- hygiene_queue --
-- Queue items, newest first (ids are time-ordered), with both memories whatever their state;
-- only items whose both memories the caller's review grants cover (memory_readable: the
-- prefixes, and private records only for their owner).
SELECT c.id, c.record_a, c.record_b, c.verdict, c.superseding, c.confidence, c.similarity,
       c.status, c.resolution, c.judge_model, c.origin, c.judging_path, c.action, c.reason,
       c.revision_a, c.revision_b, c.decided_by, c.decided_at, c.created_at,
       c.dismissed_because, c.restored_at,
       a.kind AS a_kind, a.body AS a_body, a.content AS a_content, a.scope_path AS a_scope_path,
       a.visibility AS a_visibility, a.owner_subject AS a_owner, a.revision AS a_revision,
       a.serving::text AS a_serving, a.source_kind AS a_source_kind,
       a.provenance_rank AS a_rank, a.import_source_dir AS a_import_source_dir,
       b.kind AS b_kind, b.body AS b_body, b.content AS b_content, b.scope_path AS b_scope_path,
       b.visibility AS b_visibility, b.owner_subject AS b_owner, b.revision AS b_revision,
       b.serving::text AS b_serving, b.source_kind AS b_source_kind,
       b.provenance_rank AS b_rank, b.import_source_dir AS b_import_source_dir
FROM conflict c
JOIN memory_record a ON a.context_id = c.context_id AND a.id = c.record_a
JOIN memory_record b ON b.context_id = c.context_id AND b.id = c.record_b
WHERE c.context_id = %(context_id)s
  AND (%(status)s::text IS NULL OR c.status = %(status)s::text)
  AND (c.action IS NULL OR c.action IN ('queued', 'auto_resolved'))
  AND (%(id)s::uuid IS NULL OR c.id = %(id)s::uuid)
  AND (%(before)s::uuid IS NULL OR c.id < %(before)s::uuid)
  AND memory_readable(a.scope_path, a.visibility, a.owner_subject, %(prefixes)s::text[],
                      %(subject)s)
  AND memory_readable(b.scope_path, b.visibility, b.owner_subject, %(prefixes)s::text[],
                      %(subject)s)
ORDER BY c.id DESC
LIMIT %(limit)s

-- hygiene_lock_conflict --
SELECT id, record_a, record_b, status, verdict, superseding, origin, action
FROM conflict
WHERE context_id = %(context_id)s AND id = %(id)s
FOR UPDATE

-- hygiene_decide_conflict --
UPDATE conflict
SET status = %(status)s, resolution = %(resolution)s, decided_by = %(decided_by)s,
    decided_at = now(), resolved_at = now(), dismissed_because = %(dismissed_because)s
WHERE context_id = %(context_id)s AND id = %(id)s AND status = 'pending'
RETURNING id

-- hygiene_lock_auto_resolution --
-- The newest automatic resolution that superseded this record, not yet undone: a scan's, or
-- a consolidation merge (`origin` 'pass').
SELECT c.id, c.record_a, c.record_b, c.loser, c.origin
FROM conflict c
WHERE c.context_id = %(context_id)s AND c.action = 'auto_resolved' AND c.restored_at IS NULL
  AND ((c.loser = 'a' AND c.record_a = %(record_id)s)
       OR (c.loser = 'b' AND c.record_b = %(record_id)s))
ORDER BY c.id DESC
LIMIT 1
FOR UPDATE

-- hygiene_auto_resolution --
-- hygiene_lock_auto_resolution without the lock (what a restore reads before it embeds).
SELECT c.id, c.record_a, c.record_b, c.loser, c.origin
FROM conflict c
WHERE c.context_id = %(context_id)s AND c.action = 'auto_resolved' AND c.restored_at IS NULL
  AND ((c.loser = 'a' AND c.record_a = %(record_id)s)
       OR (c.loser = 'b' AND c.record_b = %(record_id)s))
ORDER BY c.id DESC
LIMIT 1

-- hygiene_settle_pending_pair --
-- A pair's pending row, moot once a person decides the pair another way (an undone
-- resolution): dismissed, so that the decision can take the pair's guard.
UPDATE conflict c
SET status = 'dismissed', dismissed_because = 'stale', decided_at = now(), resolved_at = now()
FROM conflict d
WHERE d.context_id = %(context_id)s AND d.id = %(id)s
  AND c.context_id = d.context_id AND c.id <> d.id AND c.status = 'pending'
  AND c.origin <> 'challenge'
  AND least(c.record_a, c.record_b) = least(d.record_a, d.record_b)
  AND greatest(c.record_a, c.record_b) = greatest(d.record_a, d.record_b)
RETURNING c.id

-- hygiene_mark_restored --
-- An undone resolution counts as a person's decision: the pair is never auto-resolved again.
UPDATE conflict
SET restored_at = now(), resolution = 'keep_both', decided_by = %(decided_by)s,
    decided_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s

-- hygiene_restore_record --
-- Back to live, validity reopened, a new revision (its vector is written by the caller).
UPDATE memory_record
SET serving = 'live', valid_to = NULL, superseded_by = NULL, revision = revision + 1,
    embedding = NULL, embedding_revision = NULL, modified_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s AND serving = 'superseded'
RETURNING id, revision, kind, content, body

-- hygiene_record_for_restore --
SELECT id, revision, kind, content, body, serving::text AS serving, scope_path, visibility,
       owner_subject
FROM memory_record
WHERE context_id = %(context_id)s AND id = %(id)s

-- hygiene_stale_sweep --
-- Pending pairs where a side is no longer served (superseded, merged, resolved elsewhere,
-- deleted, rejected, expired) are moot: dismissed, no model involved. The serving gate runs
-- in a CTE: Citus refuses a STABLE function of columns in an UPDATE itself.
WITH stale AS (
    SELECT c.id
    FROM conflict c
    JOIN memory_record a ON a.context_id = c.context_id AND a.id = c.record_a
    JOIN memory_record b ON b.context_id = c.context_id AND b.id = c.record_b
    WHERE c.context_id = %(context_id)s AND c.status = 'pending'
      AND NOT (memory_servable(a.context_id, a.serving, a.review_disposition, a.expires_at,
                               a.valid_to, a.derived_from, now())
               AND memory_servable(b.context_id, b.serving, b.review_disposition, b.expires_at,
                                   b.valid_to, b.derived_from, now()))
)
UPDATE conflict c
SET status = 'dismissed', dismissed_because = 'stale', decided_at = now(),
    resolved_at = now()
WHERE c.context_id = %(context_id)s AND c.status = 'pending'
  AND c.id IN (SELECT id FROM stale)
RETURNING c.id

-- hygiene_pending_pairs --
-- Pending pairs a scan queued, which a re-judge pass looks at again (challenges and the
-- passes' rows are a person's to settle).
SELECT c.id, c.record_a, c.record_b
FROM conflict c
WHERE c.context_id = %(context_id)s AND c.status = 'pending' AND c.origin = 'scan'
ORDER BY c.id
LIMIT %(limit)s

-- hygiene_pending_provenance --
-- Every pending pair (challenges aside) with what the cross-project filter reads of both
-- sides, for the stale sweep.
SELECT c.id, a.scope_path AS a_scope_path, a.owner_subject AS a_owner,
       a.import_source_dir AS a_import_source_dir, b.scope_path AS b_scope_path,
       b.owner_subject AS b_owner, b.import_source_dir AS b_import_source_dir
FROM conflict c
JOIN memory_record a ON a.context_id = c.context_id AND a.id = c.record_a
JOIN memory_record b ON b.context_id = c.context_id AND b.id = c.record_b
WHERE c.context_id = %(context_id)s AND c.status = 'pending' AND c.origin <> 'challenge'
ORDER BY c.id

-- hygiene_dismiss_pending --
UPDATE conflict
SET status = 'dismissed', dismissed_because = %(because)s, decided_at = now(),
    resolved_at = now()
WHERE context_id = %(context_id)s AND id = ANY(%(ids)s) AND status = 'pending'
RETURNING id

-- hygiene_rejudged --
-- A re-judge's verdict on an item it leaves pending, with the revisions it judged.
UPDATE conflict
SET verdict = %(verdict)s, superseding = %(superseding)s, confidence = %(confidence)s,
    judge_model = %(judge_model)s, judging_path = %(judging_path)s,
    revision_a = %(revision_a)s, revision_b = %(revision_b)s
WHERE context_id = %(context_id)s AND id = %(id)s AND status = 'pending'

-- hygiene_insert_run --
INSERT INTO hygiene_run (context_id, id, kind, rejudge, subjects, requested_by)
VALUES (%(context_id)s, %(id)s, %(kind)s, %(rejudge)s, %(subjects)s::uuid[], %(requested_by)s)
ON CONFLICT (context_id) WHERE kind <> 'write' AND status IN ('queued', 'running') DO NOTHING
RETURNING id

-- hygiene_active_run --
SELECT id FROM hygiene_run
WHERE context_id = %(context_id)s AND kind <> 'write' AND status IN ('queued', 'running')

-- hygiene_get_run --
SELECT id, kind, rejudge, status, subjects, requested_by, counts, error, created_at,
       started_at, finished_at, watermark, watermark_id
FROM hygiene_run
WHERE context_id = %(context_id)s AND id = %(id)s

-- hygiene_start_run --
UPDATE hygiene_run SET status = 'running', started_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s AND status = 'queued'
RETURNING id

-- hygiene_progress_run --
UPDATE hygiene_run SET counts = %(counts)s
WHERE context_id = %(context_id)s AND id = %(id)s

-- hygiene_finish_run --
UPDATE hygiene_run
SET status = %(status)s, counts = %(counts)s, error = %(error)s, finished_at = now(),
    watermark = %(watermark)s, watermark_id = %(watermark_id)s, owed = %(owed)s::uuid[]
WHERE context_id = %(context_id)s AND id = %(id)s

-- hygiene_last_owed --
-- The subjects the last finished full cycle (done or failed) left pairs unrecorded for.
SELECT owed FROM hygiene_run
WHERE context_id = %(context_id)s AND kind <> 'write' AND status IN ('done', 'failed')
ORDER BY finished_at DESC, id DESC
LIMIT 1

-- hygiene_last_watermark --
-- Where the last finished full cycle's ordinary sweep stopped.
SELECT watermark, watermark_id FROM hygiene_run
WHERE context_id = %(context_id)s AND kind <> 'write' AND status = 'done'
  AND watermark IS NOT NULL
ORDER BY finished_at DESC, id DESC
LIMIT 1

-- hygiene_merge_retired --
-- What a consolidation merge of `gone` retired besides `gone` itself, to undo on restore:
-- the facts from or naming `gone` that the pass superseded (by their restatement on the
-- survivor, or by nothing when the survivor held them already), and the facts those
-- restatements or the merge's `aliases` superseded in turn; only records whose last
-- revision is the pass's supersede. `by_pass`: the record's `superseded_by` is one of the
-- pass's own records (a restatement, retired by the undo).
WITH own AS (
    SELECT f.id, f.superseded_by FROM memory_record f
    WHERE f.context_id = %(context_id)s AND f.serving = 'superseded'
      AND f.kind IN ('attribute', 'relation', 'action')
      AND (f.entity_id = %(gone)s OR f.object_entity_id = %(gone)s)
), carried AS (
    SELECT c.id FROM own o
    JOIN memory_record c ON c.context_id = %(context_id)s AND c.id = o.superseded_by
    WHERE c.source_kind = 'consolidation'
    UNION
    SELECT unnest(%(aliases)s::uuid[])
), touched AS (
    SELECT id FROM own
    UNION
    SELECT f.id FROM memory_record f
    WHERE f.context_id = %(context_id)s AND f.serving = 'superseded'
      AND f.superseded_by IN (SELECT id FROM carried)
)
SELECT f.id, f.kind, f.content, f.body, f.superseded_by,
       coalesce(f.superseded_by IN (SELECT id FROM carried), false) AS by_pass
FROM touched t
JOIN memory_record f ON f.context_id = %(context_id)s AND f.id = t.id
WHERE (SELECT v.op = 'supersede' AND v.actor_subject = 'pass:consolidation'
       FROM memory_revision v
       WHERE v.context_id = f.context_id AND v.record_id = f.id
       ORDER BY v.revision DESC LIMIT 1)
ORDER BY f.id

-- hygiene_merge_aliases --
-- The live `also_known_as` attributes a merge gave the survivor naming the merged-away one.
SELECT a.id FROM memory_record a
JOIN memory_record g ON g.context_id = a.context_id AND g.id = %(gone)s
WHERE a.context_id = %(context_id)s AND a.kind = 'attribute' AND a.entity_id = %(survivor)s
  AND a.source_kind = 'consolidation' AND a.content->>'key' = 'also_known_as'
  AND a.content->>'value' = g.content->>'name' AND a.serving = 'live'
ORDER BY a.id
