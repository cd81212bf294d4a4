"""The hygiene tools over MCP: scan, run, queue, resolve, restore, challenge (issue 11)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from tests.integration.hygiene.conftest import SUPERSEDES_B, near_pair
from tests.integration.mcp.conftest import Connect, run
from tests.integration.mcp.helpers import error, ok
from tests.support.live import LiveServer
from tests.support.scripted_model import ScriptedModelServer, scripted_models

HYGIENE_TOOLS = {
    "scan_hygiene",
    "hygiene_run",
    "hygiene_queue",
    "resolve_conflict",
    "restore_memory",
    "challenge",
}


@pytest.fixture
def live(live_with: Callable[..., LiveServer], scripted: ScriptedModelServer) -> LiveServer:
    changes = scripted_models(scripted, model_adjudication="openai:strong")
    return live_with(run_worker=True, **changes)


def test_a_reviewer_scans_and_settles_the_queue_through_the_tools(
    live: LiveServer,
    over_http: Connect,
    make_context: Callable[..., dict[str, Any]],
    scripted: ScriptedModelServer,
) -> None:
    ctx = make_context(subject="alice")
    with live.client(ctx["key"]) as http:
        a, _b = near_pair(http)
    scripted.respond_with("adjudication", SUPERSEDES_B)

    async def scenario() -> dict[str, Any]:
        async with over_http(ctx["key"]) as client:
            listed = {tool.name for tool in (await client.list_tools()).tools}
            started = ok(await client.call_tool("scan_hygiene", {"rejudge": False}))
            for _ in range(600):
                done = ok(await client.call_tool("hygiene_run", {"run_id": started["runId"]}))
                if done["status"] in ("done", "failed"):
                    break
                await asyncio.sleep(0.1)
            page = ok(await client.call_tool("hygiene_queue", {"status": "pending"}))
            item = page["items"][0]["id"]
            resolved = ok(
                await client.call_tool(
                    "resolve_conflict", {"item_id": item, "resolution": "keep_both"}
                )
            )
            again = error(
                await client.call_tool(
                    "resolve_conflict", {"item_id": item, "resolution": "keep_a"}
                )
            )
            nothing = error(await client.call_tool("restore_memory", {"record_id": a}))
            flagged = ok(
                await client.call_tool("challenge", {"record_id": a, "reason": "out of date"})
            )
            return {
                "listed": listed,
                "run": done,
                "resolved": resolved,
                "again": again,
                "nothing": nothing,
                "flagged": flagged,
            }

    out = run(scenario())
    assert out["listed"] >= HYGIENE_TOOLS
    assert out["run"]["status"] == "done" and out["run"]["counts"]["queued"] == 1
    assert out["resolved"]["item"]["resolution"] == "keep_both"
    assert out["again"]["status"] == 409 and out["again"]["code"] == "already_decided"
    assert out["nothing"]["code"] == "nothing_to_restore"
    assert out["flagged"]["created"] is True
