-- memory_embedding keeps the vector of every revision of every record (history). Since
-- 0005 the current revision's vector lives on memory_record itself, and every similarity
-- search is an exact scan of one Context's eligible rows (an ANN index under a Context
-- filter returns almost nothing). No query orders memory_embedding by distance, so its
-- HNSW index only cost each write an index insert (and a 1M-row build took over 20
-- minutes here). Lookups by (context_id, record_id, revision) keep the primary key.
DROP INDEX IF EXISTS memory_embedding_hnsw;
