"""Print the schema the migrations build, in a normalised form, for `schema.sql`.

Regenerate after adding a migration:

    python -m tests.migration.dump_schema > src/memwarden/store/schema.sql

It starts a throwaway embedded PostgreSQL (or uses MEMWARDEN_TEST_DATABASE_URL's server),
applies every migration to an empty database and dumps it with the embedded server's
`pg_dump`. The test in test_schema.py compares the same dump with the committed file.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import psycopg

from memwarden.store.embedded import import_pgserver
from memwarden.store.migrate import apply_migrations

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "src" / "memwarden" / "store" / "schema.sql"
REGENERATE = "python -m tests.migration.dump_schema > src/memwarden/store/schema.sql"
HEADER = (
    "-- The full current schema, as the migrations build it (pg_dump, normalised).\n"
    "-- Generated; do not edit. Regenerate after adding a migration:\n"
    f"--   {REGENERATE}\n"
)

# pg_dump lines that vary by run, server or session and say nothing about the schema.
_NOISE = re.compile(r"^(--|SET |SELECT pg_catalog\.set_config|\\restrict|\\unrestrict)")


def pg_dump_path() -> Path:
    """The pg_dump that ships with the embedded server (same major version)."""
    pgserver = import_pgserver()
    bin_dir = Path(pgserver.__file__).parent / "pginstall18" / "bin"
    return bin_dir / "pg_dump"


def normalise(dump: str) -> str:
    """Drop comments, session settings and blank-line runs; keep every statement."""
    kept = [line.rstrip() for line in dump.splitlines() if not _NOISE.match(line)]
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()
    return HEADER + "\n" + text + "\n"


def dump(url: str) -> str:
    """The normalised schema of the database at `url`."""
    out = subprocess.run(
        [str(pg_dump_path()), "--schema-only", "--no-owner", "--no-privileges", "--dbname", url],
        check=True,
        capture_output=True,
        text=True,
    )
    return normalise(out.stdout)


def migrated_schema(admin_url: str, database: str) -> str:
    """Create `database` empty, apply every migration, dump it, drop it."""
    info = psycopg.conninfo.conninfo_to_dict(admin_url)
    info["dbname"] = database
    url = psycopg.conninfo.make_conninfo(**info)
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{database}"')
    try:
        apply_migrations(url)
        return dump(url)
    finally:
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


def main() -> None:
    external = os.environ.get("MEMWARDEN_TEST_DATABASE_URL")
    if external:
        sys.stdout.write(migrated_schema(external, "memwarden_schema_dump"))
        return
    workdir = Path(tempfile.mkdtemp(prefix="memwarden-schema-"))
    workdir.chmod(0o755)  # as root, pgserver runs PostgreSQL as its own user
    server = import_pgserver().get_server(workdir / "pgdata", cleanup_mode="stop")
    try:
        sys.stdout.write(migrated_schema(str(server.get_uri("postgres")), "memwarden_schema"))
    finally:
        server.cleanup()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
