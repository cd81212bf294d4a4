-- insert_audit_event --
INSERT INTO audit_event (context_id, id, actor_subject, key_id, action, target_kind, target_id)
VALUES (%(context_id)s, %(id)s, %(actor_subject)s, %(key_id)s, %(action)s, %(target_kind)s,
        %(target_id)s)

-- list_audit_events --
SELECT id, actor_subject, key_id, action, target_kind, target_id, created_at
FROM audit_event
WHERE context_id = %(context_id)s AND (%(before)s::uuid IS NULL OR id < %(before)s::uuid)
ORDER BY id DESC
LIMIT %(limit)s

-- insert_change_event --
INSERT INTO change_event (context_id, record_id, revision, kind, entry_type)
VALUES (%(context_id)s, %(record_id)s, %(revision)s, %(kind)s, %(entry_type)s)
RETURNING seq

-- list_change_events --
SELECT seq, record_id, revision, kind, entry_type, created_at
FROM change_event
WHERE context_id = %(context_id)s AND seq > %(after)s
ORDER BY seq
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
