-- The documents a worker has not finished, for the pending-bytes budget read at every
-- upload (and the sweep that re-queues lost jobs): without it the sum reads every
-- document of the Context.
CREATE INDEX document_unprocessed ON document (context_id) INCLUDE (size_bytes)
    WHERE status IN ('pending', 'processing');
