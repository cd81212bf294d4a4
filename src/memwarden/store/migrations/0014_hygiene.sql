-- 0014: memory hygiene (issue 11): the review queue, the record of judged pairs, link
-- edges, hygiene runs, and every record's provenance rank.

-- The queue (`conflict`, unused until now) learns where a row came from and what was done.
-- Every added column is nullable or defaulted: a writer that knows only the base columns
-- (a background pass queueing an unsure pair) still inserts a valid row.
ALTER TABLE conflict
    ADD COLUMN origin      text NOT NULL DEFAULT 'scan'
        CHECK (origin IN ('scan', 'challenge', 'pass')),
    ADD COLUMN judging_path text CHECK (judging_path IN ('adjudication', 'hygiene')),
    ADD COLUMN action      text
        CHECK (action IN ('queued', 'auto_resolved', 'dismissed', 'kept_both', 'linked')),
    ADD COLUMN loser       text CHECK (loser IN ('a', 'b')),
    ADD COLUMN run_id      uuid,
    ADD COLUMN revision_a  integer,
    ADD COLUMN revision_b  integer,
    ADD COLUMN reason      text CHECK (length(reason) <= 2000),
    ADD COLUMN decided_by  text,
    ADD COLUMN decided_at  timestamptz,
    ADD COLUMN restored_at timestamptz,
    ADD COLUMN dismissed_because text CHECK (dismissed_because IN ('stale', 'rejudged'));
ALTER TABLE conflict ADD CONSTRAINT conflict_resolution_check
    CHECK (resolution IN ('keep_both', 'keep_a', 'keep_b'));

-- The queue guard: one unordered pair is never pending twice, and a pair a person decided
-- is never queued again (a challenge names one record on both sides and is not a pair).
CREATE UNIQUE INDEX conflict_pair_guard ON conflict
    (context_id, least(record_a, record_b), greatest(record_a, record_b))
    WHERE origin <> 'challenge' AND (status = 'pending' OR decided_by IS NOT NULL);
CREATE INDEX conflict_record_a ON conflict (context_id, record_a);
CREATE INDEX conflict_record_b ON conflict (context_id, record_b);

-- What a judge already said about a pair at the pair's revisions: a scan never pays twice
-- for the same look (a new judge model, or a new revision of either side, looks again).
CREATE TABLE hygiene_judged (
    context_id  uuid NOT NULL REFERENCES context(id) ON DELETE CASCADE,
    record_lo   uuid NOT NULL,
    record_hi   uuid NOT NULL,
    judge_model text NOT NULL,
    revision_lo integer NOT NULL,
    revision_hi integer NOT NULL,
    verdict     text NOT NULL,
    judged_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, record_lo, record_hi, judge_model),
    CHECK (record_lo < record_hi)
);

-- Complementary pairs judged at high confidence: a link edge between two related facts.
CREATE TABLE memory_link (
    context_id  uuid NOT NULL REFERENCES context(id) ON DELETE CASCADE,
    record_lo   uuid NOT NULL,
    record_hi   uuid NOT NULL,
    kind        text NOT NULL DEFAULT 'complementary' CHECK (kind IN ('complementary')),
    confidence  double precision NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
    judge_model text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, record_lo, record_hi),
    CHECK (record_lo < record_hi)
);

-- A hygiene run (on demand, nightly, or after a write) and what it did.
CREATE TABLE hygiene_run (
    context_id   uuid NOT NULL REFERENCES context(id) ON DELETE CASCADE,
    id           uuid NOT NULL,
    kind         text NOT NULL CHECK (kind IN ('scan', 'nightly', 'write')),
    rejudge      boolean NOT NULL DEFAULT false,
    status       text NOT NULL DEFAULT 'queued'
        CHECK (status IN ('queued', 'running', 'done', 'failed')),
    subjects     uuid[] NOT NULL DEFAULT '{}',
    requested_by text NOT NULL,
    counts       jsonb NOT NULL DEFAULT jsonb_build_object(
        'subjects', 0, 'pairs_judged', 0, 'skipped_cross_project', 0, 'queued', 0,
        'auto_resolved', 0, 'dismissed', 0, 'linked', 0, 'reexamined', 0,
        'stopped_on_queue_cap', false),
    error        text,
    -- Where the ordinary sweep stopped (modified_at, id of the last subject it reached).
    watermark    timestamptz,
    watermark_id uuid,
    created_at   timestamptz NOT NULL DEFAULT now(),
    started_at   timestamptz,
    finished_at  timestamptz,
    PRIMARY KEY (context_id, id)
);
-- At most one full cycle (scan or nightly) per Context queued or running at a time.
CREATE UNIQUE INDEX hygiene_run_one_full ON hygiene_run (context_id)
    WHERE kind <> 'write' AND status IN ('queued', 'running');

-- Provenance rank (domain/provenance.py): commands by an application and approved records
-- are authoritative (2), agent captures provisional (1), derived records 0.
UPDATE memory_record SET provenance_rank = CASE
    WHEN review_disposition = 'approved' OR source_kind = 'command' THEN 2
    WHEN source_kind IN ('turn', 'document') THEN 1
    ELSE 0 END;
