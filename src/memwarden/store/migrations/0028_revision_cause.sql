-- A record's history (issue 25, "Time"): each revision says why it was made (`cause`),
-- the validity the record had once it was made, and the record that replaced it. The op
-- alone cannot tell a write's correction from a declared supersede, a hygiene resolution or
-- a consolidation merge (all are `supersede`), so the supersede paths name their cause
-- (retirement.py); every other op has one cause, filled in here when a writer gives none.
ALTER TABLE memory_revision
    ADD COLUMN cause text,
    ADD COLUMN valid_from timestamptz,
    ADD COLUMN valid_to timestamptz,
    ADD COLUMN replaced_by uuid;

-- The cause an op implies; NULL for `supersede` (and `hold`), whose cause only the writer
-- knows.
CREATE FUNCTION memory_revision_cause_of(op text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE op
        WHEN 'create' THEN 'write'
        WHEN 'update' THEN 'correction'
        WHEN 'delete' THEN 'delete'
        WHEN 'review' THEN 'review_decision'
        WHEN 'release' THEN 'review_decision'
        WHEN 'restore' THEN 'restore'
        WHEN 'erase' THEN 'erasure'
    END
$$;

-- Backfill. Supersedes before this migration: a consolidation pass and a hygiene run wrote
-- them under their own actors, a declared supersede left its audit event on the record;
-- the rest (a write's correction or a person's hygiene decision) cannot be told apart.
UPDATE memory_revision v
SET cause = coalesce(
        memory_revision_cause_of(v.op),
        CASE
            WHEN v.op <> 'supersede' THEN NULL
            WHEN v.actor_subject = 'pass:consolidation' THEN 'consolidation'
            WHEN v.actor_subject = 'hygiene' THEN 'hygiene_resolution'
            WHEN EXISTS (
                SELECT 1 FROM audit_event a
                WHERE a.context_id = v.context_id AND a.target_id = v.record_id
                  AND a.action = 'memory.declared_supersede'
                  AND a.actor_subject = v.actor_subject
            ) THEN 'declared_supersede'
        END,
        'unknown'),
    valid_from = r.valid_from
FROM memory_record r
WHERE r.context_id = v.context_id AND r.id = v.record_id;
UPDATE memory_revision SET cause = 'unknown' WHERE cause IS NULL;

-- The replacement and the closed validity are known only for a record's last supersede
-- while it is still superseded (an earlier one may since have been restored).
UPDATE memory_revision v
SET valid_to = r.valid_to, replaced_by = r.superseded_by
FROM memory_record r
WHERE r.context_id = v.context_id AND r.id = v.record_id AND r.superseded_by IS NOT NULL
  AND v.op = 'supersede'
  AND v.revision = (SELECT max(w.revision) FROM memory_revision w
                    WHERE w.context_id = v.context_id AND w.record_id = v.record_id
                      AND w.op = 'supersede');

ALTER TABLE memory_revision ALTER COLUMN cause SET NOT NULL;
ALTER TABLE memory_revision ADD CONSTRAINT memory_revision_cause_check
    CHECK (cause IN ('write', 'correction', 'declared_supersede', 'hygiene_resolution',
                     'consolidation', 'review_decision', 'restore', 'delete', 'erasure',
                     'unknown'));

-- Every revision is inserted after the change it records, at the record's new revision (the
-- record row already holds it), so the row's validity and replacement are what this
-- revision made. An older revision written later (an import replaying its source's
-- history) is not the row's present state: only what its writer gives is kept.
CREATE FUNCTION memory_revision_fill() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    rec record;
BEGIN
    SELECT r.revision, r.valid_from, r.valid_to, r.superseded_by INTO rec
    FROM memory_record r WHERE r.context_id = NEW.context_id AND r.id = NEW.record_id;
    NEW.cause := coalesce(NEW.cause, memory_revision_cause_of(NEW.op), 'unknown');
    IF rec.revision IS NOT DISTINCT FROM NEW.revision THEN
        NEW.valid_from := coalesce(NEW.valid_from, rec.valid_from);
        NEW.valid_to := coalesce(NEW.valid_to, rec.valid_to);
        NEW.replaced_by := coalesce(NEW.replaced_by, rec.superseded_by);
    END IF;
    RETURN NEW;
END
$$;

CREATE TRIGGER memory_revision_fill BEFORE INSERT ON memory_revision
FOR EACH ROW EXECUTE FUNCTION memory_revision_fill();
