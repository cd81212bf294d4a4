"""Migrations: forward-only, applied once under a lock, Context-first keys everywhere."""

from __future__ import annotations

import threading

import psycopg

from memwarden.store.migrate import apply_migrations, available
from tests.support.pg import PgCluster

# Tables whose key cannot lead with context_id, and why.
NOT_CONTEXT_KEYED = {
    "context": "it is the Context",
    "schema_migration": "deployment-wide bookkeeping",
    "audit_event": "admin actions can precede a Context; indexed by (context_id, created_at)",
}


def test_migration_files_have_unique_increasing_versions() -> None:
    versions = [m.version for m in available()]
    assert versions == sorted(set(versions)) and versions[0] == 1


def test_applying_twice_applies_nothing_the_second_time(cluster: PgCluster) -> None:
    url = cluster.url_for(cluster.create_empty_database())
    first = apply_migrations(url)
    assert first == [m.name for m in available()]
    assert apply_migrations(url) == []


def test_concurrent_starts_apply_each_migration_exactly_once(cluster: PgCluster) -> None:
    url = cluster.url_for(cluster.create_empty_database())
    results: list[list[str]] = []
    errors: list[BaseException] = []

    def start() -> None:
        try:
            results.append(apply_migrations(url))
        except BaseException as exc:  # collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    applied = [name for r in results for name in r]
    assert sorted(applied) == sorted(m.name for m in available())
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT count(*) FROM schema_migration").fetchone()
    assert rows is not None and rows[0] == len(available())


def test_every_table_key_leads_with_context_id(db_url: str) -> None:
    sql = """
        SELECT c.relname, a.attname
        FROM pg_constraint k
        JOIN pg_class c ON c.oid = k.conrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.conkey[1]
        WHERE k.contype = 'p' AND n.nspname = 'public'
          AND c.relname NOT LIKE 'procrastinate%%'
    """
    with psycopg.connect(db_url) as conn:
        rows = conn.execute(sql).fetchall()
    offenders = {t: col for t, col in rows if col != "context_id" and t not in NOT_CONTEXT_KEYED}
    assert not offenders, f"primary keys not led by context_id: {offenders}"


def test_the_vector_extension_and_job_queue_are_installed(db_url: str) -> None:
    with psycopg.connect(db_url) as conn:
        ext = conn.execute("SELECT extversion FROM pg_extension WHERE extname='vector'").fetchone()
        jobs = conn.execute("SELECT to_regclass('procrastinate_jobs')").fetchone()
    assert ext is not None and jobs is not None and jobs[0] is not None


def test_no_table_has_a_table_wide_ann_index(db_url: str) -> None:
    """ANN indexes are per Context (store/vector_index.py, built by a job); a fresh database
    has none, since 0016 dropped the table-wide one on chunks."""
    with psycopg.connect(db_url) as conn:
        rows = conn.execute(
            "SELECT tablename, indexname FROM pg_indexes WHERE indexdef ILIKE '%% USING hnsw %%'"
        ).fetchall()
    assert rows == []
