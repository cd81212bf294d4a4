"""`memwarden erase` and the MCP tools `erase` / `erasure` against a live server whose
worker runs the job."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import pytest
from typer.testing import CliRunner

from memwarden.cli.main import app
from tests.integration.mcp.conftest import http_session, run
from tests.integration.mcp.helpers import error, ok
from tests.support.live import LiveServer

runner = CliRunner()


@pytest.fixture
def live(live_with: Callable[..., LiveServer]) -> LiveServer:
    return live_with(run_worker=True)


def test_memwarden_erase_asks_first_then_follows_the_job_to_its_end(
    live: LiveServer, make_context: Callable[..., dict[str, Any]]
) -> None:
    ctx = make_context()
    with live.client(ctx["key"]) as c:
        assert c.post(f"/api/v1/{ctx['id']}/facts", json={"text": "I love tea."}).status_code == 201

    def cli(*args: str, answer: str = "") -> Any:
        return runner.invoke(
            app,
            ["erase", *args, "--url", live.url, "--context", ctx["id"]],
            env={"MEMWARDEN_API_KEY": ctx["key"]},
            input=answer,
        )

    declined = cli("--subject", "alice", answer="n\n")
    assert declined.exit_code == 1 and "nothing erased" in declined.output
    both = cli("--subject", "alice", "--scope", "team/a", "--yes")
    assert both.exit_code == 2 and "exactly one" in both.output
    done = cli("--subject", "alice", answer="y\n")
    assert done.exit_code == 0, done.output
    assert "erasure done:" in done.output and "records" in done.output
    with live.client(ctx["key"]) as c:
        assert "I love tea" not in c.get(f"/api/v1/{ctx['id']}/state").text


def test_the_mcp_erase_tool_needs_grant_manage_and_its_erasure_reads_back_done(
    live: LiveServer,
    make_context: Callable[..., dict[str, Any]],
    make_key: Callable[..., str],
) -> None:
    ctx = make_context()
    writer = make_key(ctx["id"], ["memory_read", "memory_write"], subject="wendy")

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        async with http_session(live.url, writer) as client:
            refused = error(await client.call_tool("erase", {"subject": "alice"}))
        async with http_session(live.url, ctx["key"]) as client:
            two = error(await client.call_tool("erase", {"subject": "a", "scope_prefix": "b"}))
            started = ok(await client.call_tool("erase", {"subject": "alice"}))
            deadline = time.monotonic() + 60
            while True:
                erasure = ok(
                    await client.call_tool("erasure", {"erasure_id": started["erasureId"]})
                )
                if erasure["status"] in ("done", "failed") or time.monotonic() > deadline:
                    return refused, two, erasure
                await asyncio.sleep(0.2)

    refused, two, erasure = run(scenario())
    assert refused["code"] == "missing_grant"
    assert two["code"] == "invalid_request"
    assert erasure["status"] == "done" and erasure["targetKind"] == "subject"
