"""The pass tools: run_pass queues a run as POST /passes/{stage}/run does; get_pass_run
reads it back."""

from __future__ import annotations

from typing import Any

from tests.integration.mcp.conftest import Connect, run
from tests.integration.mcp.helpers import error, ok


def test_run_pass_queues_a_run_that_get_pass_run_reads_back(
    over_http: Connect, ctx: dict[str, Any], make_key
) -> None:
    reader = make_key(ctx["id"], ["memory_read"])

    async def scenario() -> dict[str, Any]:
        async with over_http(ctx["key"]) as client:
            started = ok(await client.call_tool("run_pass", {"stage": "rollup"}))
            read = ok(await client.call_tool("get_pass_run", {"runId": started["runId"]}))
            off = error(await client.call_tool("run_pass", {"stage": "elaboration"}))
        async with over_http(reader) as client:
            denied = error(await client.call_tool("run_pass", {"stage": "gist"}))
        return {"started": started, "read": read, "off": off, "denied": denied}

    out = run(scenario())
    assert out["read"]["runId"] == out["started"]["runId"]
    assert out["read"]["status"] == "queued" and out["read"]["stage"] == "rollup"
    assert out["read"]["counts"] == {"inputs": 0, "written": 0, "dropped": 0, "held": 0}
    assert out["off"]["code"] == "pass_disabled" and out["off"]["status"] == 409
    assert out["denied"]["status"] == 403
