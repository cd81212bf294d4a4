"""Shared by the write and recall benchmarks: a throwaway embedded database, Services,
Contexts and callers created directly, `memwarden serve` as a process, percentiles and
memory figures."""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
from psycopg.types.json import Jsonb
from rich.console import Console

from memwarden.bootstrap import build_services
from memwarden.domain.grants import Caller
from memwarden.domain.ids import new_id
from memwarden.logging_setup import configure_logging
from memwarden.services import Services
from memwarden.settings import Settings
from memwarden.store.db import Database
from memwarden.store.embedded import embedded_url, start_embedded
from memwarden.store.migrate import apply_migrations

ALL = ("memory_read", "memory_write", "memory_review", "grant:manage")
# Progress bars and logs go to stderr, so `--json` output on stdout stays parseable.
STDERR = Console(stderr=True)
configure_logging("WARNING", json=False)
SRC = Path(__file__).resolve().parent.parent / "src"


def start_serve(
    url: str,
    data_dir: Path,
    port: int,
    *,
    worker: bool = True,
    env: dict[str, str] | None = None,
    wait_s: float = 120.0,
) -> subprocess.Popen[bytes]:
    """`memwarden serve` on `url`'s database as a user starts it, returned once it answers
    HTTP (any status); `worker=False` adds `--no-worker`."""
    full = {
        **os.environ,
        "MEMWARDEN_DATABASE_URL": url,
        "MEMWARDEN_DATA_DIR": str(data_dir),
        "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
        **(env or {}),
    }
    argv = [sys.executable, "-m", "memwarden", "serve", "--port", str(port)]
    if not worker:
        argv.append("--no-worker")
    proc = subprocess.Popen(argv, env=full, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"memwarden serve exited with {proc.returncode}")
        try:
            httpx.get(f"http://127.0.0.1:{port}/nope", timeout=1)
            return proc
        except httpx.TransportError:
            time.sleep(0.3)
    proc.kill()
    raise SystemExit("memwarden serve did not start")


def stop_serve(proc: subprocess.Popen[bytes], wait_s: float = 20.0) -> None:
    """Stop what start_serve started as a user would (Ctrl-C), killing it past `wait_s`."""
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=wait_s)
    except subprocess.TimeoutExpired:
        proc.kill()


@contextlib.asynccontextmanager
async def services(**settings: Any) -> AsyncIterator[Services]:
    """Services on a fresh embedded PostgreSQL under a temp dir, removed afterwards."""
    workdir = Path(tempfile.mkdtemp(prefix="memwarden-bench-"))
    server = start_embedded(workdir / "pgdata")
    try:
        url = embedded_url(server)
        apply_migrations(url)
        db = Database(url, min_size=1, max_size=4, server=server)
        svc = build_services(
            Settings(database_url=url, data_dir=workdir / "data", **settings), db=db
        )
        await svc.db.open()
        try:
            yield svc
        finally:
            await svc.db.close()
    finally:
        server.cleanup()
        shutil.rmtree(workdir, ignore_errors=True)


async def make_caller(svc: Services, name: str, subject: str = "bench") -> Caller:
    """A Context with one principal holding every grant over the whole Context."""
    context_id, principal_id = new_id(), new_id()
    async with svc.db.transaction() as conn:
        await conn.execute(
            "INSERT INTO context (id, name, config) VALUES (%s, %s, %s)",
            (context_id, name, Jsonb({})),
        )
        await conn.execute(
            "INSERT INTO principal (context_id, id, subject) VALUES (%s, %s, %s)",
            (context_id, principal_id, subject),
        )
    grants = {cap: ("",) for cap in ALL}
    return Caller(context_id, principal_id, subject, uuid.uuid4(), grants)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


def peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 if sys.platform != "darwin" else peak / 2**20
