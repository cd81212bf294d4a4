"""MCP over stdio: `python -m memwarden.mcp` (and `memwarden mcp`) with MEMWARDEN_API_KEY."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.integration.mcp.conftest import CLI, MODULE, run
from tests.integration.mcp.helpers import create, decide, error, ok, versioned

MARKER = "zq-stdio-content-marker-91c2"


@pytest.mark.parametrize("args", [MODULE, CLI], ids=["module", "cli"])
def test_a_spawned_stdio_server_lists_every_tool(
    over_stdio, ctx: dict[str, Any], args: list[str]
) -> None:
    async def scenario() -> set[str]:
        async with over_stdio(ctx["key"], args) as client:
            return {tool.name for tool in (await client.list_tools()).tools}

    names = run(scenario())
    assert {"memory_command", "review_decide", "remember", "recall", "judgements_list"} <= names


def test_review_tools_run_end_to_end_over_stdio_with_the_processes_key(
    over_stdio, ctx: dict[str, Any], live
) -> None:
    async def scenario() -> tuple[str, dict[str, Any], dict[str, Any]]:
        async with over_stdio(ctx["key"]) as client:
            rid, rev = await create(client, "Alice prefers green tea")
            receipt = ok(await decide(client, rid, rev, disposition="rejected"))["receipt"]
            state = ok(await versioned(client, "review_state", record_id=rid))
        return rid, receipt, state

    rid, receipt, state = run(scenario())
    assert receipt["reviewer"] == "alice" and receipt["credential_id"] == ctx["key_id"]
    assert state["state"]["review"]["disposition"] == "rejected"
    with live.client(ctx["key"]) as http:  # the same database, seen over HTTP
        body = {"contract_version": 1, "scope": state["scope"], "record_id": rid}
        assert http.post("/api/v1/memory/reviews/state", json=body).json() == state


def test_a_stdio_server_started_without_a_key_refuses_every_call(over_stdio, settings) -> None:
    async def scenario() -> dict[str, Any]:
        async with over_stdio(None) as client:
            return error(await client.call_tool("state", {}))

    err = run(scenario())
    assert err["code"] == "unauthorized" and err["status"] == 401


def test_the_stdio_server_never_logs_tool_arguments(
    over_stdio, ctx: dict[str, Any], stdio_log: Path
) -> None:
    async def scenario() -> None:
        async with over_stdio(ctx["key"]) as client:
            await create(client, f"remember {MARKER}")
            ok(await client.call_tool("remember", {"text": f"I'm {MARKER}", "infer": "none"}))
            error(await decide(client, MARKER, 1))  # fails validation: not a uuid
            error(await client.call_tool("recall", {"query": MARKER, "limit": 0}))

    run(scenario())
    assert stdio_log.exists()
    assert MARKER not in stdio_log.read_text()


def test_review_tools_over_stdio_obey_the_64_kib_body_limit(
    over_stdio, ctx: dict[str, Any]
) -> None:
    """No HTTP middleware in front of stdio: the tool call itself holds the limit."""
    big = "x" * (65 * 1024)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with over_stdio(ctx["key"]) as client:
            command = {"contract_version": 1, "op": "create", "content": big}
            created = error(
                await client.call_tool(
                    "memory_command",
                    {"scope": {"project_id": "p1", "visibility": "shared"}, "command": command},
                )
            )
            small = ok(await versioned(client, "memory_search", query="x" * 100))
        return created, small

    created, small = run(scenario())
    assert created["status"] == 413 and created["code"] == "payload_too_large"
    assert small["hits"] == []
