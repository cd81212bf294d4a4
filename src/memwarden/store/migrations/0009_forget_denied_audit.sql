-- A denied document must leave no trace, its upload's audit event included. The audit log
-- stays append-only for everything else: only a transaction that sets
-- memwarden.forget_denied (store.documents.fail_forgetting, SET LOCAL) may delete rows.
CREATE OR REPLACE FUNCTION audit_event_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND current_setting('memwarden.forget_denied', true) = 'on' THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'audit_event is append-only';
END $$;
