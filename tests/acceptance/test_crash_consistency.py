"""Crash consistency (issue 15, standing campaign): `memwarden serve` on its embedded
PostgreSQL is killed with SIGKILL during concurrent /facts writes and document uploads,
started again, and checked: every acknowledged write and upload is there, no turn is
partial, nothing is orphaned, one live value per single-valued slot, and every document
ends processed or failed. MEMWARDEN_CRASH_ROUNDS rounds (1 in CI); the long run is
`benchmarks/bench_crash.py`."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.crash import run_rounds

pytestmark = pytest.mark.slow

ROUNDS = int(os.environ.get("MEMWARDEN_CRASH_ROUNDS", "1"))


@pytest.fixture
def workdir() -> Iterator[Path]:
    """Outside pytest's 0700 base dir (the postgres user must traverse it)."""
    path = Path(tempfile.mkdtemp(prefix="memwarden-crash-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.mark.timeout(600)
def test_a_killed_server_keeps_every_acknowledged_write_and_finishes_every_document(
    workdir: Path,
) -> None:
    rounds = run_rounds(workdir, ROUNDS)
    for n, result in enumerate(rounds):
        assert result.acknowledged_writes > 0, f"round {n}: the load never got a write in"
        assert not result.problems, f"round {n}: " + "\n".join(result.problems[:20])
