-- Extraction outcomes: which windows of a turn or document failed, and the per-day counters
-- GET /usage reads (migration 0010).

-- extraction_set_turn --
UPDATE turn
SET extraction_windows = %(windows)s, extraction_failed = %(failed)s
WHERE context_id = %(context_id)s AND id = %(id)s

-- extraction_set_document --
UPDATE document
SET extraction_windows = %(windows)s, extraction_failed = %(failed)s
WHERE context_id = %(context_id)s AND id = %(id)s

-- extraction_book --
INSERT INTO extraction_usage (context_id, day, source_kind, windows_run, windows_failed,
                              dropped_chars, dropped_bytes)
VALUES (%(context_id)s, current_date, %(source_kind)s, %(windows_run)s, %(windows_failed)s,
        %(dropped_chars)s, %(dropped_bytes)s)
ON CONFLICT (context_id, day, source_kind) DO UPDATE
SET windows_run = extraction_usage.windows_run + EXCLUDED.windows_run,
    windows_failed = extraction_usage.windows_failed + EXCLUDED.windows_failed,
    dropped_chars = extraction_usage.dropped_chars + EXCLUDED.dropped_chars,
    dropped_bytes = extraction_usage.dropped_bytes + EXCLUDED.dropped_bytes

-- extraction_usage_since --
SELECT source_kind, sum(windows_run)::bigint AS windows_run,
       sum(windows_failed)::bigint AS windows_failed,
       sum(dropped_chars)::bigint AS dropped_chars, sum(dropped_bytes)::bigint AS dropped_bytes
FROM extraction_usage
WHERE context_id = %(context_id)s AND day >= %(since)s
GROUP BY source_kind
ORDER BY source_kind

-- extraction_get_turn --
SELECT id, text, scope_path, visibility, owner_subject, serving, extraction_windows,
       extraction_failed, speaker
FROM turn WHERE context_id = %(context_id)s AND id = %(id)s
