-- Full-text indexes that lead with the Context. The GIN indexes on `tsv` alone held every
-- Context's rows, so a common word's posting list was read in full for every Context's
-- query (at 1,000,000 memories over 100 Contexts, three common words match about 165,000
-- rows, a hundred times the caller's share). Each row's document now also carries one
-- lexeme naming its Context, and the queries ask for it beside their words: GIN then walks
-- the rarest list (a small Context's own) and skips through the words' lists to it.
-- The lexeme starts with '_', which the text-search parser never emits, so no word of a
-- text can name a Context; and the queries keep their `context_id =` filter regardless.
-- Ranking reads `tsv` as before, so scores do not change.
CREATE FUNCTION context_lexeme(context_id uuid) RETURNS tsvector
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN ('_' || replace(context_id::text, '-', ''))::tsvector;

-- What a lexical statement asks the index for: its words and the Context's lexeme. A query
-- without words (stop words only) would ask for the lexeme alone and match every row of
-- the Context, so it asks for nothing (NULL: `@@` matches no row), as `tsv @@ ''` did.
CREATE FUNCTION context_words(context_id uuid, words tsquery) RETURNS tsquery
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN CASE WHEN numnode(words) > 0
                THEN words && ('_' || replace(context_id::text, '-', ''))::tsquery END;

CREATE INDEX memory_record_context_tsv ON memory_record
    USING gin ((tsv || context_lexeme(context_id))) WITH (fastupdate = off);
CREATE INDEX chunk_context_tsv ON chunk
    USING gin ((tsv || context_lexeme(context_id))) WITH (fastupdate = off);
DROP INDEX memory_record_tsv;
DROP INDEX chunk_tsv;
