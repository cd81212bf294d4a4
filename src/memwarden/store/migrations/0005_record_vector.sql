-- The current revision's vector on the record row, so recall's exact scan over a Context's
-- records reads one table instead of one memory_embedding lookup per record.
--
-- memory_embedding stays the history: every vector, tied to the revision it was computed
-- from and never reassigned. memory_record.embedding is a copy of exactly one of those rows:
-- the one for the record's CURRENT revision (embedding_revision = revision), or NULL.
-- insert_memory_embedding (queries/memory.sql) sets it in the same statement that records
-- the vector; every statement that advances `revision` clears it, and the CHECK below makes
-- a writer that forgets fail instead of serving an old revision's vector.
ALTER TABLE memory_record
    ADD COLUMN embedding vector(384),
    ADD COLUMN embedding_revision integer;

-- A vector is 1,544 bytes; with the default (external) storage it would be moved out of line
-- into TOAST, and the scan would pay a TOAST lookup per row, the cost this column removes.
-- PLAIN keeps it inline; the higher tuple target keeps the toaster from moving the short
-- body, content and tsv out of line to make room (a row with a vector passes the default
-- 2 kB target; long bodies are still compressed or moved past 8 kB).
ALTER TABLE memory_record ALTER COLUMN embedding SET STORAGE PLAIN;
ALTER TABLE memory_record SET (toast_tuple_target = 8160);

UPDATE memory_record r
SET embedding = e.embedding, embedding_revision = e.revision
FROM memory_embedding e
WHERE e.context_id = r.context_id AND e.record_id = r.id AND e.revision = r.revision;

ALTER TABLE memory_record ADD CONSTRAINT memory_record_embedding_current CHECK (
    (embedding IS NULL AND embedding_revision IS NULL)
    OR (embedding IS NOT NULL AND embedding_revision = revision)
);
