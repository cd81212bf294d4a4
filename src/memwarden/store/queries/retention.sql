-- contexts_with_config --
SELECT id, config FROM context ORDER BY id

-- purge_judgements --
-- Held judgements still awaiting a decision keep their entry: the held rows need it.
DELETE FROM judgement
WHERE context_id = %(context_id)s
  AND created_at < %(cutoff)s
  AND NOT (held AND hold_decision IS NULL)

-- purge_retained_inputs --
DELETE FROM retained_input
WHERE context_id = %(context_id)s
  AND (consumed_at IS NOT NULL OR (expires_at IS NOT NULL AND expires_at <= %(now)s))
