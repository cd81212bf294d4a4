-- Extraction outcomes a person can see (spec 4, issue 10 items 11-12).
-- Per turn and document: how many extraction windows the item had and which of them failed
-- (positions, never text: `[{"part", "start", "end"}]`), so a failed item can be
-- reprocessed from its stored text. Per Context and day: windows run and failed, and the
-- text dropped past the window limit, for GET /usage.

ALTER TABLE turn
    ADD COLUMN extraction_windows integer NOT NULL DEFAULT 0,
    ADD COLUMN extraction_failed  jsonb NOT NULL DEFAULT '[]';

ALTER TABLE document
    ADD COLUMN extraction_windows integer NOT NULL DEFAULT 0,
    ADD COLUMN extraction_failed  jsonb NOT NULL DEFAULT '[]';

CREATE TABLE extraction_usage (
    context_id     uuid NOT NULL REFERENCES context(id) ON DELETE CASCADE,
    day            date NOT NULL,
    source_kind    text NOT NULL CHECK (source_kind IN ('turn', 'document')),
    windows_run    bigint NOT NULL DEFAULT 0,
    windows_failed bigint NOT NULL DEFAULT 0,
    dropped_chars  bigint NOT NULL DEFAULT 0,
    dropped_bytes  bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (context_id, day, source_kind)
);
