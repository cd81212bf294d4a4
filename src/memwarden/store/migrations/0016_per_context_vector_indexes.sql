-- Vector search runs per Context: a Context past a threshold gets partial HNSW indexes of
-- its own over memory_record and chunk (built by the vector_indexes job,
-- store/vector_index.py), and a smaller one is scanned exactly. A table-wide HNSW index
-- under a Context filter walks mostly other Contexts' rows (recall about 0.8 at 1% of the
-- table, notes/postgres-recall.md); now that the chunk search orders by distance inside
-- the Context, the planner could pick this one and lose recall silently. Dropping it also
-- spares every chunk insert an index insert.
DROP INDEX IF EXISTS chunk_embedding;
