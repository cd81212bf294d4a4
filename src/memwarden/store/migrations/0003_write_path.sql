-- Write path and recall: lookups reconciliation and profiles make on every request.

-- Profiles read the relations and actions that point AT an entity, not only from it.
CREATE INDEX memory_record_object_entity ON memory_record (context_id, object_entity_id)
    WHERE object_entity_id IS NOT NULL;

-- Reconciliation finds live instructions and uncertainties by their normalised identity.
CREATE INDEX memory_record_note_ident ON memory_record (context_id, kind, norm_name)
    WHERE kind IN ('instruction', 'uncertainty');

-- A hold is released or rejected for everything it covers at once.
CREATE INDEX memory_record_hold ON memory_record (context_id, hold_judgement_id)
    WHERE hold_judgement_id IS NOT NULL;
CREATE INDEX turn_hold ON turn (context_id, hold_judgement_id)
    WHERE hold_judgement_id IS NOT NULL;
CREATE INDEX chunk_hold ON chunk (context_id, hold_judgement_id)
    WHERE hold_judgement_id IS NOT NULL;
