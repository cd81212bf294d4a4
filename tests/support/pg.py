"""One embedded PostgreSQL per test session; a fresh database per test from a template."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import psycopg

from memwarden.store.embedded import import_pgserver
from memwarden.store.migrate import apply_migrations, available

TEMPLATE = "memwarden_template"


class PgCluster:
    """Either the embedded server in a temp dir or MEMWARDEN_TEST_DATABASE_URL's server."""

    def __init__(self, workdir: Path) -> None:
        external = os.environ.get("MEMWARDEN_TEST_DATABASE_URL")
        self.server = None
        if external:
            self.admin_url = external
        else:
            self.server = import_pgserver().get_server(workdir / "pgdata", cleanup_mode="stop")
            self.admin_url = str(self.server.get_uri("postgres"))
        self._build_template()

    def close(self) -> None:
        if self.server is not None:
            self.server.cleanup()

    def url_for(self, database: str) -> str:
        info = psycopg.conninfo.conninfo_to_dict(self.admin_url)
        info["dbname"] = database
        return psycopg.conninfo.make_conninfo(**info)

    def _build_template(self) -> None:
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{TEMPLATE}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{TEMPLATE}"')
        apply_migrations(self.url_for(TEMPLATE))
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'ALTER DATABASE "{TEMPLATE}" WITH IS_TEMPLATE true')

    def create_database(self) -> str:
        name = f"t_{uuid.uuid4().hex[:16]}"
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}"')
        return name

    def drop_database(self, name: str) -> None:
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def create_empty_database(self) -> str:
        name = f"e_{uuid.uuid4().hex[:16]}"
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return name


def database_before(cluster: PgCluster, version: int) -> str:
    """The url of a new database with every migration before `version` applied and
    recorded, for a test that fills it and then applies the rest."""
    url = cluster.url_for(cluster.create_empty_database())
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "CREATE TABLE schema_migration (version integer PRIMARY KEY, name text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        for m in available():
            if m.version < version:
                conn.execute(m.sql)  # type: ignore[arg-type]
                conn.execute(
                    "INSERT INTO schema_migration (version, name) VALUES (%s, %s)",
                    (m.version, m.name),
                )
    return url
