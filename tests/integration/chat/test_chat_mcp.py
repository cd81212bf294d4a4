"""The `chat` MCP tool through the SDK's own client over streamable HTTP."""

from __future__ import annotations

from typing import Any

from tests.integration.chat.helpers import remember
from tests.integration.mcp.conftest import http_session, run
from tests.integration.mcp.helpers import error, ok
from tests.support.scripted_model import Reply


def test_the_chat_tool_answers_from_memory_like_the_http_route(live, alice, ctx, scripted) -> None:
    remember(alice, ctx["id"], "My favourite food is durian.")
    scripted.respond_with("chat", Reply.text("Durian."))

    async def scenario() -> tuple[set[str], dict[str, Any], dict[str, Any]]:
        async with http_session(live.url, ctx["key"]) as client:
            listed = {tool.name for tool in (await client.list_tools()).tools}
            answer = ok(
                await client.call_tool(
                    "chat", {"message": "What is my favourite food?", "remember": False}
                )
            )
            refused = error(await client.call_tool("chat", {"message": "hi", "limit": 51}))
            return listed, answer, refused

    listed, answer, refused = run(scenario())
    assert "chat" in listed
    assert answer["answer"] == "Durian." and answer["turnId"] is None
    assert any("durian" in m["text"] for m in answer["memories"])
    assert "durian" in scripted.requests_for("chat")[0].user
    assert refused["status"] == 400
