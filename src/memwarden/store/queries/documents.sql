-- doc_insert --
INSERT INTO document (context_id, id, principal_id, filename, content_type, size_bytes,
                      storage_path, scope_path, visibility, owner_subject)
VALUES (%(context_id)s, %(id)s, %(principal_id)s, %(filename)s, %(content_type)s,
        %(size_bytes)s, %(storage_path)s, %(scope_path)s, %(visibility)s, %(owner_subject)s)
RETURNING id, filename, content_type, size_bytes, status, created_at

-- doc_lock_queue --
-- One upload of a Context at a time reads and adds to its queued bytes (the pending budget).
SELECT pg_advisory_xact_lock(hashtextextended('document_queue:' || %(context_id)s::text, 0))

-- doc_pending_bytes --
-- The originals of the Context's documents that no worker has finished (document_unprocessed).
SELECT coalesce(sum(size_bytes), 0)::bigint AS bytes
FROM document
WHERE context_id = %(context_id)s AND status IN ('pending', 'processing')

-- doc_get --
SELECT id, principal_id, filename, content_type, size_bytes, storage_path, status,
       failure_code, failure_reasons, scope_path, visibility, owner_subject, created_at,
       updated_at, length(parsed_text) AS text_chars, extraction_windows, extraction_failed,
       gist, (SELECT count(*) FROM chunk c
        WHERE c.context_id = d.context_id AND c.document_id = d.id) AS chunks
FROM document d
WHERE context_id = %(context_id)s AND id = %(id)s

-- doc_get_for_update --
SELECT id, principal_id, filename, content_type, storage_path, status, scope_path,
       visibility, owner_subject
FROM document WHERE context_id = %(context_id)s AND id = %(id)s FOR UPDATE

-- doc_list --
SELECT id, filename, content_type, size_bytes, status, failure_code, failure_reasons,
       scope_path, visibility, owner_subject, created_at, updated_at, extraction_windows,
       extraction_failed, gist
FROM document
WHERE context_id = %(context_id)s
  AND (%(before)s::uuid IS NULL OR id < %(before)s::uuid)
ORDER BY id DESC
LIMIT %(limit)s

-- doc_get_for_reprocess --
SELECT id, status, parsed_text, scope_path, visibility, owner_subject, extraction_windows,
       extraction_failed
FROM document WHERE context_id = %(context_id)s AND id = %(id)s

-- doc_set_status --
UPDATE document
SET status = %(status)s, failure_code = %(failure_code)s,
    failure_reasons = %(failure_reasons)s, updated_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s

-- doc_finish --
UPDATE document
SET status = 'processed', parsed_text = %(parsed_text)s, storage_path = NULL,
    failure_code = NULL, failure_reasons = '{}', updated_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s

-- doc_fail_forgetting --
UPDATE document
SET status = 'failed', failure_code = %(failure_code)s, failure_reasons = '{}',
    storage_path = NULL, parsed_text = NULL, filename = '', size_bytes = 0, updated_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s

-- doc_allow_forgetting_audit --
SELECT set_config('memwarden.forget_denied', 'on', true)

-- doc_forget_audit --
DELETE FROM audit_event WHERE context_id = %(context_id)s AND target_id = %(id)s

-- doc_insert_chunk --
INSERT INTO chunk (context_id, id, document_id, ordinal, text, embedding, scope_path,
                   visibility, owner_subject)
VALUES (%(context_id)s, %(id)s, %(document_id)s, %(ordinal)s, %(text)s, %(embedding)s,
        %(scope_path)s, %(visibility)s, %(owner_subject)s)

-- doc_delete_chunks --
DELETE FROM chunk WHERE context_id = %(context_id)s AND document_id = %(id)s

-- doc_delete --
DELETE FROM document WHERE context_id = %(context_id)s AND id = %(id)s

-- doc_retire_records --
UPDATE memory_record
SET serving = 'deleted', deleted_at = now(), revision = revision + 1, embedding = NULL,
    embedding_revision = NULL, modified_at = now()
WHERE context_id = %(context_id)s AND source_kind = 'document' AND source_ref = %(id)s
  AND serving <> 'deleted'
RETURNING id, revision

-- doc_stale_pending --
SELECT context_id, id FROM document
WHERE status = 'pending' AND created_at < now() - make_interval(secs => %(older_than_s)s)
ORDER BY created_at
LIMIT 500
