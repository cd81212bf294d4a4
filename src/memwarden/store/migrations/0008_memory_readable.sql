-- The read-access predicate, once: a row is readable by a caller when one of the caller's
-- read prefixes covers its scope path (scope_covers, segment by segment; '' covers all)
-- and it is shared or the caller owns it. Every read in recall.sql, search.sql and chat.sql
-- calls it, as they call memory_servable.
--
-- The body has no sub-select, so the planner inlines it into each query (a SQL function
-- with a sub-select is called per row instead, about 3x slower here): "some prefix p
-- covers path" is written as "path || '/' starts with some p || '/'", which is the same
-- test (path = p, or path starts with p || '/'), with the p || '/' list built from the
-- array by joining on a separator no scope segment can hold (U+001F) and splitting again.
-- An empty prefix list reads nothing. STABLE because array_to_string is.
CREATE FUNCTION memory_readable(
    scope_path text,
    visibility text,
    owner_subject text,
    prefixes text[],
    subject text
) RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT (visibility = 'shared' OR owner_subject = subject)
       AND cardinality(prefixes) > 0
       AND ('' = ANY(prefixes)
            OR (scope_path || '/') ^@ ANY(
                string_to_array(array_to_string(prefixes, E'/\x1f') || '/', E'\x1f')))
$$;
