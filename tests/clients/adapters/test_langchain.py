"""LangChain's tools, retriever and chat history on a live memwarden (offline defaults),
and the tools inside a LangGraph graph's ToolNode."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode
from memwarden_client import JudgeRefused, Memwarden
from memwarden_client.integrations.langchain import (
    MemwardenChatMessageHistory,
    MemwardenRetriever,
    memwarden_tools,
)

from tests.clients.adapters.conftest import CREDENTIAL_TEXT, PERSONAL_TEXT, Ctx


def tools_by_name(client: Memwarden, **kwargs: Any) -> dict[str, Any]:
    return {tool.name: tool for tool in memwarden_tools(client, **kwargs)}


def test_recall_finds_what_remember_stored_in_the_users_scope(mw: Memwarden) -> None:
    tools = tools_by_name(mw, scope="user/alice")
    said = tools["remember"].invoke({"text": "I work at Acme. I love jazz."})
    assert said.startswith("Remembered: ") and "new facts" in said
    recalled = tools["recall"].invoke({"query": "where does she work"})
    assert "Acme" in recalled
    assert tools_by_name(mw, scope="user/bob")["recall"].invoke({"query": "Acme"}) == (
        "No memories found."
    )


def test_the_tools_run_on_the_async_client_with_ainvoke(ctx: Ctx) -> None:
    async def both() -> tuple[str, str]:
        async with ctx.async_client() as client:
            remember, recall = memwarden_tools(async_client=client, scope="user/alice")
            said = await remember.ainvoke({"text": "I collect stamps."})
            return said, await recall.ainvoke({"query": "stamps"})

    said, recalled = asyncio.run(both())
    assert said.startswith("Remembered: ") and "stamps" in recalled


def test_a_held_write_says_it_is_held_and_is_not_recalled(judged_ctx: Ctx) -> None:
    with judged_ctx.client() as client:
        tools = tools_by_name(client, scope="user/alice")
        said = tools["remember"].invoke({"text": PERSONAL_TEXT})
        assert said.startswith("Held for review") and "alice@example.com" not in said
        assert "alice@example.com" not in tools["recall"].invoke({"query": "alice example"})


def scripted_tool_calls(*calls: tuple[str, dict[str, Any]]) -> StateGraph:
    """A graph whose 'agent' node asks for the given tool calls (no model), run by
    LangGraph's own ToolNode."""

    def agent(state: MessagesState) -> dict[str, Any]:
        ids = [f"call-{uuid.uuid4().hex[:8]}" for _ in calls]
        tool_calls = [
            {"name": name, "args": args, "id": call_id, "type": "tool_call"}
            for (name, args), call_id in zip(calls, ids, strict=True)
        ]
        return {"messages": [AIMessage(content="", tool_calls=tool_calls)]}

    builder = StateGraph(MessagesState)
    builder.add_node("agent", agent)
    return builder


def run_tools(client: Memwarden, *calls: tuple[str, dict[str, Any]]) -> list[ToolMessage]:
    builder = scripted_tool_calls(*calls)
    builder.add_node("tools", ToolNode(memwarden_tools(client, scope="user/alice")))
    builder.add_edge(START, "agent")
    builder.add_edge("agent", "tools")
    builder.add_edge("tools", END)
    out = builder.compile().invoke({"messages": [HumanMessage("go")]})
    return [m for m in out["messages"] if isinstance(m, ToolMessage)]


def test_a_judge_refusal_reaches_the_model_as_a_tool_error_with_reason_codes_only(
    judged_ctx: Ctx,
) -> None:
    with judged_ctx.client() as client:
        (refused,) = run_tools(client, ("remember", {"text": CREDENTIAL_TEXT}))
    assert refused.status == "error"
    assert "judge_refused" in refused.content and "credential" in refused.content
    assert "ghp_" not in refused.content


def test_in_a_graph_the_tool_node_remembers_and_recalls(mw: Memwarden) -> None:
    (stored,) = run_tools(mw, ("remember", {"text": "I live in Lisbon."}))
    (found,) = run_tools(mw, ("recall", {"query": "where does she live"}))
    assert stored.status == "success" and "Lisbon" in found.content


def test_the_retriever_returns_recalled_hits_as_documents(mw: Memwarden, ctx: Ctx) -> None:
    mw.remember("I prefer green tea in the morning.", scope="user/alice")
    docs = MemwardenRetriever(client=mw, scope="user/alice").invoke("green tea")
    assert docs and any("green tea" in d.page_content for d in docs)
    assert all(d.metadata["scope"] == "user/alice" for d in docs)

    async def recall() -> list[Any]:
        async with ctx.async_client() as client:
            return await MemwardenRetriever(async_client=client, scope="user/alice").ainvoke("tea")

    assert [d.id for d in asyncio.run(recall())] == [d.id for d in docs]


def test_the_chat_history_writes_each_turn_in_one_session_and_reads_them_back(
    mw: Memwarden,
) -> None:
    history = MemwardenChatMessageHistory(mw, scope="user/alice")
    history.add_messages([HumanMessage("I have a dog named Rex."), AIMessage("I will remember.")])
    history.add_user_message("My sister is Maria.")
    assert [m.content for m in history.messages] == [
        "I have a dog named Rex.",
        "I will remember.",
        "My sister is Maria.",
    ]
    assert len(history.writes) == 3 and len({w.session_id for w in history.writes}) == 1
    assert "Rex" in " ".join(h.text or "" for h in mw.query("dog Rex", scope="user/alice").hits)


def test_the_chat_history_says_a_turn_is_held_and_raises_on_a_refusal(judged_ctx: Ctx) -> None:
    with judged_ctx.client() as client:
        history = MemwardenChatMessageHistory(client, scope="user/alice")
        history.add_user_message(PERSONAL_TEXT)
        assert history.writes[-1].held is True
        with pytest.raises(JudgeRefused) as refused:
            history.add_user_message(CREDENTIAL_TEXT)
    assert refused.value.reasons == ["credential"] and "ghp_" not in str(refused.value)
    assert len(history.messages) == 2


def test_the_chat_history_with_the_async_client_writes_its_turns_in_one_session(
    ctx: Ctx,
) -> None:
    async def chat() -> MemwardenChatMessageHistory:
        async with ctx.async_client() as client:
            history = MemwardenChatMessageHistory(async_client=client, scope="user/alice")
            await history.aadd_messages([HumanMessage("I play chess."), AIMessage("Noted.")])
            return history

    history = asyncio.run(chat())
    assert len(history.writes) == 2 and len({w.session_id for w in history.writes}) == 1
    assert [m.content for m in history.messages] == ["I play chess.", "Noted."]
