"""The README's first command: `memwarden serve` on embedded defaults, as real processes."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from memwarden.store.embedded import TUNING_FILE, import_pgserver
from tests.support.live import free_port

pytestmark = pytest.mark.slow


@pytest.fixture
def tmp_path() -> Iterator[Path]:
    """Outside pytest's 0700 base dir, which pytest re-tightens and the postgres user
    (pgserver runs PostgreSQL as its own user when started by root) cannot traverse."""
    path = Path(tempfile.mkdtemp(prefix="memwarden-acceptance-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def _env(data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMWARDEN_")}
    env["MEMWARDEN_DATA_DIR"] = str(data_dir)
    env["MEMWARDEN_ADMIN_TOKEN"] = "acceptance-admin"
    return env


def _serve(data_dir: Path, port: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "memwarden", "serve", "--port", str(port)],
        env=_env(data_dir),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait_healthy(url: str, proc: subprocess.Popen[str]) -> dict:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"serve exited: {proc.stderr.read() if proc.stderr else ''}")
        try:
            # The admin token: the detail (embedded, in_process) is the operator's.
            resp = httpx.get(
                f"{url}/health",
                timeout=2,
                headers={"Authorization": "Bearer acceptance-admin"},
            )
            if resp.status_code in (200, 503):
                return resp.json()
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise AssertionError("serve did not become healthy in 60 s")


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    for stream in (proc.stdout, proc.stderr):
        if stream:
            stream.close()


def _cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memwarden", *args],
        env=_env(data_dir),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_serve_runs_on_embedded_postgres_shares_it_and_keeps_data(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = _serve(data_dir, port)
    try:
        health = _wait_healthy(url, proc)
        assert health["database"]["status"] == "ok" and health["database"]["embedded"] is True
        assert health["worker"]["in_process"] is True
        # A second process on the same data dir shares the running server.
        created = _cli(data_dir, "contexts", "create", "shared", "--json")
        assert created.returncode == 0, created.stderr
        key = json.loads(created.stdout)["key"]["key"]
        cid = json.loads(created.stdout)["context"]["id"]
        resp = httpx.get(
            f"{url}/api/v1/contexts/{cid}/config", headers={"Authorization": f"Bearer {key}"}
        )
        assert resp.status_code == 200
        # The running server took memwarden's settings (written before its first start).
        joined = import_pgserver().get_server(data_dir / "pgdata", cleanup_mode="stop")
        try:
            assert "off" in joined.psql("SHOW jit;")
            assert "128MB" not in joined.psql("SHOW shared_buffers;")
            # Room in the lock table for statements that lock every per-Context index.
            assert "512" in joined.psql("SHOW max_locks_per_transaction;")
        finally:
            joined.cleanup()  # our handle only: serve still holds the server
    finally:
        _stop(proc)
    assert proc.returncode == 0
    # Stopped cleanly, reused on the next start.
    assert not (data_dir / "pgdata" / "postmaster.pid").exists()
    listed = _cli(data_dir, "contexts", "list", "--json")
    assert [c["name"] for c in json.loads(listed.stdout)] == ["shared"]
    conf = (data_dir / "pgdata" / "postgresql.conf").read_text()
    assert conf.count(TUNING_FILE) == 1


def test_a_port_in_use_is_reported_plainly(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        port = sock.getsockname()[1]
        proc = _serve(tmp_path / "data", port)
        try:
            out, err = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode != 0
    assert "Traceback" not in err
    assert f"{port}" in err + out


def test_a_corrupted_data_dir_is_reported_plainly(tmp_path: Path) -> None:
    pgdata = tmp_path / "data" / "pgdata"
    pgdata.mkdir(parents=True)
    (pgdata / "garbage.bin").write_bytes(b"\x00not a database")
    result = _cli(tmp_path / "data", "contexts", "list")
    assert result.returncode == 3
    assert "Traceback" not in result.stderr
    assert "not a PostgreSQL data directory" in result.stderr
