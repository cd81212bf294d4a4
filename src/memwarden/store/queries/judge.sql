-- insert_judgement --
INSERT INTO judgement (context_id, id, gate, verdict, reasons, source, scope_path, visibility,
                       excerpt, row_count, principal_id, key_id, turn_id, document_id, held)
VALUES (%(context_id)s, %(id)s, %(gate)s, %(verdict)s, %(reasons)s, %(source)s, %(scope_path)s,
        %(visibility)s, %(excerpt)s, %(row_count)s, %(principal_id)s, %(key_id)s, %(turn_id)s,
        %(document_id)s, %(held)s)

-- insert_retained_input --
INSERT INTO retained_input (context_id, judgement_id, route, payload, principal_id, key_id,
                            expires_at)
VALUES (%(context_id)s, %(judgement_id)s, %(route)s, %(payload)s, %(principal_id)s, %(key_id)s,
        %(expires_at)s)

-- list_judgements --
-- Newest first by id (UUIDv7, time-ordered); the cursor is the last id of the previous page.
SELECT j.*, (r.judgement_id IS NOT NULL) AS retained
FROM judgement j
LEFT JOIN retained_input r
  ON r.context_id = j.context_id AND r.judgement_id = j.id AND r.consumed_at IS NULL
 AND (r.expires_at IS NULL OR r.expires_at > now())
WHERE j.context_id = %(context_id)s
  AND (%(verdict)s::text IS NULL OR j.verdict = %(verdict)s::text)
  AND (%(gate)s::text IS NULL OR j.gate = %(gate)s::text)
  AND (%(held)s::boolean IS NULL
       OR (j.held AND j.hold_decision IS NULL) = %(held)s::boolean)
  AND (%(source)s::text IS NULL OR j.source = %(source)s::text)
  AND (%(before)s::uuid IS NULL OR j.id < %(before)s::uuid)
ORDER BY j.id DESC
LIMIT %(limit)s

-- get_judgement --
SELECT j.*, (r.judgement_id IS NOT NULL) AS retained
FROM judgement j
LEFT JOIN retained_input r
  ON r.context_id = j.context_id AND r.judgement_id = j.id AND r.consumed_at IS NULL
 AND (r.expires_at IS NULL OR r.expires_at > now())
WHERE j.context_id = %(context_id)s AND j.id = %(id)s

-- lock_judgement --
SELECT * FROM judgement WHERE context_id = %(context_id)s AND id = %(id)s FOR UPDATE

-- set_judgement_override --
-- A later override records its verdict; an entry once ingested stays `ingested`.
UPDATE judgement
SET override_verdict = %(verdict)s, override_subject = %(subject)s, overridden_at = now(),
    replay_state = CASE WHEN replay_state = 'ingested' THEN replay_state
                        ELSE %(replay_state)s END
WHERE context_id = %(context_id)s AND id = %(id)s

-- lock_retained_input --
-- A replay ingests at most once: the row stays locked until it is marked consumed.
SELECT * FROM retained_input
WHERE context_id = %(context_id)s AND judgement_id = %(id)s
  AND consumed_at IS NULL AND (expires_at IS NULL OR expires_at > now())
FOR UPDATE

-- peek_retained_input --
-- What a replay prepares before its transaction; lock_retained_input decides in it.
SELECT * FROM retained_input
WHERE context_id = %(context_id)s AND judgement_id = %(id)s
  AND consumed_at IS NULL AND (expires_at IS NULL OR expires_at > now())

-- consume_retained_input --
UPDATE retained_input SET consumed_at = now()
WHERE context_id = %(context_id)s AND judgement_id = %(id)s AND consumed_at IS NULL

-- decide_hold --
UPDATE judgement SET hold_decision = %(decision)s, hold_decided_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s AND held AND hold_decision IS NULL
RETURNING *

-- held_records --
-- What an approval embeds before its transaction (a held record has no vector): the
-- records held under the judgement, and the held entities they name (release_named_entities).
SELECT id, kind, revision, content, body FROM memory_record e
WHERE e.context_id = %(context_id)s AND e.serving = 'held'
  AND (e.hold_judgement_id = %(id)s
       OR (e.kind = 'entity' AND EXISTS (
             SELECT 1 FROM memory_record r
             WHERE r.context_id = e.context_id AND r.hold_judgement_id = %(id)s
               AND r.serving = 'held' AND (r.entity_id = e.id OR r.object_entity_id = e.id))))

-- release_held_turns --
UPDATE turn SET serving = 'live'
WHERE context_id = %(context_id)s AND hold_judgement_id = %(id)s AND serving = 'held'

-- release_held_chunks --
UPDATE chunk SET serving = 'live'
WHERE context_id = %(context_id)s AND hold_judgement_id = %(id)s AND serving = 'held'

-- release_held_records --
-- Released as they are: nothing they would have replaced is retired here.
UPDATE memory_record
SET serving = 'live', revision = revision + 1, embedding = NULL, embedding_revision = NULL,
    modified_at = now()
WHERE context_id = %(context_id)s AND hold_judgement_id = %(id)s AND serving = 'held'
RETURNING id, kind, revision, content, body

-- release_named_entities --
-- After release_held_records: a held entity that a released record names (held under
-- another row's judgement of the same write) is released too, so no live fact hangs off
-- a hidden entity.
UPDATE memory_record e
SET serving = 'live', revision = revision + 1, embedding = NULL, embedding_revision = NULL,
    modified_at = now()
WHERE e.context_id = %(context_id)s AND e.kind = 'entity' AND e.serving = 'held'
  AND EXISTS (SELECT 1 FROM memory_record r
              WHERE r.context_id = e.context_id AND r.hold_judgement_id = %(id)s
                AND r.serving = 'live' AND (r.entity_id = e.id OR r.object_entity_id = e.id))
RETURNING id, kind, revision, content, body

-- remove_held_turns --
DELETE FROM turn
WHERE context_id = %(context_id)s AND hold_judgement_id = %(id)s AND serving = 'held'

-- remove_held_chunks --
DELETE FROM chunk
WHERE context_id = %(context_id)s AND hold_judgement_id = %(id)s AND serving = 'held'

-- remove_held_records --
-- Every held record but entities; their revisions and vectors go with them (ON DELETE
-- CASCADE). Entities follow (relink_held_entities, remove_held_entities).
DELETE FROM memory_record
WHERE context_id = %(context_id)s AND hold_judgement_id = %(id)s AND serving = 'held'
  AND kind <> 'entity'
RETURNING id, kind, revision, content, body

-- relink_held_entities --
-- After remove_held_records: a held entity the rejected hold kept hidden that another
-- hold's record still names moves under that hold, which releases or removes it.
UPDATE memory_record e
SET hold_judgement_id = (
    SELECT r.hold_judgement_id FROM memory_record r
    WHERE r.context_id = e.context_id AND r.serving = 'held' AND r.kind <> 'entity'
      AND (r.entity_id = e.id OR r.object_entity_id = e.id)
    ORDER BY r.id LIMIT 1)
WHERE e.context_id = %(context_id)s AND e.hold_judgement_id = %(id)s
  AND e.kind = 'entity' AND e.serving = 'held'
  AND EXISTS (SELECT 1 FROM memory_record r
              WHERE r.context_id = e.context_id AND r.serving = 'held' AND r.kind <> 'entity'
                AND (r.entity_id = e.id OR r.object_entity_id = e.id))

-- remove_held_entities --
-- The rejected hold's entities that no record names any more.
DELETE FROM memory_record e
WHERE e.context_id = %(context_id)s AND e.hold_judgement_id = %(id)s
  AND e.kind = 'entity' AND e.serving = 'held'
  AND NOT EXISTS (SELECT 1 FROM memory_record r
                  WHERE r.context_id = e.context_id
                    AND (r.entity_id = e.id OR r.object_entity_id = e.id))
RETURNING id, kind, revision, content, body

-- judgements_by_ids --
SELECT * FROM judgement WHERE context_id = %(context_id)s AND id = ANY(%(ids)s::uuid[])

-- judgements_for_dry_run --
-- The newest `limit` input-gate entries of the verdicts (what a dry run tests), and the
-- row-gate entries among them (listed as skipped, at most `max_skipped`; not counted).
WITH tested AS (
    SELECT * FROM judgement
    WHERE context_id = %(context_id)s AND verdict = ANY(%(verdicts)s::text[])
      AND gate = 'input'
    ORDER BY id DESC
    LIMIT %(limit)s
), skipped AS (
    SELECT * FROM judgement j
    WHERE j.context_id = %(context_id)s AND j.verdict = ANY(%(verdicts)s::text[])
      AND j.gate <> 'input'
      AND ((SELECT count(*) FROM tested) < %(limit)s
           OR j.id > (SELECT t.id FROM tested t ORDER BY t.id LIMIT 1))
    ORDER BY j.id DESC
    LIMIT %(max_skipped)s
)
SELECT * FROM tested
UNION ALL
SELECT * FROM skipped
ORDER BY id DESC
