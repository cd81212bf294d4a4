-- The replacement rule's view of records (domain/replacement.py): whether each is served
-- now, where it lives, who owns it, and every record it was built from (derived_from,
-- followed as memory_sources_servable follows it, 16 levels at most). The rows are share-
-- locked, so a replacement cannot stop being served between the check and the commit.
-- The walk binds the Context itself: Citus plans a recursive CTE only with a filter on
-- the distribution column in it, and does not carry r's pin into it.

-- replacement_holders --
SELECT r.id, r.scope_path, r.visibility, r.owner_subject, r.source_kind,
       memory_servable(r.context_id, r.serving, r.review_disposition, r.expires_at,
                       r.valid_to, r.derived_from, now()) AS served,
       coalesce((
           WITH RECURSIVE walk(id, depth) AS (
               SELECT s, 1 FROM unnest(r.derived_from) AS s
               UNION
               SELECT d, w.depth + 1
               FROM walk w
               JOIN memory_record x ON x.context_id = %(context_id)s AND x.id = w.id
               CROSS JOIN LATERAL unnest(x.derived_from) AS d
               WHERE w.depth < 16
           )
           SELECT array_agg(DISTINCT walk.id) FROM walk
       ), '{}') AS sources
FROM memory_record r
WHERE r.context_id = %(context_id)s AND r.id = ANY(%(ids)s)
ORDER BY r.id
FOR SHARE OF r
