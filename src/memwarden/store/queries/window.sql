-- Recall over a chunk and the chunk before it in its thread: the turn before it in its
-- session, or the piece before it in its document (retrieval/fusion.py says why). A
-- neighbour is only ever a chunk the caller may read that is served now: a held chunk is
-- none, an erased turn's chunks are gone, and nothing is stored for a window, so an
-- imported Context (same sessions, same turns) ranks as its source does.

-- recall_chunks_vector_window --
-- The nearest servable chunks of a Context without its own chunk index (as
-- recall_chunks_vector_exact), each scored by the cosine of the query with its embedding
-- plus the previous chunk's: the direction of their mean, which is close to the
-- embedding of the two texts together (measured on LoCoMo, docs/benchmarks.md).
WITH live AS MATERIALIZED (
    SELECT c.id, c.embedding, c.turn_id, c.ordinal,
           coalesce(t.session_id, c.document_id) AS thread
    FROM chunk c
    LEFT JOIN turn t ON t.context_id = c.context_id AND t.id = c.turn_id
    WHERE c.context_id = %(context_id)s AND c.embedding IS NOT NULL
      AND memory_block_reason(c.serving, NULL, NULL, NULL, now()) IS NULL
      AND memory_readable(c.scope_path, c.visibility, c.owner_subject, %(prefixes)s::text[],
                          %(subject)s)
),
paired AS (
    SELECT id, embedding,
           lag(embedding) OVER (PARTITION BY thread ORDER BY turn_id, ordinal, id) AS before
    FROM live
)
SELECT id,
       1 - ((CASE WHEN before IS NULL THEN embedding ELSE embedding + before END)
            <=> %(vector)s) AS score
FROM paired
ORDER BY score DESC, id
LIMIT %(limit)s

-- recall_chunks_lexical_window --
-- Full-text over a chunk's words and the previous chunk's together, ranked by ts_rank as
-- recall_chunks_lexical: a reply ("Researching adoption agencies") is found by the words
-- of the question before it. The GIN index finds the matching chunks (capped as
-- recall_chunks_lexical); only the threads holding one are read, and of those the chunks
-- that match or follow a match are ranked.
WITH query AS (
    SELECT tsq, context_words(%(context_id)s, tsq) AS in_context
    FROM websearch_to_tsquery('english', %(query)s) AS tsq
),
hit AS MATERIALIZED (
    SELECT c.turn_id, c.document_id
    FROM chunk c, query
    WHERE c.context_id = %(context_id)s
      AND (c.tsv || context_lexeme(c.context_id)) @@ query.in_context
      AND memory_block_reason(c.serving, NULL, NULL, NULL, now()) IS NULL
      AND memory_readable(c.scope_path, c.visibility, c.owner_subject, %(prefixes)s::text[],
                          %(subject)s)
    LIMIT %(match_cap)s
),
threads AS MATERIALIZED (
    SELECT DISTINCT t.session_id AS thread
    FROM turn t
    WHERE t.context_id = %(context_id)s AND t.id IN (SELECT turn_id FROM hit)
    UNION
    SELECT DISTINCT document_id FROM hit WHERE document_id IS NOT NULL
),
live AS (
    SELECT c.id, c.tsv, c.turn_id, c.ordinal, coalesce(t.session_id, c.document_id) AS thread
    FROM chunk c
    LEFT JOIN turn t ON t.context_id = c.context_id AND t.id = c.turn_id
    WHERE c.context_id = %(context_id)s
      AND coalesce(t.session_id, c.document_id) IN (SELECT thread FROM threads)
      AND memory_block_reason(c.serving, NULL, NULL, NULL, now()) IS NULL
      AND memory_readable(c.scope_path, c.visibility, c.owner_subject, %(prefixes)s::text[],
                          %(subject)s)
),
paired AS (
    SELECT id,
           coalesce(lag(tsv) OVER (PARTITION BY thread ORDER BY turn_id, ordinal, id),
                    ''::tsvector) || tsv AS words
    FROM live
)
SELECT p.id, ts_rank(p.words, query.tsq, 32) AS score
FROM paired p, query
WHERE p.words @@ query.tsq
ORDER BY score DESC, p.id
LIMIT %(limit)s
