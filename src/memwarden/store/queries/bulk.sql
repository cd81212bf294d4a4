-- Bulk loading for benchmarks and capacity tests (store/bulk.py): binary COPY of records
-- that already carry their current revision's vector. Never on a request path: these rows
-- skip the gates, the reconciliation and the audit trail by design.

-- bulk_copy_records --
COPY memory_record (context_id, id, kind, memory_category, owner_subject, content, body,
                    author_subject, source_kind, embedding, embedding_revision)
FROM STDIN WITH (FORMAT BINARY)

-- bulk_copy_embeddings --
COPY memory_embedding (context_id, record_id, revision, embedding, model)
FROM STDIN WITH (FORMAT BINARY)

-- bulk_insert_turn --
WITH s AS (
    INSERT INTO session (context_id, id, principal_id)
    VALUES (%(context_id)s, %(session_id)s, %(principal_id)s)
    RETURNING context_id, id, principal_id
)
INSERT INTO turn (context_id, id, session_id, principal_id, text, owner_subject)
SELECT s.context_id, %(turn_id)s, s.id, s.principal_id, 'bulk', %(owner)s FROM s

-- bulk_copy_chunks --
COPY chunk (context_id, id, turn_id, text, embedding, owner_subject)
FROM STDIN WITH (FORMAT BINARY)
