-- A record's history: its revisions and change events (ids, operations, causes, actors,
-- validity and times; never content, so an erased record reads the same as any other).

-- record_revisions --
SELECT revision, op, actor_subject, created_at
FROM memory_revision
WHERE context_id = %(context_id)s AND record_id = %(record_id)s
ORDER BY revision DESC
LIMIT %(limit)s;

-- record_change_events --
SELECT seq, revision, kind, entry_type, created_at
FROM change_event
WHERE context_id = %(context_id)s AND record_id = %(record_id)s
ORDER BY seq DESC
LIMIT %(limit)s;

-- record_history_head --
-- Who may see the history (scope, visibility, owner, serving) and what it is about; the
-- speaker of the turn the record was extracted from, when there is one.
SELECT r.id, r.kind, r.scope_path, r.visibility, r.owner_subject,
       r.serving::text AS serving, r.author_subject, r.source_kind, t.speaker,
       r.valid_from, r.valid_to, r.superseded_by, r.created_at, r.revision
FROM memory_record r
LEFT JOIN turn t
  ON r.source_kind = 'turn' AND t.context_id = r.context_id AND t.id = r.source_ref
WHERE r.context_id = %(context_id)s AND r.id = %(record_id)s;

-- record_history_page --
-- Newest first, below the cursor's revision; `until`: when the next revision replaced
-- this one (NULL for the current revision). One row more than the page says if there is
-- another.
SELECT v.revision, v.op, v.cause, v.actor_subject, v.created_at,
       (SELECT w.created_at FROM memory_revision w
        WHERE w.context_id = v.context_id AND w.record_id = v.record_id
          AND w.revision > v.revision
        ORDER BY w.revision LIMIT 1) AS until,
       v.valid_from, v.valid_to, v.replaced_by, v.content IS NULL AS content_free
FROM memory_revision v
WHERE v.context_id = %(context_id)s AND v.record_id = %(record_id)s
  AND (%(before)s::int IS NULL OR v.revision < %(before)s::int)
ORDER BY v.revision DESC
LIMIT %(limit)s;
