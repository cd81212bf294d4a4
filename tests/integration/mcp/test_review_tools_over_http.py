"""The review contract's tools over streamable HTTP, with the SDK's own client."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.integration.mcp.conftest import Connect, http_session, run
from tests.integration.mcp.helpers import (
    SCOPE,
    create,
    decide,
    error,
    ok,
    payload,
    versioned,
)

REVIEW_TOOLS = {
    "memory_command",
    "memory_read",
    "memory_search",
    "review_decide",
    "review_state",
    "review_read",
    "review_eligibility",
}


def test_the_endpoint_lists_the_review_tools_with_their_contract_schemas(
    over_http: Connect, ctx: dict[str, Any]
) -> None:
    async def scenario() -> dict[str, Any]:
        async with over_http(ctx["key"]) as client:
            listed = await client.list_tools()
        return {tool.name: tool for tool in listed.tools}

    tools = run(scenario())
    assert set(tools) >= REVIEW_TOOLS
    decide_schema = tools["review_decide"].input_schema
    assert decide_schema["required"] == ["scope", "command"]
    assert "ReviewCommand" in decide_schema["$defs"]
    assert tools["memory_read"].annotations.read_only_hint is True


def test_a_note_created_decided_and_read_back_gives_the_same_json_as_http(
    over_http: Connect, ctx: dict[str, Any], live
) -> None:
    async def scenario() -> dict[str, Any]:
        async with over_http(ctx["key"]) as client:
            rid, rev = await create(client, "Alice prefers green tea")
            receipt = ok(await decide(client, rid, rev, idempotency_key="mcp-1"))["receipt"]
            return {
                "rid": rid,
                "receipt": receipt,
                "state": ok(await versioned(client, "review_state", record_id=rid)),
                "read": ok(await versioned(client, "memory_read", record_id=rid)),
                "receipt_read": ok(
                    await versioned(
                        client, "review_read", record_id=rid, revision=receipt["revision"]
                    )
                ),
                "eligibility": ok(await versioned(client, "review_eligibility", record_id=rid)),
                "search": ok(await versioned(client, "memory_search", query="green tea")),
            }

    out = run(scenario())
    rid, receipt = out["rid"], out["receipt"]
    assert receipt["disposition"] == "approved" and receipt["reviewer"] == "alice"
    assert receipt["credential_id"] == ctx["key_id"] and receipt["idempotency_key"] == "mcp-1"
    assert out["read"]["record"]["content"] == {"text": "Alice prefers green tea"}
    assert [hit["record"]["id"] for hit in out["search"]["hits"]] == [rid]
    with live.client(ctx["key"]) as http:
        body = {"contract_version": 1, "scope": SCOPE, "record_id": rid}
        assert http.post("/api/v1/memory/reviews/state", json=body).json() == out["state"]
        assert http.post("/api/v1/memory/read", json=body).json() == out["read"]
        assert (
            http.post("/api/v1/memory/reviews/eligibility", json=body).json()
            == (out["eligibility"])
        )
        read = http.post("/api/v1/memory/reviews/read", json={**body, "revision": 2})
        assert read.json() == out["receipt_read"]


def test_a_stale_expected_revision_is_a_conflict_tool_error_with_the_http_code(
    over_http: Connect, ctx: dict[str, Any]
) -> None:
    async def scenario() -> dict[str, Any]:
        async with over_http(ctx["key"]) as client:
            rid, rev = await create(client, "x")
            ok(await decide(client, rid, rev))
            return error(await decide(client, rid, rev, disposition="rejected"))

    err = run(scenario())
    assert err["code"] == "stale_revision" and err["status"] == 409
    assert err["kind"] == "conflict" and err["field"] == "command.expected_revision"
    assert err["current_revision"] == 2


def test_an_unknown_field_in_a_command_is_refused_like_the_http_body(
    over_http: Connect, ctx: dict[str, Any]
) -> None:
    async def scenario() -> dict[str, Any]:
        async with over_http(ctx["key"]) as client:
            command = {"contract_version": 1, "op": "create", "content": "x", "tenant": "other"}
            result = await client.call_tool("memory_command", {"scope": SCOPE, "command": command})
            return error(result)

    err = run(scenario())
    assert err == {
        "code": "unknown_field",
        "message": "unknown field 'command.tenant'",
        "field": "command.tenant",
        "status": 400,
        "kind": "invalid_request",
    }


def test_a_validator_failure_names_the_rule_and_never_echoes_the_value(
    over_http: Connect, ctx: dict[str, Any]
) -> None:
    async def scenario() -> dict[str, Any]:
        async with over_http(ctx["key"]) as client:
            rid, rev = await create(client, "y")
            return payload(await decide(client, rid, rev, evidence_ref="zq-\x07-marker"))

    body = run(scenario())
    err = body["error"]
    assert err["code"] == "invalid_request" and err["field"] == "command.evidence_ref"
    assert "control characters" in err["message"] and "zq-" not in str(body)


def test_a_create_that_takes_a_forbidden_field_gets_the_service_rule_not_a_copy(
    over_http: Connect, ctx: dict[str, Any]
) -> None:
    async def scenario() -> dict[str, Any]:
        async with over_http(ctx["key"]) as client:
            command = {
                "contract_version": 1,
                "op": "create",
                "content": "z",
                "expected_revision": 1,
            }
            return error(
                await client.call_tool("memory_command", {"scope": SCOPE, "command": command})
            )

    err = run(scenario())
    assert err["code"] == "invalid_request" and err["field"] == "command.expected_revision"
    assert err["message"] == "create does not take expected_revision"


def test_a_record_in_another_context_is_not_found(
    over_http: Connect, make_context, ctx: dict[str, Any]
) -> None:
    other = make_context(name="other", subject="alice")

    async def scenario() -> dict[str, Any]:
        async with over_http(ctx["key"]) as client:
            rid, _ = await create(client, "only in the first context")
        async with over_http(other["key"]) as client:
            return error(await versioned(client, "memory_read", record_id=rid))

    err = run(scenario())
    assert err["code"] == "not_found" and err["status"] == 404


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_each_call_acts_with_the_bearer_key_it_carries(
    live, ctx: dict[str, Any], make_key, mode: str
) -> None:
    """Two clients on one endpoint, in either protocol era: receipts name each call's key."""
    bob_key = make_key(ctx["id"], ["memory_read", "memory_review"], subject="bob")

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with http_session(live.url, ctx["key"], mode) as alice:
            rid, rev = await create(alice, "who decided?")
            async with http_session(live.url, bob_key, mode) as bob:
                first = ok(await decide(bob, rid, rev))["receipt"]
            second = ok(await decide(alice, rid, first["revision"]))["receipt"]
        return first, second

    first, second = run(scenario())
    assert first["reviewer"] == "bob" and first["credential_id"] != ctx["key_id"]
    assert second["reviewer"] == "alice" and second["credential_id"] == ctx["key_id"]


def test_the_endpoint_refuses_a_body_over_two_mebibytes(live, ctx: dict[str, Any]) -> None:
    big = (
        b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"x": "'
        + (b"a" * (2 * 1024 * 1024))
        + b'"}}'
    )
    headers = {
        "Authorization": f"Bearer {ctx['key']}",
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
    }
    resp = httpx.post(f"{live.url}/mcp", content=big, headers=headers, timeout=30)
    assert resp.status_code == 413
    assert resp.json()["error"]["code"] == "payload_too_large"


def test_the_server_logs_each_call_by_tool_name_and_never_its_arguments(
    over_http: Connect, ctx: dict[str, Any], capfd
) -> None:
    marker = "zq-http-content-marker-5e1d"

    async def scenario() -> None:
        async with over_http(ctx["key"]) as client:
            rid, rev = await create(client, f"note {marker}")
            error(await decide(client, rid, rev, evidence_ref=f"{marker}\x00"))
            error(await versioned(client, "memory_search", query=marker * 300))

    run(scenario())
    logged = capfd.readouterr().err
    assert logged.count('"event": "mcp_tool"') == 3 and marker not in logged


def test_review_tools_obey_the_64_kib_body_limit_as_http_does(
    over_http: Connect, ctx: dict[str, Any], live
) -> None:
    """Spec 3: "Requests use the standard 64 KiB body limit" on every interface."""
    big = "x" * (65 * 1024)
    with live.client(ctx["key"]) as http:
        body = {"contract_version": 1, "scope": SCOPE, "query": big}
        over = http.post("/api/v1/memory/search", json=body)
    assert over.status_code == 413 and over.json()["error"]["code"] == "payload_too_large"

    async def scenario() -> dict[str, Any]:
        async with over_http(ctx["key"]) as client:
            return error(await versioned(client, "memory_search", query=big))

    err = run(scenario())
    assert err["status"] == 413 and err["code"] == "payload_too_large"
