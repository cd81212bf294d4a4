"""Every tool call authenticates: missing, invalid and revoked keys, missing grants."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import ADMIN_TOKEN
from tests.integration.mcp.conftest import Connect, run
from tests.integration.mcp.helpers import SCOPE, create, decide, error, ok, versioned


def _state_call_error(over_http: Connect, token: str | None, record_id: str) -> dict[str, Any]:
    async def scenario() -> dict[str, Any]:
        async with over_http(token) as client:
            return error(await versioned(client, "review_state", record_id=record_id))

    return run(scenario())


RID = "01a22c1c-d345-739e-9cb1-0e0f8de1a9fb"


@pytest.mark.parametrize("kind", ["missing", "garbage", "wrong_secret"])
def test_a_call_without_a_valid_key_is_an_unauthorized_tool_error(
    over_http: Connect, ctx: dict[str, Any], kind: str
) -> None:
    token = {"missing": None, "garbage": "not-a-key", "wrong_secret": ctx["key"][:-4] + "zzzz"}
    err = _state_call_error(over_http, token[kind], RID)
    assert err["code"] == "unauthorized" and err["status"] == 401
    assert err["kind"] == "unauthorized"


def test_tools_can_be_listed_without_a_key_but_not_called(over_http: Connect) -> None:
    async def scenario() -> tuple[int, dict[str, Any]]:
        async with over_http(None) as client:
            listed = await client.list_tools()
            result = await client.call_tool("state", {})
            return len(listed.tools), error(result)

    count, err = run(scenario())
    assert count > 0 and err["code"] == "unauthorized"


def test_a_revoked_key_is_refused_on_its_next_call(
    over_http: Connect, ctx: dict[str, Any], admin
) -> None:
    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with over_http(ctx["key"]) as client:
            rid, _ = await create(client, "before revocation")
            before = ok(await versioned(client, "review_state", record_id=rid))
            revoked = admin.delete(f"/api/v1/contexts/{ctx['id']}/keys/{ctx['key_id']}")
            assert revoked.status_code in (200, 204), revoked.text
            after = error(await versioned(client, "review_state", record_id=rid))
        return before, after

    before, after = run(scenario())
    assert before["state"]["revision"] == 1
    assert after["code"] == "unauthorized"


def test_a_key_without_the_grant_is_forbidden_by_the_service_rule(
    over_http: Connect, ctx: dict[str, Any], make_key
) -> None:
    reader = make_key(ctx["id"], ["memory_read"], subject="rita")

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with over_http(ctx["key"]) as alice:
            rid, rev = await create(alice, "needs a reviewer")
        async with over_http(reader) as client:
            command = {"contract_version": 1, "op": "create", "content": "nope"}
            write = error(
                await client.call_tool("memory_command", {"scope": SCOPE, "command": command})
            )
            review = error(await decide(client, rid, rev))
        return write, review

    write, review = run(scenario())
    for err in (write, review):
        assert err["status"] == 403 and err["kind"] == "forbidden"
        assert err["code"] == "missing_grant"


def test_the_deployment_admin_token_has_no_context_to_act_in(over_http: Connect) -> None:
    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with over_http(ADMIN_TOKEN) as client:
            state = error(await client.call_tool("state", {}))
            read = error(await versioned(client, "memory_read", record_id=RID))
        return state, read

    state, read = run(scenario())
    for err in (state, read):
        assert err["code"] == "context_key_required" and err["kind"] == "forbidden"
