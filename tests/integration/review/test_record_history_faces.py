"""A record's history over its three faces on one live server: GET
/{context}/memories/{record_id}/history (status codes, limits at the edge), the MCP
`history` tool and `memwarden history` (rich table and --json), all the same answer."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
from typer.testing import CliRunner

from memwarden.cli.main import app
from memwarden.review.timeline import MAX_PAGE
from tests.integration.mcp.conftest import http_session, run
from tests.integration.mcp.helpers import error, ok
from tests.integration.review.helpers import command, create, error_code
from tests.integration.review.helpers import ok as ok_http
from tests.support.live import LiveServer

runner = CliRunner()


def _corrected(client: httpx.Client) -> tuple[str, int]:
    rid, rev = create(client, "The standup is at nine.")
    done = ok_http(command(client, "update", record_id=rid, expected_revision=rev, content="Ten."))
    return rid, done["revision"]


def test_the_history_route_answers_the_revisions_and_refuses_limits_past_the_edge(
    live: LiveServer, make_context: Callable[..., dict[str, Any]], make_key: Callable[..., str]
) -> None:
    ctx = make_context(subject="alice")
    cid = ctx["id"]
    with live.client(ctx["key"]) as alice:
        rid, _ = _corrected(alice)
        route = f"/api/v1/{cid}/memories/{rid}/history"
        body = ok_http(alice.get(route))
        assert [(r["op"], r["cause"]) for r in body["revisions"]] == [
            ("update", "correction"),
            ("create", "write"),
        ]
        assert "nine" not in alice.get(route).text and "Ten" not in alice.get(route).text
        for limit in (0, MAX_PAGE + 1):
            refused = alice.get(route, params={"limit": limit})
            assert refused.status_code == 400 and refused.json()["error"]["field"] == "limit"
        for limit in (1, MAX_PAGE):
            assert alice.get(route, params={"limit": limit}).status_code == 200
        first = ok_http(alice.get(route, params={"limit": 1}))
        older = ok_http(alice.get(route, params={"limit": 1, "cursor": first["next_cursor"]}))
        assert [r["revision"] for r in first["revisions"] + older["revisions"]] == [2, 1]
        assert older["next_cursor"] is None
        bad = alice.get(route, params={"cursor": "abc"})
        assert bad.status_code == 400 and bad.json()["error"]["field"] == "cursor"
        assert alice.get(f"/api/v1/{cid}/memories/not-an-id/history").status_code == 400
        missing = alice.get(f"/api/v1/{cid}/memories/{'0' * 8}-0000-4000-8000-{'0' * 12}/history")
        assert missing.status_code == 404
    writer = make_key(cid, ["memory_write"], subject="wendy")
    with live.client(writer) as wendy:
        denied = wendy.get(route)
        assert denied.status_code == 403 and error_code(denied) == "missing_grant"
    other = make_context("other")
    with live.client(other["key"]) as stranger:
        assert stranger.get(route).status_code == 403  # another tenant's Context
    with httpx.Client(base_url=live.url) as anonymous:
        assert anonymous.get(route).status_code == 401


def test_the_mcp_tool_and_the_cli_verb_give_the_same_history_as_http(
    live: LiveServer, make_context: Callable[..., dict[str, Any]]
) -> None:
    ctx = make_context(subject="alice")
    with live.client(ctx["key"]) as alice:
        rid, _ = _corrected(alice)
        over_http = ok_http(alice.get(f"/api/v1/{ctx['id']}/memories/{rid}/history"))

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        async with http_session(live.url, ctx["key"]) as client:
            whole = ok(await client.call_tool("history", {"record_id": rid}))
            page = ok(await client.call_tool("history", {"record_id": rid, "limit": 1}))
            past = error(await client.call_tool("history", {"record_id": rid, "limit": 0}))
            return whole, page, past

    whole, page, past = run(scenario())
    assert whole == over_http
    assert len(page["revisions"]) == 1 and page["next_cursor"] == "2"
    assert past["code"] == "invalid_request"

    def cli(*args: str) -> Any:
        return runner.invoke(
            app,
            ["history", rid, *args, "--url", live.url, "--context", ctx["id"]],
            env={"MEMWARDEN_API_KEY": ctx["key"], "COLUMNS": "200"},
        )

    as_json = cli("--json")
    assert as_json.exit_code == 0, as_json.output
    assert json.loads(as_json.stdout) == over_http
    table = cli()
    assert table.exit_code == 0, table.output
    assert "correction" in table.output and "write" in table.output
    assert f"note {rid} (live)" in table.output and "written by alice" in table.output
    paged = cli("--limit", "1")
    assert "--cursor 2" in paged.output
    unknown = runner.invoke(
        app,
        ["history", rid, "--url", live.url, "--context", ctx["id"]],
        env={"MEMWARDEN_API_KEY": "mw_not_a_key"},
    )
    assert unknown.exit_code == 2 and "401" in unknown.output
