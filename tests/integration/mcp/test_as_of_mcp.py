"""`as_of` over MCP: recall, profile and state answer as of a moment, like the HTTP routes,
and a bad moment is refused naming `as_of`."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from tests.integration.mcp.conftest import Connect, run
from tests.integration.mcp.helpers import error, ok

Sql = Callable[..., list[tuple]]


def moment(sql: Sql) -> str:
    time.sleep(0.01)
    [(now,)] = sql("SELECT clock_timestamp()")
    time.sleep(0.01)
    return now.isoformat()


def test_recall_profile_and_state_answer_as_of_a_moment(
    over_http: Connect, ctx: dict[str, Any], sql: Sql
) -> None:
    async def scenario() -> dict[str, Any]:
        async with over_http(ctx["key"]) as client:
            before = moment(sql)
            ok(await client.call_tool("remember", {"text": "I live in Oslo."}))
            ok(await client.call_tool("remember", {"text": "Always answer in French."}))
            then = moment(sql)
            ok(await client.call_tool("remember", {"text": "I live in Bergen."}))
            after = moment(sql)
            ask = {"query": "live Oslo Bergen", "mode": "lexical"}
            return {
                "empty": ok(await client.call_tool("recall", {**ask, "as_of": before})),
                "then": ok(await client.call_tool("recall", {**ask, "as_of": then})),
                "after": ok(await client.call_tool("recall", {**ask, "as_of": after})),
                "profile": ok(await client.call_tool("profile", {"as_of": then})),
                "no_state": ok(await client.call_tool("state", {"as_of": before})),
                "state": ok(await client.call_tool("state", {"as_of": then})),
                "bad": error(await client.call_tool("recall", {**ask, "as_of": "2026-01-01"})),
                "bad_state": error(await client.call_tool("state", {"as_of": "soon"})),
            }

    out = run(scenario())

    def texts(hits: list[dict[str, Any]]) -> set[str]:
        return {h["text"] for h in hits}

    assert out["empty"]["hits"] == []
    then, after = texts(out["then"]["hits"]), texts(out["after"]["hits"])
    assert "alice lives in Oslo" in then and "alice lives in Bergen" not in then
    assert "alice lives in Bergen" in after and "alice lives in Oslo" not in after
    assert texts(out["profile"]["relations"]) == {"alice lives in Oslo"}
    assert out["no_state"]["instructions"] == []
    assert "French" in str(out["state"]["instructions"])
    for refused in (out["bad"], out["bad_state"]):
        assert refused["code"] == "invalid_request" and refused["field"] == "as_of", refused
