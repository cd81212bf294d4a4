"""pydantic-ai's agent loop calling memwarden's tools (its FunctionModel plays the model:
it asks for the tool calls a test gives it, then answers with what the tools returned)."""

from __future__ import annotations

import asyncio
from typing import Any

from memwarden_client.integrations.pydantic_ai import memwarden_tools
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from tests.clients.adapters.conftest import CREDENTIAL_TEXT, PERSONAL_TEXT, Ctx


def calling(name: str, args: dict[str, Any]) -> FunctionModel:
    """A model that calls one tool, then answers with the tool's return value."""

    def reply(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        returns = [
            part.content
            for message in messages
            for part in message.parts
            if isinstance(part, ToolReturnPart)
        ]
        if returns:
            return ModelResponse(parts=[TextPart(str(returns[-1]))])
        return ModelResponse(parts=[ToolCallPart(name, args)])

    return FunctionModel(reply)


def ask(ctx: Ctx, name: str, args: dict[str, Any]) -> str:
    async def go() -> str:
        async with ctx.async_client() as client:
            agent = Agent(calling(name, args), tools=memwarden_tools(client, scope="user/alice"))
            return (await agent.run("go")).output

    return asyncio.run(go())


def test_an_agent_recalls_what_it_remembered(ctx: Ctx) -> None:
    assert ask(ctx, "remember", {"text": "I drive a green Volvo."}).startswith("Remembered: ")
    assert "Volvo" in ask(ctx, "recall", {"query": "what car"})


def test_the_agent_reads_that_a_write_is_held_or_refused_by_reason_code_only(
    judged_ctx: Ctx,
) -> None:
    assert ask(judged_ctx, "remember", {"text": PERSONAL_TEXT}).startswith("Held for review")
    refused = ask(judged_ctx, "remember", {"text": CREDENTIAL_TEXT})
    assert "judge_refused: credential" in refused and "ghp_" not in refused
