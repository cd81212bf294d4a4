"""MemwardenMemoryBlock inside LlamaIndex's real `Memory`, against a live memwarden."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from llama_index.core.agent.workflow import ReActAgent
from llama_index.core.base.llms.types import ChatMessage
from llama_index.core.llms import CompletionResponse, CustomLLM, LLMMetadata
from llama_index.core.llms.callbacks import llm_completion_callback
from llama_index.core.memory import InsertMethod, Memory
from memwarden_client import Memwarden
from memwarden_client.integrations.llamaindex import MemwardenMemoryBlock
from pydantic import Field
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from tests.clients.adapters.conftest import CREDENTIAL_TEXT, PERSONAL_TEXT, Ctx


def small_memory(block: MemwardenMemoryBlock, session: str, engine: AsyncEngine) -> Memory:
    """A short-term history of about 20 tokens, so older messages flush to the block."""
    return Memory.from_defaults(
        session_id=session,
        async_engine=engine,
        token_limit=40,
        chat_history_token_ratio=0.5,
        token_flush_size=10,
        memory_blocks=[block],
    )


def converse(ctx: Ctx, turns: list[tuple[str, str]], question: str) -> tuple[Any, list[Any]]:
    async def go() -> tuple[Any, list[Any]]:
        engine = create_async_engine("sqlite+aiosqlite:///:memory:")
        try:
            async with ctx.async_client() as client:
                block = MemwardenMemoryBlock(client=client, scope="user/alice")
                memory = small_memory(block, "chat-1", engine)
                for role, text in turns:
                    await memory.aput(ChatMessage(role=role, content=text))
                return block, await memory.aget(question)
        finally:
            await engine.dispose()

    return asyncio.run(go())


FILLER = [
    ("assistant", "Bees are wonderful creatures to keep."),
    ("user", "The weather today is grey and rainy."),
    ("assistant", "Rain is good for the garden flowers."),
    ("user", "Thanks for the chat."),
    ("assistant", "Any time."),
]


def test_flushed_messages_are_remembered_and_recalled_into_the_memory_for_a_new_question(
    ctx: Ctx,
) -> None:
    block, messages = converse(ctx, [("user", "I keep bees in my garden."), *FILLER], "my bees?")
    assert block.writes and len({w.session_id for w in block.writes}) == 1
    assert "I keep bees in my garden." not in [m.content for m in messages[1:]]  # flushed
    system = messages[0]
    assert system.role == "system" and "bees" in str(system.content)
    assert "<memwarden>" in str(system.content)


def test_a_held_and_a_refused_message_are_told_to_the_agent_by_reason_code_only(
    judged_ctx: Ctx,
) -> None:
    turns = [("user", PERSONAL_TEXT), ("user", CREDENTIAL_TEXT), *FILLER]
    block, messages = converse(judged_ctx, turns, "what did I share?")
    assert [r.reasons for r in block.refusals] == [["credential"]]
    assert [w.held for w in block.writes][:1] == [True]
    system = str(messages[0].content)
    assert "Held for review" in system and "judge_refused: credential" in system
    assert "ghp_" not in system and "alice@example.com" not in system


class ScriptedLLM(CustomLLM):
    """An LLM that answers from a list and keeps every prompt it was given (LlamaIndex's
    OpenAI integration needs an openai the server's pins exclude)."""

    replies: list[str] = Field(default_factory=list)
    prompts: list[str] = Field(default_factory=list)

    @property
    def metadata(self) -> LLMMetadata:
        return LLMMetadata(model_name="scripted")

    @llm_completion_callback()
    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        self.prompts.append(prompt)
        return CompletionResponse(text=self.replies.pop(0))

    @llm_completion_callback()
    def stream_complete(
        self, prompt: str, formatted: bool = False, **kwargs: Any
    ) -> Iterator[CompletionResponse]:
        yield self.complete(prompt, formatted, **kwargs)


# LlamaIndex's agent calls deprecated APIs of its own workflows package and of pydantic
# (it reads every attribute of itself, `__fields__` included, to collect its steps).
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_react_agent_gets_what_the_block_recalls_for_its_question(
    ctx: Ctx, mw: Memwarden
) -> None:
    mw.remember("I keep bees in my garden.", scope="user/alice")
    llm = ScriptedLLM(replies=["Thought: I can answer.\nAnswer: You keep bees."])

    async def go() -> str:
        engine = create_async_engine("sqlite+aiosqlite:///:memory:")
        try:
            async with ctx.async_client() as client:
                block = MemwardenMemoryBlock(client=client, scope="user/alice")
                # ReAct puts its own prompt in place of the system message, so the
                # memory goes with the user's message.
                memory = Memory.from_defaults(
                    session_id="agent",
                    async_engine=engine,
                    memory_blocks=[block],
                    insert_method=InsertMethod.USER,
                )
                agent = ReActAgent(tools=[], llm=llm)
                return str(await agent.run("What do I keep in my garden?", memory=memory))
        finally:
            await engine.dispose()

    assert asyncio.run(go()) == "You keep bees."
    (prompt,) = llm.prompts
    assert "<memwarden>" in prompt and "bees" in prompt.split("<memwarden>")[1]
