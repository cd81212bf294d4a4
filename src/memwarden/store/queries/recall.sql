-- Recall: turn chunks, history, profiles, state and traffic. Memory records are served only
-- through memory_servable (0002_review.sql), the gate every read shares; history adds back
-- exactly the records that gate blocks for being superseded or invalidated, nothing else.
-- Every query is scoped by context_id, then by memory_readable (0008_memory_readable.sql):
-- the caller's read prefixes and private ownership.

-- recall_chunks_lexical --
-- Matches are capped before ts_rank scores them (its cost grows with every match); ts_rank
-- favours rows holding more of the words over rows repeating one (search_lexical).
-- `in_context` asks for the words and the Context's own lexeme (migration 0021,
-- context_words: no words, no match), so the GIN index walks the Context's rows only.
WITH query AS (
    SELECT tsq, context_words(%(context_id)s, tsq) AS in_context
    FROM websearch_to_tsquery('english', %(query)s) AS tsq
),
matches AS (
    SELECT c.id, c.tsv
    FROM chunk c, query
    WHERE c.context_id = %(context_id)s
      AND (c.tsv || context_lexeme(c.context_id)) @@ query.in_context
      AND memory_block_reason(c.serving, NULL, NULL, NULL, now()) IS NULL
      AND memory_readable(c.scope_path, c.visibility, c.owner_subject, %(prefixes)s::text[],
                          %(subject)s)
    LIMIT %(match_cap)s
)
SELECT m.id, ts_rank(m.tsv, query.tsq, 32) AS score
FROM matches m, query
ORDER BY score DESC, m.id
LIMIT %(limit)s

-- recall_chunks_vector --
-- The nearest servable chunks of a Context with its own chunk index, as search_vector
-- does for records (recall_chunks_vector_exact without one): the 4 x limit nearest are
-- filtered, and if fewer than `limit` pass, every eligible chunk is scanned exactly instead.
-- Planned per call (a partial index needs a known Context).
WITH nearest AS MATERIALIZED (
    SELECT c.id, c.distance
    FROM (SELECT c.id, c.embedding <=> %(vector)s AS distance, c.serving, c.scope_path,
                 c.visibility, c.owner_subject, c.embedding
          FROM chunk c
          WHERE c.context_id = %(context_id)s AND c.embedding IS NOT NULL
          ORDER BY c.embedding <=> %(vector)s
          LIMIT %(limit)s * 4) c
    WHERE c.embedding IS NOT NULL
    AND memory_block_reason(c.serving, NULL, NULL, NULL, now()) IS NULL
    AND memory_readable(c.scope_path, c.visibility, c.owner_subject, %(prefixes)s::text[],
                        %(subject)s)
    ORDER BY c.distance
    LIMIT %(limit)s
),
enough AS (SELECT count(*) >= %(limit)s AS ok FROM nearest),
exact AS MATERIALIZED (
    SELECT c.id, c.embedding <=> %(vector)s AS distance
    FROM chunk c
    WHERE c.context_id = %(context_id)s AND c.embedding IS NOT NULL
    AND memory_block_reason(c.serving, NULL, NULL, NULL, now()) IS NULL
    AND memory_readable(c.scope_path, c.visibility, c.owner_subject, %(prefixes)s::text[],
                        %(subject)s)
    AND NOT (SELECT ok FROM enough)
)
SELECT id, 1 - distance AS score
FROM (SELECT id, distance FROM nearest WHERE (SELECT ok FROM enough)
      UNION ALL
      SELECT id, distance FROM exact) found
ORDER BY distance, id
LIMIT %(limit)s

-- recall_chunks_vector_exact --
-- The nearest servable chunks of a Context without its own chunk index, scanned exactly
-- (prepared, as search_vector_exact).
SELECT c.id, 1 - (c.embedding <=> %(vector)s) AS score
FROM chunk c
WHERE c.context_id = %(context_id)s AND c.embedding IS NOT NULL
  AND memory_block_reason(c.serving, NULL, NULL, NULL, now()) IS NULL
  AND memory_readable(c.scope_path, c.visibility, c.owner_subject, %(prefixes)s::text[],
                      %(subject)s)
ORDER BY c.embedding <=> %(vector)s, c.id
LIMIT %(limit)s

-- recall_history_lexical --
-- `in_context` asks for the words and the Context's own lexeme (migration 0021,
-- context_words: no words, no match), so the GIN index walks the Context's rows only.
WITH query AS (
    SELECT tsq, context_words(%(context_id)s, tsq) AS in_context
    FROM websearch_to_tsquery('english', %(query)s) AS tsq
),
matches AS (
    SELECT r.id, r.tsv
    FROM memory_record r, query
    WHERE r.context_id = %(context_id)s
      AND (r.tsv || context_lexeme(r.context_id)) @@ query.in_context
      AND memory_block_reason(r.serving, r.review_disposition, r.expires_at, r.valid_to, now())
          IN ('superseded', 'invalidated')
      AND (cardinality(r.derived_from) = 0
           OR memory_sources_servable(r.context_id, r.derived_from, now()))
      AND memory_readable(r.scope_path, r.visibility, r.owner_subject, %(prefixes)s::text[],
                          %(subject)s)
      AND (%(kinds)s::text[] IS NULL OR r.kind = ANY(%(kinds)s::text[]))
      AND (%(categories)s::text[] IS NULL OR r.memory_category = ANY(%(categories)s::text[]))
    LIMIT %(match_cap)s
)
SELECT m.id, ts_rank(m.tsv, query.tsq, 32) AS score
FROM matches m, query
ORDER BY score DESC, m.id
LIMIT %(limit)s

-- recall_history_vector --
WITH eligible AS MATERIALIZED (
    SELECT r.id, e.embedding <=> %(vector)s AS distance
    FROM memory_record r
    JOIN memory_embedding e ON e.context_id = r.context_id AND e.record_id = r.id
    WHERE r.context_id = %(context_id)s
      AND e.revision = (SELECT max(revision) FROM memory_embedding x
                        WHERE x.context_id = r.context_id AND x.record_id = r.id)
      AND memory_block_reason(r.serving, r.review_disposition, r.expires_at, r.valid_to, now())
          IN ('superseded', 'invalidated')
      AND (cardinality(r.derived_from) = 0
           OR memory_sources_servable(r.context_id, r.derived_from, now()))
      AND memory_readable(r.scope_path, r.visibility, r.owner_subject, %(prefixes)s::text[],
                          %(subject)s)
      AND (%(kinds)s::text[] IS NULL OR r.kind = ANY(%(kinds)s::text[]))
      AND (%(categories)s::text[] IS NULL OR r.memory_category = ANY(%(categories)s::text[]))
)
SELECT id, 1 - distance AS score
FROM eligible
ORDER BY distance, id
LIMIT %(limit)s

-- recall_record_rows --
-- The final hits' rows, gated again (live, or history when asked for), with the gist of the
-- document a record was extracted from.
SELECT r.id, r.kind, r.revision, r.memory_category, r.body, r.content, r.scope_path,
       r.visibility, r.source_kind, r.source_ref, r.valid_from, r.valid_to, r.serving,
       r.entity_id, r.object_entity_id, r.attr_key, r.superseded_by, r.created_at,
       r.derived_from, d.gist AS source_gist
FROM memory_record r
LEFT JOIN document d ON r.source_kind = 'document' AND d.context_id = r.context_id
                    AND d.id = r.source_ref
WHERE r.context_id = %(context_id)s AND r.id = ANY(%(ids)s::uuid[])
  AND memory_readable(r.scope_path, r.visibility, r.owner_subject, %(prefixes)s::text[],
                      %(subject)s)
  AND (memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at, r.valid_to,
                       r.derived_from, now())
       OR (%(history)s
           AND memory_block_reason(r.serving, r.review_disposition, r.expires_at, r.valid_to,
                                   now()) IN ('superseded', 'invalidated')
           AND (cardinality(r.derived_from) = 0
                OR memory_sources_servable(r.context_id, r.derived_from, now()))))

-- recall_chunk_rows --
-- The final chunk hits' rows, with their document's gist (null for a turn's chunk).
SELECT c.id, c.turn_id, c.document_id, c.text, c.scope_path, c.visibility, c.created_at,
       d.gist AS source_gist
FROM chunk c
LEFT JOIN document d ON d.context_id = c.context_id AND d.id = c.document_id
WHERE c.context_id = %(context_id)s AND c.id = ANY(%(ids)s::uuid[])
  AND memory_block_reason(c.serving, NULL, NULL, NULL, now()) IS NULL
  AND memory_readable(c.scope_path, c.visibility, c.owner_subject, %(prefixes)s::text[],
                      %(subject)s)

-- recall_entities --
-- Servable entities by id or by normalised name, oldest first. A speaker's entity
-- (domain/speaker.py) is found by its own normalised name, and by a name it carries: its
-- display name or a served, readable name attribute (`names`: the name normalised as a
-- value and as a name; `name_keys`: NAME_KEYS).
SELECT r.id, r.kind, r.revision, r.memory_category, r.body, r.content, r.scope_path,
       r.visibility, r.source_kind, r.source_ref, r.valid_from, r.valid_to, r.serving,
       r.entity_id, r.object_entity_id, r.attr_key, r.superseded_by, r.created_at,
       r.derived_from
FROM memory_record r
WHERE r.context_id = %(context_id)s AND r.kind = 'entity'
  AND (r.id = %(id)s::uuid OR r.norm_name = %(norm_name)s::text
       OR (r.norm_name LIKE 'speaker:%%'
           AND (lower(r.content->>'name') = ANY(%(names)s::text[])
                OR EXISTS (
                    SELECT 1 FROM memory_record a
                    WHERE a.context_id = r.context_id AND a.entity_id = r.id
                      AND a.kind = 'attribute' AND a.attr_key = ANY(%(name_keys)s::text[])
                      AND a.norm_name = ANY(%(names)s::text[])
                      AND memory_readable(a.scope_path, a.visibility, a.owner_subject,
                                          %(prefixes)s::text[], %(subject)s)
                      AND memory_servable(a.context_id, a.serving, a.review_disposition,
                                          a.expires_at, a.valid_to, a.derived_from, now())))))
  AND memory_readable(r.scope_path, r.visibility, r.owner_subject, %(prefixes)s::text[],
                      %(subject)s)
  AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at, r.valid_to,
                      r.derived_from, now())
ORDER BY r.created_at, r.id
LIMIT 20

-- recall_profile_facts --
-- Facts from or about the entities; with history, the superseded ones too.
SELECT r.id, r.kind, r.revision, r.memory_category, r.body, r.content, r.scope_path,
       r.visibility, r.source_kind, r.source_ref, r.valid_from, r.valid_to, r.serving,
       r.entity_id, r.object_entity_id, r.attr_key, r.superseded_by, r.created_at,
       r.derived_from
FROM memory_record r
WHERE r.context_id = %(context_id)s
  AND (r.entity_id = ANY(%(ids)s::uuid[]) OR r.object_entity_id = ANY(%(ids)s::uuid[]))
  AND r.kind IN ('attribute', 'relation', 'action')
  AND memory_readable(r.scope_path, r.visibility, r.owner_subject, %(prefixes)s::text[],
                      %(subject)s)
  AND (memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at, r.valid_to,
                       r.derived_from, now())
       OR (%(history)s
           AND memory_block_reason(r.serving, r.review_disposition, r.expires_at, r.valid_to,
                                   now()) IN ('superseded', 'invalidated')
           AND (cardinality(r.derived_from) = 0
                OR memory_sources_servable(r.context_id, r.derived_from, now()))))
ORDER BY r.valid_from DESC, r.id DESC
LIMIT %(limit)s

-- recall_state --
-- The newest servable records of one kind.
SELECT r.id, r.kind, r.revision, r.memory_category, r.body, r.content, r.scope_path,
       r.visibility, r.source_kind, r.source_ref, r.valid_from, r.valid_to, r.serving,
       r.entity_id, r.object_entity_id, r.attr_key, r.superseded_by, r.created_at,
       r.derived_from
FROM memory_record r
WHERE r.context_id = %(context_id)s AND r.kind = %(kind)s
  AND memory_readable(r.scope_path, r.visibility, r.owner_subject, %(prefixes)s::text[],
                      %(subject)s)
  AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at, r.valid_to,
                      r.derived_from, now())
ORDER BY r.created_at DESC, r.id DESC
LIMIT %(limit)s

-- recall_count --
-- One upsert per request: every record returned to a client, once per request and day.
-- Its transaction commits without waiting for its WAL flush: set_config(..., true) turns
-- synchronous_commit off until that transaction ends (the statement's own in autocommit,
-- the pipeline's implicit one when it rides after a read), never for the session. A count
-- lost to a crash in the next few milliseconds costs hygiene one hit, and each read is
-- spared a disk flush. One statement where BEGIN / SET LOCAL / upsert / COMMIT were four.
-- Ids come sorted, so concurrent upserts lock rows in one order.
INSERT INTO recall_event (context_id, record_id, day, hits)
SELECT %(context_id)s, id, current_date, 1
FROM unnest(%(ids)s::uuid[]) AS id,
     (SELECT set_config('synchronous_commit', 'off', true)) AS no_flush
ON CONFLICT (context_id, record_id, day) DO UPDATE SET hits = recall_event.hits + 1

-- Reads as of a moment (`at`, migration 0029): the same lists and rows as above over
-- memory_as_of, each record as it stood then, behind the serving gate as it stood then
-- (memory_servable_at; history: memory_past_at) and the caller's present read access.
-- Exact scans of the Context's rows (no index knows a past state); `at` is never later
-- than now (retrieval/as_of.py).

-- recall_asof_lexical --
-- The live list (history false) or the superseded-then list (history true) at `at`.
WITH query AS (SELECT websearch_to_tsquery('english', %(query)s) AS tsq),
matches AS (
    SELECT r.id, r.tsv
    FROM memory_as_of(%(context_id)s, %(at)s) r, query
    WHERE numnode(query.tsq) > 0 AND r.tsv @@ query.tsq
      AND CASE WHEN %(history)s
               THEN memory_past_at(r.context_id, r.serving, r.review_disposition, r.expires_at,
                                   r.valid_to, r.derived_from, r.known, %(at)s)
               ELSE memory_servable_at(r.context_id, r.serving, r.review_disposition,
                                       r.expires_at, r.valid_to, r.derived_from, r.known,
                                       %(at)s) END
      AND memory_readable(r.scope_path, r.visibility, r.owner_subject, %(prefixes)s::text[],
                          %(subject)s)
      AND (%(kinds)s::text[] IS NULL OR r.kind = ANY(%(kinds)s::text[]))
      AND (%(categories)s::text[] IS NULL OR r.memory_category = ANY(%(categories)s::text[]))
    LIMIT %(match_cap)s
)
SELECT m.id, ts_rank(m.tsv, query.tsq, 32) AS score
FROM matches m, query
ORDER BY score DESC, m.id
LIMIT %(limit)s

-- recall_asof_vector --
-- The vector of the revision current then: the row's own when that revision is still the
-- present one, else the revision's in memory_embedding if it had been attached by then,
-- looked up only for a past state (OFFSET 0 keeps the lateral a subquery, so its
-- condition on `past` gates the lookup instead of filtering after it).
SELECT r.id, 1 - (coalesce(r.embedding, e.embedding) <=> %(vector)s) AS score
FROM memory_as_of(%(context_id)s, %(at)s) r
LEFT JOIN LATERAL (
    SELECT e.embedding FROM memory_embedding e
    WHERE r.past AND e.context_id = %(context_id)s AND e.record_id = r.id
      AND e.revision = r.revision AND e.created_at <= %(at)s
    OFFSET 0) e ON true
WHERE coalesce(r.embedding, e.embedding) IS NOT NULL
  AND CASE WHEN %(history)s
           THEN memory_past_at(r.context_id, r.serving, r.review_disposition, r.expires_at,
                               r.valid_to, r.derived_from, r.known, %(at)s)
           ELSE memory_servable_at(r.context_id, r.serving, r.review_disposition, r.expires_at,
                                   r.valid_to, r.derived_from, r.known, %(at)s) END
  AND memory_readable(r.scope_path, r.visibility, r.owner_subject, %(prefixes)s::text[],
                      %(subject)s)
  AND (%(kinds)s::text[] IS NULL OR r.kind = ANY(%(kinds)s::text[]))
  AND (%(categories)s::text[] IS NULL OR r.memory_category = ANY(%(categories)s::text[]))
ORDER BY score DESC, r.id
LIMIT %(limit)s

-- recall_asof_chunks_lexical --
-- Chunks written by then and served then: a chunk's only change is a hold's release
-- (release_held_chunks), dated by its judgement's decision; an erased chunk is gone.
WITH query AS (
    SELECT tsq, context_words(%(context_id)s, tsq) AS in_context
    FROM websearch_to_tsquery('english', %(query)s) AS tsq
),
matches AS (
    SELECT c.id, c.tsv
    FROM chunk c, query
    WHERE c.context_id = %(context_id)s
      AND (c.tsv || context_lexeme(c.context_id)) @@ query.in_context
      AND c.created_at <= %(at)s
      AND memory_block_reason(c.serving, NULL, NULL, NULL, %(at)s) IS NULL
      AND NOT EXISTS (SELECT 1 FROM judgement j
                      WHERE j.context_id = c.context_id AND j.id = c.hold_judgement_id
                        AND j.held AND (j.hold_decided_at IS NULL OR j.hold_decided_at > %(at)s))
      AND memory_readable(c.scope_path, c.visibility, c.owner_subject, %(prefixes)s::text[],
                          %(subject)s)
    LIMIT %(match_cap)s
)
SELECT m.id, ts_rank(m.tsv, query.tsq, 32) AS score
FROM matches m, query
ORDER BY score DESC, m.id
LIMIT %(limit)s

-- recall_asof_chunks_vector --
SELECT c.id, 1 - (c.embedding <=> %(vector)s) AS score
FROM chunk c
WHERE c.context_id = %(context_id)s AND c.embedding IS NOT NULL
  AND c.created_at <= %(at)s
  AND memory_block_reason(c.serving, NULL, NULL, NULL, %(at)s) IS NULL
  AND NOT EXISTS (SELECT 1 FROM judgement j
                  WHERE j.context_id = c.context_id AND j.id = c.hold_judgement_id
                    AND j.held AND (j.hold_decided_at IS NULL OR j.hold_decided_at > %(at)s))
  AND memory_readable(c.scope_path, c.visibility, c.owner_subject, %(prefixes)s::text[],
                      %(subject)s)
ORDER BY c.embedding <=> %(vector)s, c.id
LIMIT %(limit)s

-- recall_asof_record_rows --
-- The final hits as they stood at `at`, gated again at `at`.
SELECT r.id, r.kind, r.revision, r.memory_category, r.body, r.content, r.scope_path,
       r.visibility, r.source_kind, r.source_ref, r.valid_from, r.valid_to, r.serving,
       r.entity_id, r.object_entity_id, r.attr_key, r.superseded_by, r.created_at,
       r.derived_from, d.gist AS source_gist
FROM memory_as_of(%(context_id)s, %(at)s) r
LEFT JOIN document d ON r.source_kind = 'document' AND d.context_id = %(context_id)s
                    AND d.id = r.source_ref
WHERE r.id = ANY(%(ids)s::uuid[])
  AND memory_readable(r.scope_path, r.visibility, r.owner_subject, %(prefixes)s::text[],
                      %(subject)s)
  AND (memory_servable_at(r.context_id, r.serving, r.review_disposition, r.expires_at,
                          r.valid_to, r.derived_from, r.known, %(at)s)
       OR (%(history)s
           AND memory_past_at(r.context_id, r.serving, r.review_disposition, r.expires_at,
                              r.valid_to, r.derived_from, r.known, %(at)s)))

-- recall_asof_chunk_rows --
SELECT c.id, c.turn_id, c.document_id, c.text, c.scope_path, c.visibility, c.created_at,
       d.gist AS source_gist
FROM chunk c
LEFT JOIN document d ON d.context_id = c.context_id AND d.id = c.document_id
WHERE c.context_id = %(context_id)s AND c.id = ANY(%(ids)s::uuid[])
  AND c.created_at <= %(at)s
  AND memory_block_reason(c.serving, NULL, NULL, NULL, %(at)s) IS NULL
  AND NOT EXISTS (SELECT 1 FROM judgement j
                  WHERE j.context_id = c.context_id AND j.id = c.hold_judgement_id
                    AND j.held AND (j.hold_decided_at IS NULL OR j.hold_decided_at > %(at)s))
  AND memory_readable(c.scope_path, c.visibility, c.owner_subject, %(prefixes)s::text[],
                      %(subject)s)

-- recall_asof_entities --
-- recall_entities at `at`: names and name attributes as they stood then.
SELECT r.id, r.kind, r.revision, r.memory_category, r.body, r.content, r.scope_path,
       r.visibility, r.source_kind, r.source_ref, r.valid_from, r.valid_to, r.serving,
       r.entity_id, r.object_entity_id, r.attr_key, r.superseded_by, r.created_at,
       r.derived_from
FROM memory_as_of(%(context_id)s, %(at)s) r
WHERE r.kind = 'entity'
  AND (r.id = %(id)s::uuid OR r.norm_name = %(norm_name)s::text
       OR (r.norm_name LIKE 'speaker:%%'
           AND (lower(r.content->>'name') = ANY(%(names)s::text[])
                OR EXISTS (
                    SELECT 1 FROM memory_as_of(%(context_id)s, %(at)s) a
                    WHERE a.entity_id = r.id
                      AND a.kind = 'attribute' AND a.attr_key = ANY(%(name_keys)s::text[])
                      AND a.norm_name = ANY(%(names)s::text[])
                      AND memory_readable(a.scope_path, a.visibility, a.owner_subject,
                                          %(prefixes)s::text[], %(subject)s)
                      AND memory_servable_at(a.context_id, a.serving, a.review_disposition,
                                             a.expires_at, a.valid_to, a.derived_from,
                                             a.known, %(at)s)))))
  AND memory_readable(r.scope_path, r.visibility, r.owner_subject, %(prefixes)s::text[],
                      %(subject)s)
  AND memory_servable_at(r.context_id, r.serving, r.review_disposition, r.expires_at,
                         r.valid_to, r.derived_from, r.known, %(at)s)
ORDER BY r.created_at, r.id
LIMIT 20

-- recall_asof_profile_facts --
SELECT r.id, r.kind, r.revision, r.memory_category, r.body, r.content, r.scope_path,
       r.visibility, r.source_kind, r.source_ref, r.valid_from, r.valid_to, r.serving,
       r.entity_id, r.object_entity_id, r.attr_key, r.superseded_by, r.created_at,
       r.derived_from
FROM memory_as_of(%(context_id)s, %(at)s) r
WHERE (r.entity_id = ANY(%(ids)s::uuid[]) OR r.object_entity_id = ANY(%(ids)s::uuid[]))
  AND r.kind IN ('attribute', 'relation', 'action')
  AND memory_readable(r.scope_path, r.visibility, r.owner_subject, %(prefixes)s::text[],
                      %(subject)s)
  AND (memory_servable_at(r.context_id, r.serving, r.review_disposition, r.expires_at,
                          r.valid_to, r.derived_from, r.known, %(at)s)
       OR (%(history)s
           AND memory_past_at(r.context_id, r.serving, r.review_disposition, r.expires_at,
                              r.valid_to, r.derived_from, r.known, %(at)s)))
ORDER BY r.valid_from DESC, r.id DESC
LIMIT %(limit)s

-- recall_asof_state --
SELECT r.id, r.kind, r.revision, r.memory_category, r.body, r.content, r.scope_path,
       r.visibility, r.source_kind, r.source_ref, r.valid_from, r.valid_to, r.serving,
       r.entity_id, r.object_entity_id, r.attr_key, r.superseded_by, r.created_at,
       r.derived_from
FROM memory_as_of(%(context_id)s, %(at)s) r
WHERE r.kind = %(kind)s
  AND memory_readable(r.scope_path, r.visibility, r.owner_subject, %(prefixes)s::text[],
                      %(subject)s)
  AND memory_servable_at(r.context_id, r.serving, r.review_disposition, r.expires_at,
                         r.valid_to, r.derived_from, r.known, %(at)s)
ORDER BY r.created_at DESC, r.id DESC
LIMIT %(limit)s
