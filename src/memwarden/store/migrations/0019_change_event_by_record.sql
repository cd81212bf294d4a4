-- A record's change events, for the dashboard's record page: without this index the
-- lookup scans the Context's whole feed.
CREATE INDEX change_event_record ON change_event (context_id, record_id, seq);
