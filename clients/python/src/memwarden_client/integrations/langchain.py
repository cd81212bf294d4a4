"""LangChain (and LangGraph) on memwarden: remember and recall tools, a retriever, and a
chat message history that writes its turns through `/facts`.

    tools = memwarden_tools(client, scope="user/alice")       # [remember, recall]
    retriever = MemwardenRetriever(client=client, scope="user/alice")
    history = MemwardenChatMessageHistory(client, scope="user/alice")

`remember` goes through `/facts`: judged, extracted and reconciled like any write. A held
write comes back saying it is held; a judge refusal is a tool error (`ToolException`,
shown to the model) naming the reason codes, never the refused text. `recall` and the
retriever are `/query`'s hybrid recall.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.chat_history import BaseChatMessageHistory
from langchain_core.documents import Document
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.retrievers import BaseRetriever
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from pydantic import BaseModel, ConfigDict, Field

from memwarden_client.integrations import _memory
from memwarden_client.integrations._memory import Refused, Where

REMEMBER = (
    "Store something worth keeping about the user or the task in long-term memory."
    " Write it as a plain statement in the user's words (first person is the user)."
)
RECALL = "Search long-term memory for what is known that bears on a question."


class RememberInput(BaseModel):
    text: str = Field(description="What to remember, as a plain statement.")


class RecallInput(BaseModel):
    query: str = Field(description="What to look for.")


def memwarden_tools(
    client: Any = None,
    *,
    async_client: Any = None,
    scope: str | None = None,
    speaker: str | None = None,
    visibility: str | None = None,
    limit: int = 5,
) -> list[BaseTool]:
    """`remember` (through /facts) and `recall` (through /query) for one end user.

    `scope="user/alice"` keeps the user's memories in their own scope and makes first
    person Alice's own entity; `speaker` names her when the scope does not."""
    where = Where(scope=scope, speaker=speaker, visibility=visibility, limit=limit)
    return [remember_tool(client, async_client, where), recall_tool(client, async_client, where)]


def remember_tool(client: Any, async_client: Any, where: Where) -> BaseTool:
    def remember(text: str) -> str:
        try:
            return _memory.written_text(_memory.remember(_sync(client), text, where))
        except Refused as exc:
            raise ToolException(str(exc)) from None

    async def aremember(text: str) -> str:
        if async_client is None:
            return remember(text)
        try:
            return _memory.written_text(await _memory.aremember(async_client, text, where))
        except Refused as exc:
            raise ToolException(str(exc)) from None

    return StructuredTool.from_function(
        func=remember,
        coroutine=aremember,
        name="remember",
        description=REMEMBER,
        args_schema=RememberInput,
        handle_tool_error=True,
    )


def recall_tool(client: Any, async_client: Any, where: Where) -> BaseTool:
    def recall(query: str) -> str:
        return _memory.hits_text(_sync(client).query(query, **where.read_args()))

    async def arecall(query: str) -> str:
        if async_client is None:
            return recall(query)
        return _memory.hits_text(await async_client.query(query, **where.read_args()))

    return StructuredTool.from_function(
        func=recall, coroutine=arecall, name="recall", description=RECALL, args_schema=RecallInput
    )


def _sync(client: Any) -> Any:
    if client is None:
        raise TypeError("this tool has only an async client: call it with ainvoke")
    return client


class MemwardenRetriever(BaseRetriever):
    """`/query`'s hybrid recall as LangChain documents: the hit's text as page content,
    its id, kind, score, scope and source in the metadata."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    client: Any = None
    async_client: Any = None
    scope: str | list[str] | None = None
    limit: int = 5
    kinds: list[str] | None = None
    mode: str | None = None

    def _args(self) -> dict[str, Any]:
        return {"scope": self.scope, "limit": self.limit, "kinds": self.kinds, "mode": self.mode}

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        return _documents(_sync(self.client).query(query, **self._args()))

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        if self.async_client is None:
            return _documents(_sync(self.client).query(query, **self._args()))
        return _documents(await self.async_client.query(query, **self._args()))


def _documents(answer: Any) -> list[Document]:
    return [
        Document(
            page_content=hit.text or "",
            id=hit.id,
            metadata={
                "id": hit.id,
                "kind": hit.kind,
                "score": hit.score,
                "scope": hit.scope.path,
                "visibility": hit.scope.visibility,
                "source_kind": hit.source.kind,
                "source_ref": hit.source.ref,
            },
        )
        for hit in answer.hits
    ]


class MemwardenChatMessageHistory(BaseChatMessageHistory):
    """A chat history that remembers: each human and AI message is kept (in this
    object, or in `history` when given) and written through `/facts` in one memwarden
    session, human turns as the user's (`scope`/`speaker`), AI turns as `ai_speaker`'s
    (so the assistant's "I" never becomes the user).

    memwarden keeps what it learns from the turns, not the transcript: `messages` are
    read back from here (or `history`). `writes` holds each write's answer (`held` says a judge
    holds it); a refused turn raises `JudgeRefused` after it was kept in `history`.
    """

    def __init__(
        self,
        client: Any = None,
        *,
        async_client: Any = None,
        scope: str | None = None,
        speaker: str | None = None,
        ai_speaker: str = "assistant",
        visibility: str | None = None,
        session_id: str | None = None,
        history: BaseChatMessageHistory | None = None,
        remember_ai: bool = True,
    ) -> None:
        self.client = client
        self.async_client = async_client
        self.where = Where(scope=scope, speaker=speaker, visibility=visibility)
        self.ai_where = Where(scope=scope, speaker=ai_speaker, visibility=visibility)
        self.session_id = session_id
        self.history = history
        self._messages: list[BaseMessage] = []
        self.remember_ai = remember_ai
        self.writes: list[Any] = []

    @property
    def messages(self) -> list[BaseMessage]:  # type: ignore[override]
        return self.history.messages if self.history is not None else list(self._messages)

    async def aget_messages(self) -> list[BaseMessage]:
        if self.history is not None:
            return await self.history.aget_messages()
        return list(self._messages)

    def _keep(self, messages: Sequence[BaseMessage]) -> None:
        if self.history is not None:
            self.history.add_messages(messages)
        else:
            self._messages.extend(messages)

    def add_messages(self, messages: Sequence[BaseMessage]) -> None:
        self._keep(messages)
        for text, where in self._turns(messages):
            self._written(self._remember(text, where))

    async def aadd_messages(self, messages: Sequence[BaseMessage]) -> None:
        if self.async_client is None:
            self.add_messages(messages)
            return
        if self.history is not None:
            await self.history.aadd_messages(messages)
        else:
            self._messages.extend(messages)
        for text, where in self._turns(messages):
            answer = await self.async_client.remember(text, **where.write_args(self.session_id))
            self._written(answer)

    def clear(self) -> None:
        """Empties the transcript and starts a new memwarden session; what memwarden
        learned stays (forget a fact through the memory contract or a review)."""
        if self.history is not None:
            self.history.clear()
        self._messages.clear()
        self.session_id = None

    def _remember(self, text: str, where: Where) -> Any:
        return _sync(self.client).remember(text, **where.write_args(self.session_id))

    def _written(self, answer: Any) -> None:
        self.session_id = answer.session_id
        self.writes.append(answer)

    def _turns(self, messages: Sequence[BaseMessage]) -> list[tuple[str, Where]]:
        turns: list[tuple[str, Where]] = []
        for message in messages:
            text = str(message.text).strip()
            if not text:
                continue
            if isinstance(message, HumanMessage):
                turns.append((text, self.where))
            elif isinstance(message, AIMessage) and self.remember_ai:
                turns.append((text, self.ai_where))
        return turns


__all__ = [
    "MemwardenChatMessageHistory",
    "MemwardenRetriever",
    "memwarden_tools",
    "recall_tool",
    "remember_tool",
]
