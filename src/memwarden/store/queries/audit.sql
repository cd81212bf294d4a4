-- insert_audit_event --
INSERT INTO audit_event (context_id, id, actor_subject, key_id, action, target_kind, target_id)
VALUES (%(context_id)s, %(id)s, %(actor_subject)s, %(key_id)s, %(action)s, %(target_kind)s,
        %(target_id)s)

-- list_audit_events --
SELECT id, actor_subject, key_id, action, target_kind, target_id, created_at
FROM audit_event
WHERE context_id = %(context_id)s AND (%(before)s::uuid IS NULL OR id < %(before)s::uuid)
  AND (%(action)s::text IS NULL OR starts_with(action, %(action)s::text))
ORDER BY id DESC
LIMIT %(limit)s

-- insert_change_event --
-- Each Context counts its own feed (0013): the next number after its largest, read under
-- `lock_change_feed`, which every writer takes first, so numbers follow commit order and
-- have no gaps. (context_id, seq) is the key: the max is one backward index step.
INSERT INTO change_event (context_id, seq, record_id, revision, kind, entry_type)
SELECT %(context_id)s,
       coalesce((SELECT max(seq) FROM change_event WHERE context_id = %(context_id)s), 0) + 1,
       %(record_id)s, %(revision)s, %(kind)s, %(entry_type)s
RETURNING seq

-- list_change_events --
-- Only what the caller may see: the record's scope under one of its prefixes, and a private
-- record only for its owner. An event whose record is gone (or names none) is shown only to a
-- whole-Context grant ('' among the prefixes), which could have seen any record.
SELECT e.seq, e.record_id, e.revision, e.kind, e.entry_type, e.created_at
FROM change_event e
LEFT JOIN memory_record r ON r.context_id = e.context_id AND r.id = e.record_id
WHERE e.context_id = %(context_id)s AND e.seq > %(after)s
  AND CASE WHEN r.id IS NULL THEN '' = ANY(%(prefixes)s::text[])
           ELSE EXISTS (SELECT 1 FROM unnest(%(prefixes)s::text[]) AS p
                        WHERE scope_covers(p, r.scope_path))
                AND (r.visibility = 'shared' OR r.owner_subject = %(subject)s)
      END
ORDER BY e.seq
LIMIT %(limit)s

-- book_usage --
INSERT INTO usage (context_id, day, stage, model, calls, prompt_tokens, completion_tokens)
VALUES (%(context_id)s, current_date, %(stage)s, %(model)s, 1, %(prompt_tokens)s,
        %(completion_tokens)s)
ON CONFLICT (context_id, day, stage, model) DO UPDATE
SET calls = usage.calls + 1,
    prompt_tokens = usage.prompt_tokens + EXCLUDED.prompt_tokens,
    completion_tokens = usage.completion_tokens + EXCLUDED.completion_tokens

-- usage_breakdown --
SELECT stage, model, sum(calls)::bigint AS calls, sum(prompt_tokens)::bigint AS prompt_tokens,
       sum(completion_tokens)::bigint AS completion_tokens
FROM usage
WHERE context_id = %(context_id)s AND day >= %(since)s
GROUP BY stage, model
ORDER BY stage, model

-- usage_total_since --
SELECT coalesce(sum(prompt_tokens + completion_tokens), 0)::bigint AS tokens
FROM usage WHERE context_id = %(context_id)s AND day >= %(since)s

-- lock_change_feed --
SELECT pg_advisory_xact_lock(hashtextextended('change_feed:' || %(context_id)s::text, 0))
