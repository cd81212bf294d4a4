-- On Citus, the webhook outbox's trigger queues no job (docs/scale.md#distribution). On a
-- plain PostgreSQL (no `citus` extension) nothing changes.
--
-- The change feed's trigger (0025) writes a delivery row for each subscription and, once
-- per transaction and Context, a `memwarden:webhooks_deliver` job into procrastinate's
-- table. On Citus the trigger runs on the worker that holds the Context's shards, and the
-- job queue is local to the coordinator: the worker has no `procrastinate_jobs`, and the
-- write failed. Here the trigger writes the delivery rows only (co-located with the feed
-- entry), and the webhook sweep (every minute, `memwarden:webhooks_sweep`, which lists the
-- Contexts with deliveries due) sends them: on Citus a delivery leaves up to a minute after
-- its write instead of at once. Run again at every migrate on Citus (store/migrate.py).
DO $citus$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') THEN
        RETURN;
    END IF;
    CREATE OR REPLACE FUNCTION webhook_enqueue(p_context uuid, p_kind text, p_event_id text,
                                               p_seq bigint, p_data jsonb, p_at timestamptz)
    RETURNS void
    LANGUAGE plpgsql AS $fn$
    BEGIN
        IF p_kind IS NULL THEN
            RETURN;
        END IF;
        INSERT INTO webhook_delivery (context_id, subscription_id, event_id, event_type,
                                      feed_seq, data, occurred_at)
        SELECT s.context_id, s.id, p_event_id, p_kind, p_seq, p_data, p_at
        FROM webhook_subscription s
        WHERE s.context_id = p_context AND p_kind = ANY (s.events)
        ON CONFLICT DO NOTHING;
    END
    $fn$;
END
$citus$;
