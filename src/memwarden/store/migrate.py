"""Versioned, forward-only migrations applied under an advisory lock.

Files are `NNNN_name.sql`; each applies in its own transaction and is recorded in
`schema_migration`. Concurrent starts serialise on the lock, so each file runs once.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from importlib import resources

import psycopg

# The standard library's logger: silent unless the process configured logging (a script
# that prints the schema must not print this line), JSON under configure_logging.
log = logging.getLogger(__name__)

MIGRATION_LOCK = 7_406_118_301  # arbitrary, fixed advisory-lock key
_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def available() -> list[Migration]:
    folder = resources.files("memwarden.store") / "migrations"
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if len(set(versions)) != len(versions):
        raise RuntimeError("two migrations share a version number")
    return found


def apply_migrations(url: str) -> list[str]:
    """Apply what is missing; returns the names applied by this call."""
    applied_now: list[str] = []
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
        try:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migration ("
                " version integer PRIMARY KEY, name text NOT NULL,"
                " applied_at timestamptz NOT NULL DEFAULT now())"
            )
            done = {row[0] for row in conn.execute("SELECT version FROM schema_migration")}
            citus = _on_citus(conn)
            for migration in available():
                if migration.version in done:
                    continue
                with conn.transaction():
                    conn.execute(migration.sql)  # type: ignore[arg-type]
                    conn.execute(
                        "INSERT INTO schema_migration (version, name) VALUES (%s, %s)",
                        (migration.version, migration.name),
                    )
                applied_now.append(migration.name)
            if citus:
                _adapt_to_citus(conn)
            _apply_procrastinate(conn)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
    log.info("migrations applied: %s", " ".join(applied_now) or "none")
    return applied_now


# The migrations that adapt the schema to a Citus coordinator; they do nothing elsewhere.
CITUS_BLOCKS = (30, 31, 32, 33)


def _on_citus(conn: psycopg.Connection) -> bool:
    """A Citus coordinator: the extension is in the database. Its triggers on distributed
    tables only touch co-located rows of one Context, so the migrations may create them
    (`citus.enable_unsafe_triggers`, docs/scale.md#distribution)."""
    row = conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'citus'").fetchone()
    if row is None:
        return False
    conn.execute("SET citus.enable_unsafe_triggers = on")
    return True


def _adapt_to_citus(conn: psycopg.Connection) -> None:
    """On Citus, the Citus migrations run again at every migrate: both are idempotent and
    return at once when there is nothing to do. A database migrated on one PostgreSQL and
    restored into a coordinator has them recorded as applied (they did nothing there),
    and a table a later migration creates starts as a local table: either way this
    distributes what is not yet distributed."""
    for migration in available():
        if migration.version in CITUS_BLOCKS:
            with conn.transaction():
                conn.execute(migration.sql)  # type: ignore[arg-type]


def _apply_procrastinate(conn: psycopg.Connection) -> None:
    """procrastinate's own schema lives beside ours, installed once."""
    present = conn.execute("SELECT to_regclass('procrastinate_jobs') IS NOT NULL").fetchone()
    if present and present[0]:
        return
    from procrastinate import schema

    with conn.transaction():
        conn.execute(schema.SchemaManager.get_schema())  # type: ignore[arg-type]
