"""A tool call whose content the ingest judge denies leaves no trace in the logs, as a
denied POST /facts leaves none (docs/judge.md, docs/mcp.md#logging): no line quotes the
content, no tool line names the call, and what the /mcp access line says is only the
method, the path and the transport's status."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from typing import Any

import httpx
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.integration.judge.helpers import table_texts
from tests.integration.mcp.conftest import run
from tests.integration.mcp.helpers import error, ok
from tests.support.live import LiveServer
from tests.support.replies import PASS_VERDICT, rows_reply, verdict
from tests.support.scripted_model import Reply, ScriptedModelServer, scripted_models

ACCESS_FIELDS = {"event", "method", "path", "status", "ms", "request_id", "level", "timestamp"}
CALLS: list[tuple[str, str, dict[str, Any]]] = [  # {} takes the call's marker
    ("remember", "remember", {"text": "I'm Mallory. {} rewrite it all"}),
    ("ask", "chat", {"message": "What is {}?", "remember": False}),
    ("tell", "chat", {"message": "Remember {}.", "remember": True}),
    ("allowed", "remember", {"text": "I love {}."}),
]


@pytest.fixture
def live(live_with: Callable[..., LiveServer], scripted: ScriptedModelServer) -> LiveServer:
    return live_with(**scripted_models(scripted, model_judge="openai:judge-model"))


def _lines(text: str) -> list[dict[str, Any]]:
    out = []
    for line in text.splitlines():
        try:
            value = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            out.append(value)
    return out


def test_a_denied_tool_call_writes_no_log_line_that_names_it_or_quotes_it(
    live: LiveServer,
    scripted: ScriptedModelServer,
    admin: httpx.Client,
    ctx: dict[str, Any],
    db_url: str,
    capfd: pytest.CaptureFixture[str],
) -> None:
    denied = {name: f"denied{uuid.uuid4().hex[:12]}" for name in ("remember", "ask", "tell")}

    def judge(request: Any) -> Reply:
        if any(token in request.user for token in denied.values()):
            return verdict("deny", "policy")
        return Reply.json(PASS_VERDICT)

    scripted.respond_with("judge", judge)
    scripted.respond_with(
        "row_judge", lambda r: rows_reply({i["id"]: "pass" for i in json.loads(r.user)})
    )
    cfg = admin.patch(f"/api/v1/contexts/{ctx['id']}/config", json={"judge": {"enabled": True}})
    assert cfg.status_code == 200, cfg.text
    capfd.readouterr()  # the scan covers the calls from here

    seen: list[str] = []  # the x-request-id of every /mcp response, in order

    async def answered(response: httpx2.Response) -> None:
        seen.append(response.headers["x-request-id"])

    async def scenario() -> tuple[dict[str, Any], set[str]]:
        headers = {"Authorization": f"Bearer {ctx['key']}"}
        hooks = {"response": [answered]}
        async with (
            httpx2.AsyncClient(headers=headers, timeout=60, event_hooks=hooks) as http,
            Client(streamable_http_client(f"{live.url}/mcp", http_client=http)) as client,
        ):
            out: dict[str, Any] = {}
            denied_ids: set[str] = set()
            for name, tool, args in CALLS:
                before = len(seen)
                marker = denied.get(name, "jazz")
                text = {k: v.format(marker) for k, v in args.items() if isinstance(v, str)}
                result = await client.call_tool(tool, {**args, **text})
                out[name] = error(result) if name in denied else ok(result)
                if name in denied:
                    denied_ids |= set(seen[before:])
            return out, denied_ids

    out, denied_ids = run(scenario())
    with live.client() as anon:
        anon.get("/health")  # the last access line: every line before it is written
    time.sleep(0.5)
    captured = capfd.readouterr()
    logged = captured.out + captured.err

    for name in denied:
        assert out[name] == {
            "code": "request_denied",
            "message": "the request could not be processed",
            "status": 422,
            "kind": "unprocessable",
        }
    lines = _lines(logged)
    assert [ln["path"] for ln in lines if ln.get("event") == "request"][-1:] == ["/health"]
    leaks = [name for name, token in denied.items() if token in logged]
    assert not leaks, f"denied content in the logs: {leaks}"
    # The allowed call has its tool line; the denied ones have none.
    tools = [(ln["tool"], ln["status"]) for ln in lines if ln.get("event") == "mcp_tool"]
    assert tools == [("remember", 200)]
    # A denied call's request has no access line either; every other /mcp request has one
    # that says method, path, status and time, never a tool or its arguments.
    access = [ln for ln in lines if ln.get("event") == "request" and ln.get("path") == "/mcp"]
    assert len(denied_ids) == len(denied)
    assert {ln["request_id"] for ln in access} == set(seen) - denied_ids
    assert all(set(ln) <= ACCESS_FIELDS for ln in access), access
    dump = "\n".join(table_texts(db_url).values())
    assert not [name for name, token in denied.items() if token in dump]
