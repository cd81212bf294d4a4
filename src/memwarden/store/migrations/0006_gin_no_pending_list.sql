-- Full-text recall reads the GIN indexes on memory_record.tsv and chunk.tsv on every /query.
-- With fastupdate (the default) new rows wait in a pending list of up to 4 MB that every
-- search scans in full until (auto)vacuum merges it: measured at 100k memories, 2.5 ms of a
-- 3.5 ms full-text query right after a bulk write, against 0.3 ms once merged. Inserting
-- straight into the index costs a little on each write and keeps recall latency flat.
ALTER INDEX memory_record_tsv SET (fastupdate = off);
ALTER INDEX chunk_tsv SET (fastupdate = off);
