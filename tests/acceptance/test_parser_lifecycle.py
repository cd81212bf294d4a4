"""Parser child processes live no longer than memwarden: `serve` (its in-process worker)
and `memwarden worker`, stopped with SIGTERM in the middle of parsing a document, leave
no process behind (issue 15, finding 1)."""

from __future__ import annotations

import json
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
from tests.acceptance.test_embedded_lifecycle import (
    _env,
    _finish,
    _postmaster_pid,
    _serve,
    _wait_healthy,
)
from tests.support.hostile_documents import docx_bomb
from tests.support.live import free_port

pytestmark = pytest.mark.slow

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
SLOW_DOCX = docx_bomb(empty_paragraphs=600_000)  # under the size bounds, seconds to parse


@pytest.fixture
def data_dir() -> Iterator[Path]:
    """Outside pytest's 0700 base dir (the postgres user must traverse it when root)."""
    path = Path(tempfile.mkdtemp(prefix="memwarden-parsers-"))
    yield path / "data"
    pid = _postmaster_pid(path / "data")
    if pid and postgres_of(path / "data" / "pgdata", pid):  # never leave one behind
        psutil.Process(pid).kill()
    shutil.rmtree(path, ignore_errors=True)


def _wait_answering(port: int, proc: subprocess.Popen[str]) -> None:
    """Up and answering: without a worker yet, /health says degraded (503)."""
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else "serve exited"
        try:
            httpx.get(f"http://127.0.0.1:{port}/health", timeout=2)
            return
        except httpx.TransportError:
            time.sleep(0.2)
    raise AssertionError("serve did not answer in 180 s")


def _is_parser(process: psutil.Process) -> bool:
    try:
        return any("child_main" in part for part in process.cmdline())
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return False


def _descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def _parsing(pid: int) -> list[psutil.Process]:
    """The descendants of `pid`, once one of them is a parser child busy on the CPU."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for child in filter(_is_parser, _descendants(pid)):
            with pytest.raises(psutil.TimeoutExpired):
                child.wait(0)  # still running
            if child.cpu_percent(0.3) > 10:
                return _descendants(pid)
        time.sleep(0.2)
    raise AssertionError("no parser child started parsing in 120 s")


def _ended(process: psutil.Process, within: float = 20) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if process.status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.2)
    return False


def _upload_slow_docx(data_dir: Path, port: int) -> None:
    created = subprocess.run(
        [sys.executable, "-m", "memwarden", "contexts", "create", "parsers", "--json"],
        env=_env(data_dir),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert created.returncode == 0, created.stderr
    body = json.loads(created.stdout)
    resp = httpx.post(
        f"http://127.0.0.1:{port}/api/v1/{body['context']['id']}/documents",
        headers={"Authorization": f"Bearer {body['key']['key']}"},
        files={"file": ("slow.docx", SLOW_DOCX, DOCX)},
        timeout=30,
    )
    assert resp.status_code == 202, resp.text


@pytest.mark.timeout(400)
def test_sigterm_stops_serve_in_the_middle_of_a_parse_and_leaves_no_child(
    data_dir: Path,
) -> None:
    port = free_port()
    proc = _serve(data_dir, port)
    try:
        _wait_healthy(port, proc)
        _upload_slow_docx(data_dir, port)
        descendants = _parsing(proc.pid)
    finally:
        _finish(proc, signal.SIGTERM)
    assert proc.returncode in (0, -signal.SIGTERM)  # uvicorn raises the signal again at exit
    left = [p.pid for p in descendants if not _ended(p)]
    assert left == [], f"still running after serve stopped: {left}"


@pytest.mark.timeout(400)
def test_sigterm_stops_a_worker_in_the_middle_of_a_parse_and_leaves_no_child(
    data_dir: Path,
) -> None:
    port = free_port()
    api = subprocess.Popen(
        [sys.executable, "-m", "memwarden", "serve", "--port", str(port), "--no-worker"],
        env=_env(data_dir),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_answering(port, api)
        _upload_slow_docx(data_dir, port)
        worker = subprocess.Popen(
            [sys.executable, "-m", "memwarden", "worker"],
            env=_env(data_dir),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            descendants = _parsing(worker.pid)
        finally:
            _finish(worker, signal.SIGTERM)
        assert worker.returncode == 0
        left = [p.pid for p in descendants if not _ended(p)]
        assert left == [], f"still running after the worker stopped: {left}"
    finally:
        _finish(api, signal.SIGTERM)
