-- 0013: each Context numbers its own change feed (issue 15, item 8).
-- `seq` was one identity shared by every Context, so the gaps in one Context's feed showed
-- how much the others wrote. Now `insert_change_event` takes max(seq) + 1 of the Context,
-- under the Context's `lock_change_feed` advisory lock (audit.sql), so each feed counts
-- 1, 2, 3, ... in commit order without gaps; the key (context_id, seq) refuses a duplicate
-- should a writer ever skip the lock. Existing entries keep their numbers, so a follower's
-- cursor stays valid; a Context's next entry follows its own largest.
ALTER TABLE change_event ALTER COLUMN seq DROP IDENTITY;
