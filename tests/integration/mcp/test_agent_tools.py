"""The agent's tools over streamable HTTP: remember, recall, profile and state."""

from __future__ import annotations

from typing import Any

from tests.integration.mcp.conftest import Connect, run
from tests.integration.mcp.helpers import error, ok

AGENT_TOOLS = {"remember", "recall", "profile", "state"}


def test_remembered_facts_come_back_through_recall_profile_and_state(
    over_http: Connect, ctx: dict[str, Any]
) -> None:
    async def scenario() -> dict[str, Any]:
        async with over_http(ctx["key"]) as client:
            listed = {tool.name for tool in (await client.list_tools()).tools}
            written = ok(
                await client.call_tool(
                    "remember",
                    {"text": "I'm Alice, CTO at Acme. Always answer in French.", "scope": ["p1"]},
                )
            )
            return {
                "listed": listed,
                "written": written,
                "recall": ok(await client.call_tool("recall", {"query": "Acme CTO", "limit": 5})),
                "profile": ok(await client.call_tool("profile", {"entity": "Alice"})),
                "state": ok(await client.call_tool("state", {})),
            }

    out = run(scenario())
    assert out["listed"] >= AGENT_TOOLS
    assert out["written"]["held"] is False and out["written"]["sessionId"]
    assert [e["name"] for e in out["written"]["extraction"]["entities"]][:1] == ["Alice"]
    assert any("Acme" in hit["text"] for hit in out["recall"]["hits"])
    assert "Always answer in French" in str(out["state"]["instructions"])
    assert "CTO" in str(out["profile"])


def test_remember_without_inference_keeps_the_turn_in_the_given_session(
    over_http: Connect, ctx: dict[str, Any]
) -> None:
    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with over_http(ctx["key"]) as client:
            first = ok(await client.call_tool("remember", {"text": "hello", "infer": "none"}))
            again = {"text": "hello again", "infer": "none", "sessionId": first["sessionId"]}
            return first, ok(await client.call_tool("remember", again))

    first, second = run(scenario())
    assert second["sessionId"] == first["sessionId"] and second["turnId"] != first["turnId"]
    assert first["extraction"]["entities"] == []


def test_recall_arguments_are_validated_by_the_http_query_model(
    over_http: Connect, ctx: dict[str, Any]
) -> None:
    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with over_http(ctx["key"]) as client:
            too_many = error(await client.call_tool("recall", {"query": "x", "limit": 101}))
            blank = error(await client.call_tool("recall", {"query": "   "}))
            return too_many, blank

    too_many, blank = run(scenario())
    assert too_many["code"] == "invalid_request" and too_many["field"] == "limit"
    assert blank["code"] == "invalid_request" and blank["field"] == "query"


def test_a_read_only_key_can_recall_but_not_remember(
    over_http: Connect, ctx: dict[str, Any], make_key
) -> None:
    reader = make_key(ctx["id"], ["memory_read"], subject="rita")

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with over_http(reader) as client:
            refused = error(await client.call_tool("remember", {"text": "I'm Rita"}))
            recalled = ok(await client.call_tool("recall", {"query": "anything"}))
            return refused, recalled

    refused, recalled = run(scenario())
    assert refused["status"] == 403 and refused["code"] == "missing_grant"
    assert recalled["hits"] == []


def test_the_agent_tools_act_only_in_the_keys_own_context(
    over_http: Connect, ctx: dict[str, Any], make_context
) -> None:
    other = make_context(name="other", subject="alice")

    async def scenario() -> dict[str, Any]:
        async with over_http(ctx["key"]) as client:
            ok(await client.call_tool("remember", {"text": "I live in Berlin"}))
        async with over_http(other["key"]) as client:
            return ok(await client.call_tool("recall", {"query": "Berlin"}))

    assert run(scenario())["hits"] == []


def test_reprocess_retries_a_failed_turn_once(settings, scripted, ctx: dict[str, Any]) -> None:
    from tests.integration.mcp.conftest import http_session
    from tests.support.live import LiveServer
    from tests.support.scripted_model import Reply

    modelled = settings.model_copy(
        update={
            "openai_base_url": scripted.base_url,
            "model_extraction": "openai:test-model",
            "model_max_retries": 0,
        }
    )
    found = {"name": "Marguerite", "entityType": "person", "memoryCategory": "identity"}
    lists = ("attributes", "relations", "actions", "instructions", "uncertainties", "corrections")
    scripted.script(
        "extraction",
        Reply.text("not JSON"),
        Reply.json({"entities": [found], **{k: [] for k in lists}}),
    )
    server = LiveServer(modelled).start()

    async def scenario() -> tuple[dict[str, Any], ...]:
        async with http_session(server.url, ctx["key"]) as client:
            listed = {tool.name for tool in (await client.list_tools()).tools}
            assert "reprocess" in listed
            written = ok(await client.call_tool("remember", {"text": "Marguerite keeps bees."}))
            args = {"id": written["turnId"], "kind": "turn"}
            first = ok(await client.call_tool("reprocess", args))
            second = error(await client.call_tool("reprocess", args))
            return written, first, second

    try:
        written, first, second = run(scenario())
    finally:
        server.stop()
    assert written["extraction"]["chunkOnly"] is True
    assert [e["name"] for e in first["extraction"]["entities"]] == ["Marguerite"]
    assert second["code"] == "nothing_to_reprocess"


def test_remember_takes_the_longest_turn_and_refuses_one_character_more(
    over_http: Connect, ctx: dict[str, Any]
) -> None:
    from memwarden.limits import MAX_TURN_CHARS

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with over_http(ctx["key"]) as client:
            over = {"text": "a" * (MAX_TURN_CHARS + 1), "infer": "none"}
            refused = error(await client.call_tool("remember", over))
            edge = {"text": "a" * MAX_TURN_CHARS, "infer": "none"}
            return refused, ok(await client.call_tool("remember", edge))

    refused, written = run(scenario())
    assert refused["code"] == "invalid_request" and refused["field"] == "text"
    assert written["turnId"]
