"""The OpenAI Agents SDK's Runner with a MemwardenSession and memwarden's function tools,
its model the scripted OpenAI-compatible server, against a live memwarden."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from agents import Agent, OpenAIChatCompletionsModel, RunConfig, Runner, set_tracing_disabled
from memwarden_client import JudgeRefused
from memwarden_client.integrations.openai_agents import (
    MemwardenSession,
    memwarden_function_tools,
)
from openai import AsyncOpenAI

from tests.clients.adapters.conftest import CREDENTIAL_TEXT, PERSONAL_TEXT, Ctx, tool_call
from tests.support.scripted_model import Reply, ScriptedModelServer

MODEL = "agent-model"
NO_TRACING = RunConfig(tracing_disabled=True)


@pytest.fixture(autouse=True)
def _no_trace_export() -> Iterator[None]:
    set_tracing_disabled(True)
    yield


def run(
    scripted: ScriptedModelServer, ctx: Ctx, said: str, *, session: Any = None, tools: bool = False
) -> tuple[str, Any]:
    async def go() -> tuple[str, Any]:
        openai = AsyncOpenAI(base_url=scripted.base_url, api_key="k", max_retries=0)
        async with ctx.async_client() as client:
            agent = Agent(
                name="assistant",
                instructions="Use memory.",
                model=OpenAIChatCompletionsModel(model=MODEL, openai_client=openai),
                tools=memwarden_function_tools(client, scope="user/alice") if tools else [],
            )
            if session is not None:
                session.client = client  # an async client lives in one event loop
            try:
                result = await Runner.run(agent, said, session=session, run_config=NO_TRACING)
            finally:
                await openai.close()
        return str(result.final_output), result

    return asyncio.run(go())


def tool_outputs(scripted: ScriptedModelServer) -> list[str]:
    return [
        str(m.get("content"))
        for r in scripted.requests_for(MODEL)
        for m in r.messages
        if m.get("role") == "tool"
    ]


def test_a_run_with_a_memwarden_session_keeps_the_conversation_and_remembers_its_turns(
    scripted: ScriptedModelServer, ctx: Ctx
) -> None:
    scripted.script(MODEL, Reply.text("Noted, Lisbon it is."), Reply.text("You live in Lisbon."))
    session = MemwardenSession("chat-1", None, scope="user/alice")
    assert run(scripted, ctx, "I live in Lisbon.", session=session)[0] == "Noted, Lisbon it is."
    assert run(scripted, ctx, "Where do I live?", session=session)[0] == "You live in Lisbon."
    second = scripted.requests_for(MODEL)[1]
    assert "I live in Lisbon." in second.user  # the session handed the history back
    assert len(session.writes) == 4  # two user turns, two assistant turns
    assert len({w.session_id for w in session.writes}) == 1
    with ctx.client() as client:
        hits = client.query("Lisbon", scope="user/alice").hits
    assert any("Lisbon" in (h.text or "") for h in hits)


def test_a_held_turn_is_listed_as_held_and_a_refused_one_stops_the_run_by_reason_code(
    scripted: ScriptedModelServer, judged_ctx: Ctx
) -> None:
    scripted.script(MODEL, Reply.text("I will keep that in mind."))
    session = MemwardenSession("chat-2", None, scope="user/alice")
    assert run(scripted, judged_ctx, PERSONAL_TEXT, session=session)[0] == (
        "I will keep that in mind."
    )
    assert [w.held for w in session.writes] == [True, False]  # the user's turn is held
    with pytest.raises(JudgeRefused) as refused:
        run(scripted, judged_ctx, CREDENTIAL_TEXT, session=session)
    assert refused.value.reasons == ["credential"] and "ghp_" not in str(refused.value)


def test_the_recall_tool_hands_the_model_what_remember_stored(
    scripted: ScriptedModelServer, ctx: Ctx
) -> None:
    scripted.script(
        MODEL,
        tool_call(MODEL, "remember", {"text": "I am allergic to peanuts."}),
        Reply.text("Stored."),
        tool_call(MODEL, "recall", {"query": "allergies peanuts"}),
        Reply.text("You are allergic to peanuts."),
    )
    assert run(scripted, ctx, "Remember my allergy.", tools=True)[0] == "Stored."
    assert run(scripted, ctx, "What am I allergic to?", tools=True)[0] == (
        "You are allergic to peanuts."
    )
    stored, recalled = tool_outputs(scripted)
    assert stored.startswith("Remembered: ") and "peanuts" in recalled


def test_the_remember_tool_tells_the_model_a_write_is_held_or_refused(
    scripted: ScriptedModelServer, judged_ctx: Ctx
) -> None:
    scripted.script(
        MODEL,
        tool_call(MODEL, "remember", {"text": PERSONAL_TEXT}),
        Reply.text("ok"),
        tool_call(MODEL, "remember", {"text": CREDENTIAL_TEXT}),
        Reply.text("ok"),
    )
    run(scripted, judged_ctx, "keep my contact", tools=True)
    run(scripted, judged_ctx, "keep my token", tools=True)
    held, refused = tool_outputs(scripted)
    assert held.startswith("Held for review")
    assert "judge_refused: credential" in refused and "ghp_" not in refused


def test_the_session_takes_a_sync_client_too(ctx: Ctx) -> None:
    with ctx.client() as client:
        session = MemwardenSession("chat-3", client, scope="user/alice")
        asyncio.run(session.add_items([{"role": "user", "content": "I like tea."}]))
        assert session.writes[0].held is False
        assert asyncio.run(session.get_items()) == [{"role": "user", "content": "I like tea."}]
