"""What a start finds after a crash: dead handles and a stale postmaster.pid."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from memwarden.store.embedded import clear_stale_pid_file, postgres_of, prune_dead_handles


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_handles_of_dead_processes_are_dropped_and_live_ones_kept(tmp_path: Path) -> None:
    dead = _dead_pid()
    (tmp_path / ".handle_pids.json").write_text(json.dumps([dead, os.getpid()]))
    assert prune_dead_handles(tmp_path) == [dead]
    assert json.loads((tmp_path / ".handle_pids.json").read_text()) == [os.getpid()]


def test_no_handles_file_is_nothing_to_prune(tmp_path: Path) -> None:
    assert prune_dead_handles(tmp_path) == []


def test_a_postmaster_pid_naming_a_dead_process_is_stale_and_removed(tmp_path: Path) -> None:
    (tmp_path / "postmaster.pid").write_text(f"{_dead_pid()}\n{tmp_path}\n")
    assert clear_stale_pid_file(tmp_path) == "stale"
    assert not (tmp_path / "postmaster.pid").exists()


def test_a_postmaster_pid_naming_another_program_is_stale_and_removed(tmp_path: Path) -> None:
    # a reused pid (here: this test's own process) must not be taken for the server
    (tmp_path / "postmaster.pid").write_text(f"{os.getpid()}\n{tmp_path}\n")
    assert not postgres_of(tmp_path, os.getpid())
    assert clear_stale_pid_file(tmp_path) == "stale"
    assert not (tmp_path / "postmaster.pid").exists()


def test_a_garbled_postmaster_pid_is_stale(tmp_path: Path) -> None:
    (tmp_path / "postmaster.pid").write_text("not a pid\n")
    assert clear_stale_pid_file(tmp_path) == "stale"


def test_no_postmaster_pid_is_nothing_to_do(tmp_path: Path) -> None:
    assert clear_stale_pid_file(tmp_path) == "none"


def test_one_serve_lock_per_data_dir_naming_the_holder_and_free_after_release(
    tmp_path: Path,
) -> None:
    import pytest

    from memwarden.store.embedded import EmbeddedServerError, ServeLock

    first = ServeLock(tmp_path)
    first.acquire()
    try:
        with pytest.raises(EmbeddedServerError, match=f"pid {os.getpid()}"):
            ServeLock(tmp_path).acquire()
    finally:
        first.release()
    again = ServeLock(tmp_path)
    again.acquire()
    again.release()
