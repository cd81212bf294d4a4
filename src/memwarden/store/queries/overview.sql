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

-- overview_verdicts_per_day --
-- Review-log entries per UTC day, verdict and reason code ('none' for an entry without
-- one); an entry with two reasons counts under each.
SELECT (j.created_at AT TIME ZONE 'UTC')::date AS day, j.verdict, reason,
       count(*)::int AS entries
FROM judgement j
CROSS JOIN LATERAL unnest(
    CASE WHEN cardinality(j.reasons) = 0 THEN ARRAY['none'] ELSE j.reasons END
) AS reason
WHERE j.context_id = %(context_id)s AND j.created_at >= %(since)s
GROUP BY 1, 2, 3
ORDER BY 1, 2, 3;
