-- Webhooks (issue 24). A subscription names the event kinds it wants; a delivery is one
-- event for one subscription, written by the triggers below in the very transaction that
-- wrote the event (the outbox): a write that rolls back leaves no delivery, and one that
-- commits cannot lose its delivery. The signing secret is kept as it is: an HMAC key must
-- be readable to sign (docs/webhooks.md says how to protect it).
CREATE TABLE webhook_subscription (
    context_id uuid NOT NULL REFERENCES context(id) ON DELETE CASCADE,
    id uuid NOT NULL,
    url text NOT NULL CHECK (length(url) <= 2048),
    events text[] NOT NULL CHECK (cardinality(events) >= 1),
    include_content boolean NOT NULL DEFAULT false,
    description text NOT NULL DEFAULT '' CHECK (length(description) <= 500),
    secret text NOT NULL,
    key_id uuid,
    created_by text NOT NULL,
    status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'paused')),
    paused_reason text CHECK (paused_reason IN ('gone', 'failures', 'manual')),
    consecutive_failures integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, id)
);

CREATE TABLE webhook_delivery (
    context_id uuid NOT NULL,
    id uuid NOT NULL DEFAULT gen_random_uuid(),
    n bigint GENERATED ALWAYS AS IDENTITY,
    subscription_id uuid NOT NULL,
    event_id text NOT NULL,
    event_type text NOT NULL,
    feed_seq bigint,
    data jsonb NOT NULL,
    occurred_at timestamptz NOT NULL DEFAULT now(),
    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL DEFAULT now(),
    last_attempt_at timestamptz,
    last_status_code integer,
    last_error text,
    delivered_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, id),
    UNIQUE (context_id, subscription_id, event_id),
    FOREIGN KEY (context_id, subscription_id)
        REFERENCES webhook_subscription (context_id, id) ON DELETE CASCADE
);

-- What the sweep claims, oldest due first; a subscription's deliveries, newest first.
CREATE INDEX webhook_delivery_due ON webhook_delivery (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_delivery_by_subscription ON webhook_delivery (context_id, subscription_id, n);

-- The webhook kind of a change-feed entry (memwarden/webhooks/kinds.py says the same, and
-- a test keeps the two equal): a record created held is `held`; a restore is an update,
-- an erasure a deletion.
CREATE FUNCTION webhook_feed_kind(entry_type text, serving text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE entry_type
        WHEN 'created' THEN CASE WHEN serving = 'held' THEN 'held' ELSE 'created' END
        WHEN 'updated' THEN 'updated'
        WHEN 'restored' THEN 'updated'
        WHEN 'superseded' THEN 'superseded'
        WHEN 'deleted' THEN 'deleted'
        WHEN 'erased' THEN 'deleted'
        WHEN 'reviewed' THEN 'reviewed'
        WHEN 'released' THEN 'released'
    END
$$;

-- One delivery per subscription of the Context that wants `kind` (paused ones too: they
-- are delivered on resume), and one job per transaction and Context to send them, on
-- procrastinate's own table (as store/queries/recovery.sql reads it). The job carries
-- procrastinate's `lock`, so a Context's jobs run one at a time; it has no queueing lock,
-- whose unique index would make two writers of a Context wait on each other's uncommitted
-- job (a deadlock once one of them also waits for the change feed's lock). A
-- transaction-local setting says the transaction queued its job already.
CREATE FUNCTION webhook_enqueue(p_context uuid, p_kind text, p_event_id text, p_seq bigint,
                                p_data jsonb, p_at timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    queued text := 'memwarden.webhooks_' || replace(p_context::text, '-', '');
BEGIN
    IF p_kind IS NULL THEN
        RETURN;
    END IF;
    INSERT INTO webhook_delivery (context_id, subscription_id, event_id, event_type, feed_seq,
                                  data, occurred_at)
    SELECT s.context_id, s.id, p_event_id, p_kind, p_seq, p_data, p_at
    FROM webhook_subscription s
    WHERE s.context_id = p_context AND p_kind = ANY (s.events)
    ON CONFLICT DO NOTHING;
    IF FOUND AND current_setting(queued, true) IS DISTINCT FROM 'yes' THEN
        PERFORM set_config(queued, 'yes', true);
        INSERT INTO procrastinate_jobs (queue_name, task_name, lock, args)
        VALUES ('webhooks', 'memwarden:webhooks_deliver', 'webhooks:' || p_context::text,
                jsonb_build_object('context_id', p_context::text));
    END IF;
END
$$;

CREATE FUNCTION webhook_from_change_event() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    state text;
BEGIN
    -- Most Contexts subscribe to nothing, or not to this kind: leave before reading the
    -- record (the kind is one of two, as the record is held or not).
    IF NOT EXISTS (
        SELECT 1 FROM webhook_subscription
        WHERE context_id = NEW.context_id
          AND events && ARRAY[webhook_feed_kind(NEW.entry_type, 'live'),
                              webhook_feed_kind(NEW.entry_type, 'held')]
    ) THEN
        RETURN NULL;
    END IF;
    SELECT r.serving::text INTO state FROM memory_record r
    WHERE r.context_id = NEW.context_id AND r.id = NEW.record_id;
    PERFORM webhook_enqueue(
        NEW.context_id, webhook_feed_kind(NEW.entry_type, state), 'feed:' || NEW.seq, NEW.seq,
        jsonb_build_object('recordId', NEW.record_id, 'revision', NEW.revision,
                           'kind', NEW.kind, 'entryType', NEW.entry_type),
        NEW.created_at);
    RETURN NULL;
END
$$;

CREATE FUNCTION webhook_from_judgement() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM webhook_enqueue(
        NEW.context_id, 'judge_fail', 'judgement:' || NEW.id, NULL,
        jsonb_build_object('judgementId', NEW.id, 'gate', NEW.gate, 'reasons', NEW.reasons,
                           'source', NEW.source),
        NEW.created_at);
    RETURN NULL;
END
$$;

CREATE FUNCTION webhook_from_conflict() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM webhook_enqueue(
        NEW.context_id, 'hygiene_queued', 'conflict:' || NEW.id, NULL,
        jsonb_build_object('conflictId', NEW.id, 'recordA', NEW.record_a,
                           'recordB', NEW.record_b, 'verdict', NEW.verdict,
                           'origin', NEW.origin),
        NEW.created_at);
    RETURN NULL;
END
$$;

CREATE TRIGGER webhook_change_event AFTER INSERT ON change_event
    FOR EACH ROW EXECUTE FUNCTION webhook_from_change_event();
CREATE TRIGGER webhook_judgement AFTER INSERT ON judgement
    FOR EACH ROW WHEN (NEW.verdict = 'fail') EXECUTE FUNCTION webhook_from_judgement();
CREATE TRIGGER webhook_conflict AFTER INSERT ON conflict
    FOR EACH ROW WHEN (NEW.action = 'queued') EXECUTE FUNCTION webhook_from_conflict();
