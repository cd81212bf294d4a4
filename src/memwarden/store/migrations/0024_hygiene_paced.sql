-- Hygiene (issue 23). `owed`: the subjects a full cycle reached but left pairs unrecorded
-- for (a judge call that failed, the queue cap reached mid-subject); the next full cycle
-- scans them first, so a pair is paced, never dropped. A pending pair whose two sides
-- provably belong to different projects is dismissed as `cross_project`. Queue rows the
-- consolidation pass wrote before it named itself (no judging path) say `pass`.
ALTER TABLE hygiene_run ADD COLUMN owed uuid[] NOT NULL DEFAULT '{}';

ALTER TABLE conflict DROP CONSTRAINT conflict_dismissed_because_check;
ALTER TABLE conflict ADD CONSTRAINT conflict_dismissed_because_check
    CHECK (dismissed_because IN ('stale', 'rejudged', 'cross_project'));

UPDATE conflict SET origin = 'pass', action = coalesce(action, 'queued')
WHERE origin = 'scan' AND judging_path IS NULL;
