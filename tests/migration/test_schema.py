"""`src/memwarden/store/schema.sql` is exactly what the migrations build (as procrastinate's
test_migration.py checks its schema.sql): a reader sees the whole schema in one file, and a
migration that changes it without regenerating the file fails here."""

from __future__ import annotations

import difflib
import uuid

from tests.migration.dump_schema import REGENERATE, SCHEMA_FILE, migrated_schema, normalise
from tests.support.pg import PgCluster


def test_migrations_rebuild_exactly_the_committed_schema(cluster: PgCluster) -> None:
    built = migrated_schema(cluster.admin_url, f"s_{uuid.uuid4().hex[:16]}")
    committed = SCHEMA_FILE.read_text(encoding="utf-8")
    diff = "".join(
        difflib.unified_diff(
            committed.splitlines(keepends=True),
            built.splitlines(keepends=True),
            "schema.sql (committed)",
            "migrations (built)",
            n=1,
        )
    )
    assert not diff, f"schema.sql is out of date; regenerate it with\n  {REGENERATE}\n{diff}"


def test_normalising_drops_session_noise_and_keeps_statements() -> None:
    dump = (
        "--\n-- PostgreSQL database dump\n--\n\\restrict abc123\nSET statement_timeout = 0;\n"
        "SELECT pg_catalog.set_config('search_path', '', false);\n\n\n\n"
        "CREATE TABLE public.t (\n    id integer\n);\n\\unrestrict abc123\n"
    )
    body = normalise(dump).split("\n", 4)[4]
    assert body == "CREATE TABLE public.t (\n    id integer\n);\n"
