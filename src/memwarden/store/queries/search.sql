-- Search over memory records. Every candidate set is filtered by the serving gate
-- (memory_servable) and the read-access predicate (memory_readable: the caller's read
-- prefixes and private ownership) BEFORE ranking, so ineligible rows never enter ranking,
-- vector candidates or fusion.

-- search_lexical --
-- Matches are capped before ts_rank scores them (full-text cost grows with matches). ts_rank,
-- not ts_rank_cd: it favours rows holding more of the query's words over rows repeating
-- one, and costs less per row (docs/benchmarks.md, "Full-text ranking").
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
      AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at,
                          r.valid_to, r.derived_from, now())
      AND memory_readable(r.scope_path, r.visibility, r.owner_subject, %(prefixes)s::text[],
                          %(subject)s)
      AND (%(visibility)s::text IS NULL OR r.visibility = %(visibility)s::text)
      AND (%(kinds)s::text[] IS NULL OR r.kind = ANY(%(kinds)s::text[]))
      AND (%(categories)s::text[] IS NULL OR r.memory_category = ANY(%(categories)s::text[]))
    LIMIT %(match_cap)s
)
SELECT m.id, ts_rank(m.tsv, query.tsq, 32) AS score
FROM matches m, query
ORDER BY score DESC, m.id
LIMIT %(limit)s

-- search_vector --
-- The nearest eligible records of a Context with its own HNSW index (store/vector_index.py;
-- a Context without one takes search_vector_exact). `nearest` walks that index with
-- pgvector's iterative scan. Should the walk end with fewer than `limit`
-- rows (it stops after hnsw.max_scan_tuples), `exact` scans every eligible row instead, so a
-- filter never leaves fewer hits than there are eligible rows. Only an embedding of the
-- record's current revision is a candidate (embedding_revision = revision, 0005).
-- Planned per call, never as a generic plan: a partial index matches only a known Context.
WITH nearest AS MATERIALIZED (
    SELECT r.id, r.distance
    FROM (SELECT r.id, r.embedding <=> %(vector)s AS distance, r.context_id, r.serving,
                 r.review_disposition, r.expires_at, r.valid_to, r.derived_from, r.scope_path,
                 r.visibility, r.owner_subject, r.kind, r.memory_category,
                 r.embedding_revision, r.revision
          FROM memory_record r
          WHERE r.context_id = %(context_id)s AND r.embedding IS NOT NULL
          ORDER BY r.embedding <=> %(vector)s
          LIMIT %(limit)s * 4) r
    WHERE r.embedding_revision = r.revision
    AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at,
                        r.valid_to, r.derived_from, now())
    AND memory_readable(r.scope_path, r.visibility, r.owner_subject,
                        %(prefixes)s::text[], %(subject)s)
    AND (%(visibility)s::text IS NULL OR r.visibility = %(visibility)s::text)
    AND (%(kinds)s::text[] IS NULL OR r.kind = ANY(%(kinds)s::text[]))
    AND (%(categories)s::text[] IS NULL OR r.memory_category = ANY(%(categories)s::text[]))
    ORDER BY r.distance
    LIMIT %(limit)s
),
enough AS (SELECT count(*) >= %(limit)s AS ok FROM nearest),
exact AS MATERIALIZED (
    SELECT r.id, r.embedding <=> %(vector)s AS distance
    FROM memory_record r
    WHERE r.context_id = %(context_id)s
    AND r.embedding IS NOT NULL AND r.embedding_revision = r.revision
    AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at,
                        r.valid_to, r.derived_from, now())
    AND memory_readable(r.scope_path, r.visibility, r.owner_subject,
                        %(prefixes)s::text[], %(subject)s)
    AND (%(visibility)s::text IS NULL OR r.visibility = %(visibility)s::text)
    AND (%(kinds)s::text[] IS NULL OR r.kind = ANY(%(kinds)s::text[]))
    AND (%(categories)s::text[] IS NULL OR r.memory_category = ANY(%(categories)s::text[]))
    AND NOT (SELECT ok FROM enough)
)
SELECT id, 1 - distance AS score
FROM (SELECT id, distance FROM nearest WHERE (SELECT ok FROM enough)
      UNION ALL
      SELECT id, distance FROM exact) found
ORDER BY distance, id
LIMIT %(limit)s

-- search_vector_exact --
-- The nearest eligible records of a Context that has no index of its own
-- (store/vector_index.py): its eligible rows scanned exactly. Prepared: one generic plan
-- (an index range scan on the Context) serves every small Context alike.
SELECT r.id, 1 - (r.embedding <=> %(vector)s) AS score
FROM memory_record r
WHERE r.context_id = %(context_id)s
  AND r.embedding IS NOT NULL AND r.embedding_revision = r.revision
  AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at,
                      r.valid_to, r.derived_from, now())
  AND memory_readable(r.scope_path, r.visibility, r.owner_subject, %(prefixes)s::text[],
                      %(subject)s)
  AND (%(visibility)s::text IS NULL OR r.visibility = %(visibility)s::text)
  AND (%(kinds)s::text[] IS NULL OR r.kind = ANY(%(kinds)s::text[]))
  AND (%(categories)s::text[] IS NULL OR r.memory_category = ANY(%(categories)s::text[]))
ORDER BY r.embedding <=> %(vector)s, r.id
LIMIT %(limit)s

-- search_filter --
-- No query text and no vector: the newest eligible records.
SELECT r.id, NULL::double precision AS score
FROM memory_record r
WHERE r.context_id = %(context_id)s
  AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at,
                      r.valid_to, r.derived_from, now())
  AND memory_readable(r.scope_path, r.visibility, r.owner_subject, %(prefixes)s::text[],
                      %(subject)s)
  AND (%(visibility)s::text IS NULL OR r.visibility = %(visibility)s::text)
  AND (%(kinds)s::text[] IS NULL OR r.kind = ANY(%(kinds)s::text[]))
  AND (%(categories)s::text[] IS NULL OR r.memory_category = ANY(%(categories)s::text[]))
ORDER BY r.modified_at DESC, r.id DESC
LIMIT %(limit)s

-- fetch_search_hits --
-- The ranked ids' records, gated again (a decision may have committed meanwhile).
SELECT r.id, r.revision, r.kind, r.memory_category, r.content, r.body, r.scope_path,
       r.visibility, r.owner_subject, r.author_subject, r.expires_at, r.created_at,
       r.modified_at, r.review_revision, r.review_receipt_id, r.source_kind, r.derived_from,
       rc.disposition AS receipt_disposition, rc.reviewer_subject AS receipt_reviewer,
       rc.decided_at AS receipt_decided_at, rc.revision AS receipt_revision
FROM memory_record r
LEFT JOIN review_receipt rc ON rc.context_id = r.context_id AND rc.id = r.review_receipt_id
WHERE r.context_id = %(context_id)s AND r.id = ANY(%(ids)s::uuid[])
  AND memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at, r.valid_to,
                      r.derived_from, now())
  AND memory_readable(r.scope_path, r.visibility, r.owner_subject, %(prefixes)s::text[],
                      %(subject)s)

-- search_snapshot --
-- The first statement of a search's transaction: every candidate query and the final fetch
-- see one snapshot, so a search reflects a decision wholly or not at all.
SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY
