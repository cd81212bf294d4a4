-- Counts for the dashboard's overview: never content, only how many of what.

-- overview_memory_counts --
-- Every memory record of the Context by kind and serving state (held, rejected, deleted
-- and superseded included: the overview says how many are not served, and why).
SELECT kind, serving::text AS serving, count(*)::int AS records
FROM memory_record
WHERE context_id = %(context_id)s
GROUP BY kind, serving
ORDER BY kind, serving;

-- overview_recall_per_day --
-- Recall traffic: records returned to clients per day (recall_count books each record
-- once per request and day), and how many distinct records that was.
SELECT day, sum(hits)::int AS hits, count(*)::int AS records
FROM recall_event
WHERE context_id = %(context_id)s AND day >= %(since)s
GROUP BY day
ORDER BY day;
