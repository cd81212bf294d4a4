-- Recovering what a dead worker held (jobs/recovery.py, docs/reliability.md#a-worker-that-dies).
-- A worker of this process registers in procrastinate's own table and, in the same
-- statement, takes a session advisory lock (class `ns`, its worker id) on a connection it
-- keeps for its life: the lock goes when the process does, however it ends, so a worker
-- whose lock is gone and whose heartbeat is late is dead, and one still holding it is not.
-- procrastinate's tables stay on the coordinator of a cluster (docs/scale.md), so no block
-- here joins them with a table of Context data.

-- worker_register_locked --
WITH w AS (SELECT worker_id FROM procrastinate_register_worker_v1())
SELECT w.worker_id, pg_advisory_lock(%(ns)s, (w.worker_id %% 2147483648)::int)::text AS locked
FROM w

-- worker_relock --
-- The same lock again, on a new session after the old one was lost (false while the old
-- session still holds it: the lock is held either way, so nothing waits).
SELECT pg_try_advisory_lock(%(ns)s, (%(worker_id)s::bigint %% 2147483648)::int) AS locked

-- worker_heartbeat --
-- procrastinate's heartbeat, sent on the session that holds the lock.
SELECT procrastinate_update_heartbeat_v1(%(worker_id)s)::text AS beat

-- worker_doing_jobs --
-- Every job in `doing`, with how its worker stands: `dead` (no worker row, a heartbeat
-- older than `stale_s`, or no lock and a heartbeat older than `grace_s`), `live` (its lock
-- is held) or `suspect` (no lock, a recent heartbeat: a worker of an older memwarden, or one
-- that died less than `grace_s` ago; looked at again later, never taken).
SELECT j.id, j.task_name, j.args, j.attempts, j.worker_id,
       extract(epoch FROM now() - w.last_heartbeat)::float8 AS heartbeat_age_s,
       CASE
           WHEN w.id IS NULL THEN 'dead'
           WHEN w.last_heartbeat < now() - make_interval(secs => %(stale_s)s) THEN 'dead'
           WHEN EXISTS (
               SELECT 1 FROM pg_locks l
               WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
                 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                 AND l.classid = %(ns)s::int::oid
                 AND l.objid = ((w.id %% 2147483648)::int)::oid
           ) THEN 'live'
           WHEN w.last_heartbeat < now() - make_interval(secs => %(grace_s)s) THEN 'dead'
           ELSE 'suspect'
       END AS liveness
FROM procrastinate_jobs j
LEFT JOIN procrastinate_workers w ON w.id = j.worker_id
WHERE j.status = 'doing'
ORDER BY j.id

-- worker_retry_dead_job --
-- A dead worker's job back to `todo`, only while it is still `doing` for that worker (a
-- process that read an older picture, or lost the race to another one recovering, changes
-- nothing), held `hold_s` in the future until what it had open is put right and it is
-- released (`worker_release_job`); if the recovering process dies first, it runs then.
WITH claimed AS MATERIALIZED (
    SELECT id FROM procrastinate_jobs
    WHERE id = %(id)s AND status = 'doing' AND worker_id IS NOT DISTINCT FROM %(worker_id)s
    FOR UPDATE
)
SELECT id, procrastinate_retry_job_v2(
    id, now() + make_interval(secs => %(hold_s)s), NULL, NULL, NULL
)::text AS retried
FROM claimed

-- worker_release_job --
-- A retried job free to start now.
UPDATE procrastinate_jobs SET scheduled_at = now()
WHERE id = %(id)s AND status = 'todo'

-- worker_fail_dead_job --
-- The same claim, ending the job `failed` (it was retried as often as it may be).
WITH claimed AS MATERIALIZED (
    SELECT id FROM procrastinate_jobs
    WHERE id = %(id)s AND status = 'doing' AND worker_id IS NOT DISTINCT FROM %(worker_id)s
    FOR UPDATE
)
SELECT id, procrastinate_finish_job_v1(id, 'failed', false)::text AS failed
FROM claimed

-- worker_waiting_run_jobs --
-- The runs (of `task`) among `run_ids` that have a job waiting to start.
SELECT DISTINCT args->>'run_id' AS run_id
FROM procrastinate_jobs
WHERE status = 'todo' AND task_name = %(task)s AND args->>'run_id' = ANY(%(run_ids)s)

-- hygiene_open_full_runs --
-- Full cycles that may have lost their worker: running ones, and ones queued longer than
-- `queued_s` (their job lost between the request's commit and its enqueue, or taken by a
-- worker that died before it started the run). The caller decides by their jobs.
SELECT context_id, id, status
FROM hygiene_run
WHERE kind <> 'write' AND status IN ('queued', 'running')
  AND (status = 'running' OR created_at < now() - make_interval(secs => %(queued_s)s))
ORDER BY created_at
LIMIT 500

-- hygiene_interrupt_run --
UPDATE hygiene_run SET status = 'failed', error = 'interrupted', finished_at = now()
WHERE context_id = %(context_id)s AND id = %(id)s AND status IN ('queued', 'running')
RETURNING id

-- hygiene_interrupt_write_runs --
-- The write scans a dead worker's job had open: its Context's, with the job's records as
-- subjects (the job inserts its run; the retried job inserts a new one).
UPDATE hygiene_run SET status = 'failed', error = 'interrupted', finished_at = now()
WHERE context_id = %(context_id)s AND kind = 'write' AND status IN ('queued', 'running')
  AND subjects @> %(subjects)s::uuid[] AND subjects <@ %(subjects)s::uuid[]
RETURNING id
