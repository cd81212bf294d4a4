-- Export and import (issue 25, docs/portability.md). An imported record keeps
-- `source_kind = 'import'` and the directory it came from (`import_source_dir`, which the
-- hygiene cross-project filter pins it to).
ALTER TABLE memory_record DROP CONSTRAINT memory_record_source_kind_check;
ALTER TABLE memory_record ADD CONSTRAINT memory_record_source_kind_check
    CHECK (source_kind IN ('turn', 'document', 'command', 'reflection', 'consolidation',
                           'elaboration', 'rollup', 'gist', 'judge', 'import'));

-- One import request: its format, source directory and target scope, where it stands, and
-- its counts per outcome, advanced in the same transaction as each batch of items (so a
-- run that dies mid-way is finished by the next, and the counts stay true).
CREATE TABLE import_run (
    context_id   uuid NOT NULL REFERENCES context(id) ON DELETE CASCADE,
    id           uuid NOT NULL,
    format       text NOT NULL CHECK (format IN ('memwarden', 'mem0', 'texts')),
    source_dir   text NOT NULL,
    scope_path   text NOT NULL DEFAULT '',
    visibility   text NOT NULL DEFAULT 'shared' CHECK (visibility IN ('shared', 'private')),
    status       text NOT NULL DEFAULT 'queued'
                   CHECK (status IN ('queued', 'running', 'done', 'failed')),
    total        integer NOT NULL DEFAULT 0,
    processed    integer NOT NULL DEFAULT 0,
    counts       jsonb NOT NULL DEFAULT '{}',
    error        text,
    requested_by text NOT NULL,
    key_id       uuid NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    started_at   timestamptz,
    finished_at  timestamptz,
    PRIMARY KEY (context_id, id)
);
-- What the minute sweep looks for: imports still open (portability/run.py: resume_open).
CREATE INDEX import_run_open ON import_run (created_at) WHERE status IN ('queued', 'running');

-- The items of an import, in file order. `payload` is the item as sent until it is
-- processed, then cleared (the item's content lives on only in what it wrote, where an
-- erasure finds it); `outcome` says what became of it, `target_id` the record it is now
-- (an imported or matched one). `item_key` (format and the item's own id) makes a second
-- import of the same item a skip.
CREATE TABLE import_item (
    context_id uuid NOT NULL,
    import_id  uuid NOT NULL,
    seq        integer NOT NULL,
    item_key   text NOT NULL,
    payload    jsonb,
    outcome    text CHECK (outcome IN ('imported', 'held', 'duplicate', 'skipped', 'refused')),
    detail     text,
    target_id  uuid,
    PRIMARY KEY (context_id, import_id, seq),
    FOREIGN KEY (context_id, import_id) REFERENCES import_run (context_id, id) ON DELETE CASCADE
);
CREATE INDEX import_item_written ON import_item (context_id, item_key)
    WHERE outcome IN ('imported', 'held', 'duplicate');
