-- Recall by who spoke a turn (retrieval/speakers.py).

-- recall_chunks_of_named_speakers --
-- Of the given chunks, those of turns whose speaker the query names: the id in the turn's
-- speaker key (`user:<id>` or `principal:<subject>`, domain/speaker.py), lower-cased, is
-- one of the query's words. Primary-key reads of the fused head only.
SELECT c.id
FROM chunk c
JOIN turn t ON t.context_id = c.context_id AND t.id = c.turn_id
WHERE c.context_id = %(context_id)s AND c.id = ANY(%(ids)s::uuid[])
  AND t.speaker IS NOT NULL
  AND lower(substr(t.speaker, strpos(t.speaker, ':') + 1)) = ANY(%(words)s::text[])
