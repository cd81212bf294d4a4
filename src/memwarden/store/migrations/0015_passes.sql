-- Background passes (issue 12): consolidation, elaboration, rollup and gist.
-- A run of one pass over one Context, with what it read and what became of its output:
-- `inputs` units with new material, rows `written`, rows the row gate `dropped`, rows
-- written `held`. `error_code` says why a run failed (e.g. token_budget_exhausted).
CREATE TABLE pass_run (
    context_id    uuid NOT NULL REFERENCES context(id) ON DELETE CASCADE,
    id            uuid NOT NULL,
    stage         text NOT NULL
                  CHECK (stage IN ('consolidation', 'elaboration', 'rollup', 'gist')),
    trigger       text NOT NULL CHECK (trigger IN ('manual', 'settled', 'schedule')),
    status        text NOT NULL DEFAULT 'queued'
                  CHECK (status IN ('queued', 'running', 'done', 'failed')),
    inputs        integer NOT NULL DEFAULT 0,
    written       integer NOT NULL DEFAULT 0,
    dropped       integer NOT NULL DEFAULT 0,
    held          integer NOT NULL DEFAULT 0,
    error_code    text,
    requested_by  text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    started_at    timestamptz,
    finished_at   timestamptz,
    PRIMARY KEY (context_id, id)
);
CREATE INDEX pass_run_recent ON pass_run (context_id, stage, created_at DESC);

-- What a pass last processed, per unit: '' for the Context as a whole (the change-feed
-- position the settle trigger last acted on), or `session:<id>`, `document:<id>`,
-- `turn:<id>`, `entity:<id>`, `pair:<a>:<b>`. `fingerprint` digests the unit's inputs;
-- a unit whose inputs digest the same is not processed again. A unit's watermark is
-- written in the same transaction as its output, so a crash loses or repeats nothing.
CREATE TABLE pass_watermark (
    context_id   uuid NOT NULL REFERENCES context(id) ON DELETE CASCADE,
    stage        text NOT NULL,
    unit         text NOT NULL,
    fingerprint  text NOT NULL,
    run_id       uuid,
    updated_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (context_id, stage, unit)
);

-- A document's gist, written by the gist pass beside its derived record.
ALTER TABLE document ADD COLUMN gist text;
