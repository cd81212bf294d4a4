-- A record's history for its review page: revisions and change events (ids, operations,
-- actors and times; no content).

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
