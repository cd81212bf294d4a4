-- Background passes (passes/): runs, watermarks and each pass's inputs.
-- Every input query reads only what serves: live turns, processed documents none of whose
-- chunks is held, and records that pass the serving gate (memory_servable), so a pass never
-- builds on held, rejected, deleted, superseded or expired content.

-- passes_insert_run --
INSERT INTO pass_run (context_id, id, stage, trigger, requested_by)
VALUES (%(context_id)s, %(id)s, %(stage)s, %(trigger)s, %(requested_by)s)

-- passes_get_run --
SELECT id, stage, trigger, status, inputs, written, dropped, held, error_code, requested_by,
       created_at, started_at, finished_at
FROM pass_run
WHERE context_id = %(context_id)s AND id = %(id)s

-- passes_start_run --
-- Only a queued run starts; a second delivery of the same job finds it running or done.
UPDATE pass_run SET status = 'running', started_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s AND status = 'queued'
RETURNING id, stage, trigger

-- passes_finish_run --
UPDATE pass_run
SET status = %(status)s, inputs = %(inputs)s, written = %(written)s, dropped = %(dropped)s,
    held = %(held)s, error_code = %(error_code)s, finished_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s

-- passes_open_run --
-- A run of this stage not finished yet (queued or running): a trigger does not add another.
SELECT id FROM pass_run
WHERE context_id = %(context_id)s AND stage = %(stage)s AND status IN ('queued', 'running')
  AND trigger <> 'manual'
LIMIT 1

-- passes_watermarks --
SELECT unit, fingerprint FROM pass_watermark
WHERE context_id = %(context_id)s AND stage = %(stage)s

-- passes_set_watermark --
-- The time comes in with the row (EXCLUDED.updated_at): Citus evaluates now() in VALUES on
-- the coordinator but refuses it in DO UPDATE SET.
INSERT INTO pass_watermark (context_id, stage, unit, fingerprint, run_id, updated_at)
VALUES (%(context_id)s, %(stage)s, %(unit)s, %(fingerprint)s, %(run_id)s, now())
ON CONFLICT (context_id, stage, unit)
DO UPDATE SET fingerprint = EXCLUDED.fingerprint, run_id = EXCLUDED.run_id,
              updated_at = EXCLUDED.updated_at

-- passes_contexts --
-- Every Context with its configuration (for the triggers). Where each one's change feed
-- stands is asked per Context (passes_last_change): on Citus `context` is a reference table,
-- and a lateral join from it into a distributed table is refused.
SELECT c.id AS context_id, c.config
FROM context c
ORDER BY c.id

-- passes_last_change --
-- A Context's newest change-feed entry by the primary key (context_id, seq): one index probe.
SELECT e.seq, e.created_at AS last_change FROM change_event e
WHERE e.context_id = %(context_id)s
ORDER BY e.seq DESC
LIMIT 1

-- passes_idle_session_turns --
-- Live turns of sessions whose newest live turn is at least `idle_s` seconds old.
SELECT t.session_id, t.id, t.text, t.scope_path, t.visibility, t.owner_subject, t.created_at
FROM turn t
WHERE t.context_id = %(context_id)s AND t.serving = 'live'
  AND t.session_id IN (
      SELECT session_id FROM turn
      WHERE context_id = %(context_id)s AND serving = 'live'
      GROUP BY session_id
      HAVING max(created_at) <= now() - make_interval(secs => %(idle_s)s))
ORDER BY t.session_id, t.created_at, t.id

-- passes_turn_records --
-- The facts extracted from these turns that no later write replaced: the serving ones and
-- the held, rejected and deleted ones alike (a session summary made from the turns' text
-- must not serve while any of these does not). Superseded ones are left out: a correction
-- retires the old fact, not what the session said about it.
SELECT r.source_ref AS turn_id, r.id
FROM memory_record r
WHERE r.context_id = %(context_id)s AND r.source_kind = 'turn'
  AND r.source_ref = ANY(%(turn_ids)s::uuid[]) AND r.kind <> 'entity'
  AND r.serving <> 'superseded' AND r.superseded_by IS NULL
ORDER BY r.created_at, r.id

-- passes_merged_entity_facts --
-- An entity's serving attributes, relations and actions, from it or naming it (what a
-- merge carries to the survivor), oldest first.
SELECT r.id, r.kind, r.content, r.memory_category, r.entity_id, r.object_entity_id,
       r.scope_path, r.visibility, r.owner_subject
FROM memory_record r
WHERE r.context_id = %(context_id)s AND r.kind IN ('attribute', 'relation', 'action')
  AND (r.entity_id = %(entity_id)s OR r.object_entity_id = %(entity_id)s)
  AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at,
                      r.valid_to, r.derived_from, now())
ORDER BY r.created_at, r.id

-- passes_long_turns --
-- Live turns longer than one extraction window.
SELECT t.id, t.text, t.scope_path, t.visibility, t.owner_subject
FROM turn t
WHERE t.context_id = %(context_id)s AND t.serving = 'live' AND length(t.text) > %(min_chars)s
ORDER BY t.created_at, t.id

-- passes_documents --
-- Processed documents none of whose chunks is held or deleted.
SELECT d.id, d.filename, d.parsed_text, d.scope_path, d.visibility, d.owner_subject
FROM document d
WHERE d.context_id = %(context_id)s AND d.status = 'processed' AND d.parsed_text IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM chunk c
                  WHERE c.context_id = d.context_id AND c.document_id = d.id
                    AND c.serving <> 'live')
ORDER BY d.created_at, d.id

-- passes_set_document_gist --
UPDATE document SET gist = %(gist)s, updated_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s

-- passes_entity_facts --
-- Serving facts about serving entities, not themselves written by a pass (a summary never
-- summarises summaries), each with its entity.
SELECT e.id AS entity_id, e.content->>'name' AS entity_name, e.scope_path, e.visibility AS entity_visibility,
       e.owner_subject AS entity_owner, r.id, r.revision, r.kind, r.body, r.visibility,
       r.owner_subject
FROM memory_record r
JOIN memory_record e ON e.context_id = r.context_id AND e.id = r.entity_id
WHERE r.context_id = %(context_id)s
  AND r.kind IN ('attribute', 'relation', 'action')
  AND r.source_kind NOT IN ('consolidation', 'elaboration', 'rollup', 'gist')
  AND e.kind = 'entity'
  AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at,
                      r.valid_to, r.derived_from, now())
  AND memory_servable(e.context_id, e.serving, e.review_disposition, e.expires_at,
                      e.valid_to, e.derived_from, now())
ORDER BY e.id, r.created_at, r.id

-- passes_entities --
-- Serving entities with how many serving facts each has (consolidation's candidates).
SELECT e.id, e.content->>'name' AS name, e.norm_name,
       coalesce(e.content->>'entityType', 'other') AS entity_type, e.scope_path, e.visibility,
       e.owner_subject, e.revision, e.source_kind, e.created_at,
       (SELECT count(*) FROM memory_record f
        WHERE f.context_id = e.context_id AND f.entity_id = e.id AND f.serving = 'live')
           AS facts
FROM memory_record e
WHERE e.context_id = %(context_id)s AND e.kind = 'entity'
  AND e.source_kind NOT IN ('rollup', 'gist')
  AND memory_servable(e.context_id, e.serving, e.review_disposition, e.expires_at,
                      e.valid_to, e.derived_from, now())
ORDER BY e.created_at, e.id

-- passes_facts --
-- Serving facts for elaboration (not its own output), newest first.
SELECT r.id, r.revision, r.kind, r.body, r.scope_path, r.visibility, r.owner_subject
FROM memory_record r
WHERE r.context_id = %(context_id)s
  AND r.kind IN ('attribute', 'relation', 'action')
  AND r.source_kind NOT IN ('elaboration', 'rollup', 'gist')
  AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at,
                      r.valid_to, r.derived_from, now())
ORDER BY r.created_at DESC, r.id
LIMIT %(limit)s

-- passes_insert_conflict --
-- A pair consolidation is unsure of, for a reviewer (the hygiene queue, origin `pass`). A
-- pair already pending, or decided by a person, is not queued again (the guard index).
INSERT INTO conflict (context_id, id, record_a, record_b, verdict, confidence, status,
                      judge_model, origin, action)
VALUES (%(context_id)s, %(id)s, %(record_a)s, %(record_b)s, 'duplicate', %(confidence)s,
        'pending', %(judge_model)s, 'pass', 'queued')
ON CONFLICT (context_id, least(record_a, record_b), greatest(record_a, record_b))
    WHERE origin <> 'challenge' AND (status = 'pending' OR decided_by IS NOT NULL)
    DO NOTHING

-- passes_insert_merge --
-- A merge as an automatic resolution (`record_a`, the loser, merged into `record_b`), so that
-- the queue's resolved list shows it and `restore` undoes it.
INSERT INTO conflict (context_id, id, record_a, record_b, verdict, confidence, status,
                      judge_model, origin, action, loser, run_id, decided_at, resolved_at)
VALUES (%(context_id)s, %(id)s, %(record_a)s, %(record_b)s, 'duplicate', %(confidence)s,
        'resolved', %(judge_model)s, 'pass', 'auto_resolved', 'a', %(run_id)s, now(), now())

-- passes_decided_pairs --
-- Pairs a person decided (a resolution, or an undone merge): consolidation leaves them.
SELECT least(record_a, record_b) AS lo, greatest(record_a, record_b) AS hi
FROM conflict
WHERE context_id = %(context_id)s AND origin <> 'challenge' AND decided_by IS NOT NULL

-- passes_stale_runs --
-- Runs whose job was lost: queued longer than `queued_s` (a crash between the request's
-- commit and its enqueue), or running longer than `running_s` (a worker that died).
SELECT context_id, id, status FROM pass_run
WHERE (status = 'queued' AND created_at < now() - make_interval(secs => %(queued_s)s))
   OR (status = 'running' AND started_at < now() - make_interval(secs => %(running_s)s))
ORDER BY created_at
LIMIT 100

-- passes_interrupt_run --
UPDATE pass_run SET status = 'failed', error_code = 'interrupted', finished_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s AND status = 'running'

-- passes_attributes --
-- Serving attributes with their entity (consolidation's attribute candidates).
SELECT r.id, r.entity_id, r.attr_key, r.content->>'value' AS value, r.content->>'key' AS name,
       r.scope_path, r.visibility, r.owner_subject, r.revision, r.created_at
FROM memory_record r
WHERE r.context_id = %(context_id)s AND r.kind = 'attribute' AND r.entity_id IS NOT NULL
  AND r.source_kind NOT IN ('consolidation', 'elaboration', 'rollup', 'gist')
  AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at,
                      r.valid_to, r.derived_from, now())
ORDER BY r.entity_id, r.created_at, r.id
