-- Chat and reflection reads. Memory records are served only through memory_servable (the
-- gate every read shares), scoped by context_id and memory_readable (the reader's prefixes
-- and private ownership).

-- chat_memory_version --
-- The Context's latest change-feed position: every record write, supersede, review decision
-- and hold decision appends to the feed, so any memory change moves this number.
SELECT coalesce(max(seq), 0)::bigint AS version
FROM change_event
WHERE context_id = %(context_id)s

-- chat_servable_ids --
-- Which of the given records the reader may still be served now (a cached answer's check).
SELECT r.id
FROM memory_record r
WHERE r.context_id = %(context_id)s AND r.id = ANY(%(ids)s::uuid[])
  AND memory_readable(r.scope_path, r.visibility, r.owner_subject, %(prefixes)s::text[],
                      %(subject)s)
  AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at, r.valid_to,
                      r.derived_from, now())

-- reflect_recent_memories --
-- The newest servable records the reader may see, entities aside (a name alone says little).
SELECT r.id, r.kind, r.body, r.visibility, r.created_at
FROM memory_record r
WHERE r.context_id = %(context_id)s AND r.kind <> 'entity'
  AND memory_readable(r.scope_path, r.visibility, r.owner_subject, %(prefixes)s::text[],
                      %(subject)s)
  AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at, r.valid_to,
                      r.derived_from, now())
ORDER BY r.created_at DESC, r.id DESC
LIMIT %(limit)s
