"""The embedded PostgreSQL lives no longer than memwarden: real `serve` processes,
stopped with SIGTERM and killed with SIGKILL (issue 15, finding 12)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psutil
import pytest

from memwarden.store.embedded import postgres_of
from tests.support.live import free_port

pytestmark = pytest.mark.slow


@pytest.fixture
def data_dir() -> Iterator[Path]:
    """Outside pytest's 0700 base dir (the postgres user must traverse it when root)."""
    path = Path(tempfile.mkdtemp(prefix="memwarden-lifecycle-"))
    yield path / "data"
    pid = _postmaster_pid(path / "data")
    if pid and postgres_of(path / "data" / "pgdata", pid):  # never leave one behind
        psutil.Process(pid).kill()
    shutil.rmtree(path, ignore_errors=True)


def _env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMWARDEN_")}
    env["MEMWARDEN_DATA_DIR"] = str(data_dir)
    return env


def _serve(data_dir: Path, port: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "memwarden", "serve", "--port", str(port)],
        env=_env(data_dir),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_healthy(port: int, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"serve exited: {proc.stderr.read() if proc.stderr else ''}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise AssertionError("serve did not become healthy in 90 s")


def _postmaster_pid(data_dir: Path) -> int | None:
    try:
        return int((data_dir / "pgdata" / "postmaster.pid").read_text().splitlines()[0])
    except (OSError, IndexError, ValueError):
        return None


def _gone(pid: int, pgdata: Path, within: float = 20) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not postgres_of(pgdata, pid):
            return True
        time.sleep(0.2)
    return False


def _finish(proc: subprocess.Popen[str], sig: signal.Signals) -> None:
    proc.send_signal(sig)
    try:
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr:
            proc.stderr.close()


def test_sigterm_stops_serve_and_its_embedded_postgres(data_dir: Path) -> None:
    port = free_port()
    proc = _serve(data_dir, port)
    _wait_healthy(port, proc)
    pid = _postmaster_pid(data_dir)
    assert pid and postgres_of(data_dir / "pgdata", pid)
    _finish(proc, signal.SIGTERM)
    assert _gone(pid, data_dir / "pgdata"), "the postmaster outlived a SIGTERM'd serve"
    assert not (data_dir / "pgdata" / "postmaster.pid").exists()


def test_a_restart_after_sigkill_adopts_the_leftover_server_and_stops_it_later(
    data_dir: Path,
) -> None:
    port = free_port()
    first = _serve(data_dir, port)
    _wait_healthy(port, first)
    leftover = _postmaster_pid(data_dir)
    _finish(first, signal.SIGKILL)
    assert leftover and postgres_of(data_dir / "pgdata", leftover)  # what kill -9 leaves

    second = _serve(data_dir, port)
    _wait_healthy(port, second)
    # adopted, not a second server on the same data directory
    assert _postmaster_pid(data_dir) == leftover
    servers = [p for p in psutil.process_iter(["name"]) if postgres_of(data_dir / "pgdata", p.pid)]
    assert [p.pid for p in servers] == [leftover]
    _finish(second, signal.SIGTERM)
    assert _gone(leftover, data_dir / "pgdata"), "the adopted postmaster outlived serve"


def test_a_second_serve_on_one_data_dir_is_refused_plainly(data_dir: Path) -> None:
    port = free_port()
    first = _serve(data_dir, port)
    try:
        _wait_healthy(port, first)
        second = subprocess.run(
            [sys.executable, "-m", "memwarden", "serve", "--port", str(free_port())],
            env=_env(data_dir),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert second.returncode == 3
        assert "Traceback" not in second.stderr
        assert f"pid {first.pid}" in second.stderr and "already serving" in second.stderr
        # the first one still serves
        assert httpx.get(f"http://127.0.0.1:{port}/health", timeout=5).status_code == 200
    finally:
        _finish(first, signal.SIGTERM)


def test_sigterm_stops_a_worker_and_its_embedded_postgres(data_dir: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "memwarden", "worker"],
        env=_env(data_dir),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 90
        while "worker started" not in proc.stdout.readline():
            assert proc.poll() is None and time.monotonic() < deadline, "worker did not start"
        pid = _postmaster_pid(data_dir)
        assert pid and postgres_of(data_dir / "pgdata", pid)
    finally:
        _finish(proc, signal.SIGTERM)
        if proc.stdout:
            proc.stdout.close()
    assert proc.returncode == 0
    assert _gone(pid, data_dir / "pgdata"), "the postmaster outlived a SIGTERM'd worker"
