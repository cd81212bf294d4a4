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
            _apply_procrastinate(conn)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
    log.info("migrations applied: %s", " ".join(applied_now) or "none")
    return applied_now


def _apply_procrastinate(conn: psycopg.Connection) -> None:
    """procrastinate's own schema lives beside ours, installed once."""
    present = conn.execute("SELECT to_regclass('procrastinate_jobs') IS NOT NULL").fetchone()
    if present and present[0]:
        return
    from procrastinate import schema

    with conn.transaction():
        conn.execute(schema.SchemaManager.get_schema())  # type: ignore[arg-type]
