"""Schema-driven fuzzing (issue 15, standing campaign): schemathesis generates requests for
every operation of `/openapi.json` and sends them over real HTTP to a live server, once
with a Context key and once with the admin token. No request may get a 5xx, and every
answer must match the response schema the document declares for its status.

Bounded for CI: MEMWARDEN_FUZZ_EXAMPLES examples per operation (default 8); the longer run
is `benchmarks/bench_fuzz.py`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import ADMIN_TOKEN
from tests.support.fuzz import fuzz_operations
from tests.support.live import LiveServer

EXAMPLES = int(os.environ.get("MEMWARDEN_FUZZ_EXAMPLES", "8"))


@pytest.fixture
def live(live_with: Callable[..., LiveServer]) -> LiveServer:
    """The offline defaults with the in-process worker (documents get processed)."""
    return live_with(run_worker=True)


@pytest.fixture
def fuzzed(live: LiveServer, make_context: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    return {"server": live, "context": make_context("fuzzed")}


@pytest.mark.timeout(600)
@pytest.mark.parametrize("credential", ["context_key", "admin_token"])
def test_no_generated_request_gets_a_server_error_or_an_undocumented_answer(
    fuzzed: dict[str, Any], credential: str
) -> None:
    ctx = fuzzed["context"]
    token = ctx["key"] if credential == "context_key" else ADMIN_TOKEN
    report = fuzz_operations(fuzzed["server"], token=token, context_id=ctx["id"], examples=EXAMPLES)
    assert report.operations >= 39, report.operations  # every operation was reached
    assert report.requests >= report.operations
    assert not report.failures, "\n".join(report.failures[:20])
