"""LlamaIndex on memwarden: a long-term memory block for `Memory.from_defaults`.

    block = MemwardenMemoryBlock(client=client, scope="user/alice")
    memory = Memory.from_defaults(session_id="chat-1", memory_blocks=[block])

When the short-term chat history outgrows its token share, `Memory` flushes the oldest
messages to its blocks: this block writes each user and assistant message through
`/facts`, in one memwarden session (user turns as the user's, assistant turns as
`assistant_speaker`'s). On every `aget` it recalls (`/query`) what bears on the latest
user message, as lines for the memory block template.

A refused or held message is not raised: `Memory` has already archived the flushed
messages when it hands them over, so an exception would only abort the agent's turn.
Instead the block tells the agent at its next `aget` (one line per outcome, the judge's
reason codes, never the refused text) and keeps each outcome in `writes` and
`refusals`.
"""

from __future__ import annotations

from typing import Any

from llama_index.core.base.llms.types import ChatMessage, MessageRole
from llama_index.core.memory import BaseMemoryBlock
from pydantic import Field, PrivateAttr

from memwarden_client.errors import JudgeRefused
from memwarden_client.integrations import _memory
from memwarden_client.integrations._memory import Where, call

MAX_QUERY = 4000


class MemwardenMemoryBlock(BaseMemoryBlock[str]):
    """Long-term memory in memwarden: recall on `aget`, `/facts` writes on `aput`.

    `client` is an `AsyncMemwarden` (a sync `Memwarden` runs in a thread)."""

    name: str = Field(default="memwarden", description="The block's name in the template.")
    description: str | None = Field(default="What memwarden recalls for the latest user message.")
    client: Any = Field(exclude=True)
    scope: str | None = None
    speaker: str | None = None
    assistant_speaker: str = "assistant"
    visibility: str | None = None
    limit: int = 5
    memwarden_session_id: str | None = None
    _writes: list[Any] = PrivateAttr(default_factory=list)
    _refusals: list[JudgeRefused] = PrivateAttr(default_factory=list)
    _notices: list[str] = PrivateAttr(default_factory=list)

    @property
    def writes(self) -> list[Any]:
        """Each `/facts` answer, in order (`held` says a judge holds it)."""
        return list(self._writes)

    @property
    def refusals(self) -> list[JudgeRefused]:
        return list(self._refusals)

    def _where(self, role: MessageRole) -> Where | None:
        if role == MessageRole.USER:
            return Where(scope=self.scope, speaker=self.speaker, visibility=self.visibility)
        if role == MessageRole.ASSISTANT:
            speaker = self.assistant_speaker
            return Where(scope=self.scope, speaker=speaker, visibility=self.visibility)
        return None

    async def _aget(self, messages: list[ChatMessage] | None = None, **block_kwargs: Any) -> str:
        notices, self._notices = self._notices, []
        lines = list(notices)
        query = _latest_question(messages or [])
        if query:
            where = Where(scope=self.scope, limit=self.limit)
            answer = await call(self.client.query, query, **where.read_args())
            if answer.hits:
                lines.append(_memory.hits_text(answer))
        return "\n".join(lines)

    async def _aput(self, messages: list[ChatMessage]) -> None:
        for message in messages:
            where = self._where(message.role)
            text = (message.content or "").strip() if isinstance(message.content, str) else ""
            if where is None or not text:
                continue
            session = self.memwarden_session_id
            try:
                answer = await call(self.client.remember, text, **where.write_args(session))
            except JudgeRefused as exc:
                self._refusals.append(exc)
                self._notices.append(_memory.refusal_text(exc))
                continue
            self.memwarden_session_id = answer.session_id
            self._writes.append(answer)
            if answer.held:
                self._notices.append(_memory.written_text(answer))


def _latest_question(messages: list[ChatMessage]) -> str:
    for message in reversed(messages):
        if message.role == MessageRole.USER and isinstance(message.content, str):
            text = message.content.strip()
            if text:
                return text[:MAX_QUERY]
    return ""


__all__ = ["MemwardenMemoryBlock"]
