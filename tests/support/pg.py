"""One embedded PostgreSQL per test session (per xdist worker); a fresh database per test
from a template."""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import psycopg

from memwarden.store.embedded import import_pgserver
from memwarden.store.migrate import apply_migrations, available

TEMPLATE = "memwarden_template"
# The embedded test server skips fsync: a test never survives a crash of the operating
# system, and a killed PostgreSQL process loses nothing that was written (the WAL still
# reaches the page cache at each commit; synchronous_commit stays on). CREATE DATABASE
# from the template and every commit then cost no disk flush.
NO_FLUSH = {"fsync": "off", "full_page_writes": "off"}
# Databases copied from the template ahead of need, in a background thread, and dropped
# there too: a test's setup takes a ready one instead of waiting for CREATE DATABASE.
AHEAD = 2
COPY_ATTEMPTS = 6


class PgCluster:
    """Either the embedded server in a temp dir or MEMWARDEN_TEST_DATABASE_URL's server."""

    def __init__(self, workdir: Path, suffix: str = "") -> None:
        """`suffix` names this cluster's template: xdist workers sharing one external
        server (MEMWARDEN_TEST_DATABASE_URL) each build and drop their own."""
        external = os.environ.get("MEMWARDEN_TEST_DATABASE_URL")
        self.server = None
        self.template = TEMPLATE + (f"_{suffix}" if suffix else "")
        if external:
            self.admin_url = external
        else:
            self.server = import_pgserver().get_server(workdir / "pgdata", cleanup_mode="stop")
            self.admin_url = str(self.server.get_uri("postgres"))
            self._skip_flushes()
        self._build_template()
        self._background = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pg-ahead")
        self._lock = threading.Lock()
        self._ready: deque[Future[str]] = deque()
        self._dropped: list[Future[None]] = []
        self._top_up()

    def close(self) -> None:
        """Waits for the background drops (raising the first that failed), then stops the
        embedded server; databases made ahead and never used are dropped too."""
        with self._lock:
            ready, self._ready = list(self._ready), deque()
        for made in ready:
            if self.server is None:  # on an external server they would stay behind
                self.drop_database(made.result())
            else:
                made.cancel()
        self._background.shutdown(wait=True)
        try:
            for dropped in self._dropped:
                dropped.result()
        finally:
            if self.server is not None:
                self.server.cleanup()

    def url_for(self, database: str) -> str:
        info = psycopg.conninfo.conninfo_to_dict(self.admin_url)
        info["dbname"] = database
        return psycopg.conninfo.make_conninfo(**info)

    def _skip_flushes(self) -> None:
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            for name, value in NO_FLUSH.items():
                conn.execute(f"ALTER SYSTEM SET {name} = '{value}'")
            conn.execute("SELECT pg_reload_conf()")

    def _build_template(self) -> None:
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            # A template left by an earlier run on an external server: PostgreSQL drops
            # no database that is still marked a template.
            left = conn.execute(
                "SELECT 1 FROM pg_database WHERE datname = %s", (self.template,)
            ).fetchone()
            if left:
                conn.execute(f'ALTER DATABASE "{self.template}" WITH IS_TEMPLATE false')
                conn.execute(f'DROP DATABASE "{self.template}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{self.template}"')
        apply_migrations(self.url_for(self.template))
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'ALTER DATABASE "{self.template}" WITH IS_TEMPLATE true')

    def create_database(self) -> str:
        """A new database copied from the template, never used before (made ahead)."""
        with self._lock:
            made = self._ready.popleft()
            self._top_up()
        return made.result()

    def drop_database(self, name: str) -> None:
        """Dropped in the background, after the databases being made ahead; a failure is
        raised by close()."""
        with self._lock:
            self._dropped.append(self._background.submit(self._drop, name))

    def _top_up(self) -> None:
        while len(self._ready) < AHEAD:
            self._ready.append(self._background.submit(self._copy_template))

    def _copy_template(self) -> str:
        """Copied in the background while a test runs: a test that holds thousands of locks
        (partitions, many indexes) can fill the shared lock table for a moment, and the
        copy then fails with `out of shared memory`; it is tried again once that passes."""
        name = f"t_{uuid.uuid4().hex[:16]}"
        for attempt in range(COPY_ATTEMPTS):
            try:
                with psycopg.connect(self.admin_url, autocommit=True) as conn:
                    conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{self.template}"')
                return name
            except psycopg.errors.OutOfMemory:
                if attempt == COPY_ATTEMPTS - 1:
                    raise
                time.sleep(0.5 * (attempt + 1))
        raise AssertionError("unreachable")

    def _drop(self, name: str) -> None:
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
