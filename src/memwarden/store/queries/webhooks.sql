-- webhooks_insert --
INSERT INTO webhook_subscription (context_id, id, url, events, include_content, description,
                                  secret, key_id, created_by)
VALUES (%(context_id)s, %(id)s, %(url)s, %(events)s, %(include_content)s, %(description)s,
        %(secret)s, %(key_id)s, %(created_by)s)
RETURNING context_id, id, url, events, include_content, description, key_id, created_by,
          status, paused_reason, consecutive_failures, created_at, updated_at

-- webhooks_list --
SELECT context_id, id, url, events, include_content, description, key_id, created_by, status,
       paused_reason, consecutive_failures, created_at, updated_at
FROM webhook_subscription
WHERE context_id = %(context_id)s AND (%(after)s::uuid IS NULL OR id > %(after)s::uuid)
ORDER BY id
LIMIT %(limit)s

-- webhooks_get --
SELECT context_id, id, url, events, include_content, description, key_id, created_by, status,
       paused_reason, consecutive_failures, created_at, updated_at
FROM webhook_subscription
WHERE context_id = %(context_id)s AND id = %(id)s

-- webhooks_lock --
SELECT id FROM webhook_subscription WHERE context_id = %(context_id)s AND id = %(id)s FOR UPDATE

-- webhooks_update --
-- Resuming (`status` back to active) clears the pause and the failure count.
UPDATE webhook_subscription
SET url = %(url)s, events = %(events)s, description = %(description)s,
    include_content = %(include_content)s, status = %(status)s,
    paused_reason = CASE WHEN %(status)s = 'active' THEN NULL ELSE %(paused_reason)s END,
    consecutive_failures = CASE WHEN %(status)s = 'active' AND status = 'paused' THEN 0
                                ELSE consecutive_failures END,
    updated_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s
RETURNING context_id, id, url, events, include_content, description, key_id, created_by,
          status, paused_reason, consecutive_failures, created_at, updated_at

-- webhooks_resume_deliveries --
-- A resumed subscription's waiting deliveries are due now, each with its attempts anew.
UPDATE webhook_delivery SET attempts = 0, next_attempt_at = now()
WHERE context_id = %(context_id)s AND subscription_id = %(id)s AND status = 'pending'

-- webhooks_delete --
DELETE FROM webhook_subscription WHERE context_id = %(context_id)s AND id = %(id)s
RETURNING id

-- webhooks_set_secret --
UPDATE webhook_subscription SET secret = %(secret)s, updated_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s
RETURNING id

-- webhooks_deliveries --
SELECT n, id, event_id, event_type, feed_seq, status, attempts, last_status_code, last_error,
       last_attempt_at, CASE WHEN status = 'pending' THEN next_attempt_at END AS next_attempt_at,
       delivered_at, occurred_at, created_at
FROM webhook_delivery
WHERE context_id = %(context_id)s AND subscription_id = %(id)s
  AND (%(before)s::bigint IS NULL OR n < %(before)s::bigint)
ORDER BY n DESC
LIMIT %(limit)s

-- webhooks_due_contexts --
-- The Contexts with a delivery due to an active subscription, the longest waiting first, for
-- the sweep (the partial index of waiting deliveries; on Citus a read of every shard).
SELECT d.context_id
FROM webhook_delivery d
JOIN webhook_subscription s ON s.context_id = d.context_id AND s.id = d.subscription_id
WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND s.status = 'active'
GROUP BY d.context_id
ORDER BY min(d.next_attempt_at), d.context_id

-- webhooks_claim_due --
-- Due deliveries of active subscriptions, oldest first; claiming counts the attempt and
-- moves the next try past the lease, so a worker that dies mid-send leaves the delivery
-- due again once the lease ends (at least once), and no other worker sends it meanwhile.
-- While a subscription's last attempt failed, only its oldest waiting delivery is tried:
-- a receiver that is down costs one attempt per retry, not one per new event. One Context
-- at a time (webhooks_due_contexts lists them for the sweep): on Citus a FOR UPDATE is
-- routed to one shard or refused, and the correlated subquery binds the Context itself,
-- since Citus does not carry d's pin into it.
WITH due AS (
    SELECT d.context_id, d.id
    FROM webhook_delivery d
    JOIN webhook_subscription s ON s.context_id = d.context_id AND s.id = d.subscription_id
    WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND s.status = 'active'
      AND d.context_id = %(context_id)s
      AND (s.consecutive_failures = 0
           OR d.n = (SELECT min(w.n) FROM webhook_delivery w
                     WHERE w.context_id = %(context_id)s AND w.subscription_id = d.subscription_id
                       AND w.status = 'pending'))
    ORDER BY d.next_attempt_at, d.n
    LIMIT %(limit)s
    FOR UPDATE OF d SKIP LOCKED
)
UPDATE webhook_delivery d
SET attempts = d.attempts + 1,
    next_attempt_at = now() + make_interval(secs => %(lease_s)s::float8)
FROM due, webhook_subscription s
WHERE d.context_id = due.context_id AND d.id = due.id
  AND s.context_id = d.context_id AND s.id = d.subscription_id
RETURNING d.context_id, d.id, d.n, d.subscription_id, d.event_id, d.event_type, d.feed_seq,
          d.data, d.occurred_at, d.attempts, s.url, s.secret, s.include_content, s.key_id

-- webhooks_record_attempt --
-- The time is read in a CTE: Citus refuses now() inside CASE in an UPDATE.
WITH t AS (SELECT now() AS at)
UPDATE webhook_delivery
SET status = %(status)s, last_attempt_at = t.at, last_status_code = %(status_code)s,
    last_error = %(error)s,
    next_attempt_at = CASE WHEN %(retry_in_s)s::float8 IS NULL THEN next_attempt_at
                           ELSE t.at + make_interval(secs => %(retry_in_s)s::float8) END,
    delivered_at = CASE WHEN %(status)s = 'delivered' THEN t.at END
FROM t
WHERE context_id = %(context_id)s AND id = %(id)s

-- webhooks_release --
-- A claimed delivery left unsent (an earlier one of its subscription failed or paused it,
-- or the run's time is up): its attempt given back, due again after `delay_s`.
UPDATE webhook_delivery
SET attempts = greatest(attempts - 1, 0),
    next_attempt_at = now() + make_interval(secs => %(delay_s)s::float8)
WHERE context_id = %(context_id)s AND id = %(id)s AND status = 'pending'

-- webhooks_count_attempt --
UPDATE webhook_subscription
SET consecutive_failures = CASE WHEN %(delivered)s THEN 0 ELSE consecutive_failures + 1 END
WHERE context_id = %(context_id)s AND id = %(id)s
RETURNING status, consecutive_failures

-- webhooks_pause --
UPDATE webhook_subscription SET status = 'paused', paused_reason = %(reason)s, updated_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s AND status = 'active'
RETURNING id

-- webhooks_readable_content --
-- The change feed's read predicate (audit.sql: list_change_events) for the subscription's
-- key: a record under one of its memory_read prefixes, private only for its subject; a
-- deleted or held record has no content to give.
SELECT r.revision, r.content
FROM memory_record r
WHERE r.context_id = %(context_id)s AND r.id = %(record_id)s
  AND r.serving IN ('live', 'superseded')
  AND EXISTS (SELECT 1 FROM unnest(%(prefixes)s::text[]) AS p WHERE scope_covers(p, r.scope_path))
  AND (r.visibility = 'shared' OR r.owner_subject = %(subject)s)

-- webhooks_purge_settled --
-- Deliveries done with (delivered, or failed for good) are kept for the deliveries list
-- `keep_days`, then dropped, a batch at a time; waiting ones are never dropped here.
DELETE FROM webhook_delivery d
USING (SELECT context_id, id FROM webhook_delivery
       WHERE status <> 'pending' AND created_at < now() - make_interval(days => %(keep_days)s)
       LIMIT %(limit)s) old
WHERE d.context_id = old.context_id AND d.id = old.id
