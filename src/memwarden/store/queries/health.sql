-- database_health --
SELECT current_setting('server_version') AS version,
       (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS pgvector,
       (SELECT max(version) FROM schema_migration) AS schema_version

-- count_live_workers --
SELECT count(*) AS n FROM procrastinate_workers
WHERE last_heartbeat > now() - make_interval(secs => %(window_s)s)
