"""Schema-driven fuzzing (issue 15, standing campaign): schemathesis generates requests for
every operation of `/openapi.json` and sends them over real HTTP to a live server, once
with a Context key and once with the admin token. No request may get a 5xx, and every
answer must match the response schema the document declares for its status.

Bounded for CI: MEMWARDEN_FUZZ_EXAMPLES examples per operation (default 8); the longer run
is `benchmarks/bench_fuzz.py`.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable
from typing import Any

import pytest
import schemathesis

from tests.conftest import ADMIN_TOKEN
from tests.support.fuzz import CHECKS, fuzz_operations
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


def test_the_fuzzers_checks_validate_the_chat_streams_events_and_the_metrics_text(
    fuzzed: dict[str, Any],
) -> None:
    """Neither body is JSON; both are checked. A stream and the metrics pass the checks
    against the live document, and fail them against one whose token event needs a field
    never sent and whose metrics are a text they are not."""
    server, ctx = fuzzed["server"], fuzzed["context"]
    wrong = copy.deepcopy(server.app.openapi())
    wrong["components"]["schemas"]["ChatStreamToken"]["required"] = ["not_sent"]
    metrics = wrong["paths"]["/metrics"]["get"]["responses"]["200"]["content"]["text/plain"]
    metrics["schema"]["pattern"] = "^nothing$"
    for spec, failing in ((server.app.openapi(), False), (wrong, True)):
        schema = schemathesis.openapi.from_dict(spec)
        stream = schema["/api/v1/{context_id}/chat/stream"]["POST"].Case(
            path_parameters={"context_id": ctx["id"]},
            body={"message": "What do I like?"},
            media_type="application/json",
        )
        got = stream.call(base_url=server.url, headers={"Authorization": f"Bearer {ctx['key']}"})
        assert got.status_code == 200 and b"event: token" in got.content
        assert _fails(stream, got) == failing
        text = schema["/metrics"]["GET"].Case()
        got = text.call(base_url=server.url)
        assert got.status_code == 200
        assert _fails(text, got) == failing


def _fails(case: Any, response: Any) -> bool:
    try:
        case.validate_response(response, checks=CHECKS)
    except (AssertionError, BaseExceptionGroup):
        return True
    return False
