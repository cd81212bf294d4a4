"""The OpenAI Agents SDK on memwarden: a `Session` that keeps the conversation and
writes its turns to memwarden, and function tools for remember and recall.

    session = MemwardenSession("chat-1", client, scope="user/alice")
    agent = Agent(name="assistant", tools=memwarden_function_tools(client, scope="user/alice"))
    await Runner.run(agent, "I moved to Lisbon.", session=session)

The session keeps the SDK's items (in memory, or in any other Session passed as
`items=`, such as a `SQLiteSession`) and writes each user and assistant message through
`/facts`, all in one memwarden session: user turns as the user's (`scope`/`speaker`),
assistant turns as `assistant_speaker`'s. A held turn is listed in `writes` with
`held: true`; a refused one raises `JudgeRefused` (the run stops, nothing is lost from
the items). The tools tell the model what happened: stored, held, or refused with the
judge's reason codes (never the refused text).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from agents import FunctionTool, RunContextWrapper, function_tool
from agents.memory import Session, SessionSettings
from agents.tool import default_tool_error_function

from memwarden_client.errors import JudgeRefused
from memwarden_client.integrations import _memory
from memwarden_client.integrations._memory import Refused, Where, call

REMEMBER = (
    "Store something worth keeping about the user or the task in long-term memory,"
    " as a plain statement (first person is the user). Says whether it was stored,"
    " held for review, or refused."
)
RECALL = "Search long-term memory for what is known that bears on a question."


class _ListItems:
    """The conversation in this process, when no other Session keeps it."""

    def __init__(self) -> None:
        self._items: list[Any] = []

    async def get_items(self, limit: int | None = None) -> list[Any]:
        return list(self._items[-limit:] if limit else self._items)

    async def add_items(self, items: list[Any]) -> None:
        self._items.extend(items)

    async def pop_item(self) -> Any:
        return self._items.pop() if self._items else None

    async def clear_session(self) -> None:
        self._items.clear()


class MemwardenSession:
    """The Agents SDK's Session protocol, remembering each user and assistant turn.

    `client` is an `AsyncMemwarden` (a sync `Memwarden` is run in a thread).
    `memwarden_session_id` is the memwarden session the turns go to (one is opened by
    the first write unless given); `writes` holds each write's `/facts` answer."""

    session_settings: SessionSettings | None = None

    def __init__(
        self,
        session_id: str,
        client: Any,
        *,
        scope: str | None = None,
        speaker: str | None = None,
        assistant_speaker: str = "assistant",
        visibility: str | None = None,
        memwarden_session_id: str | None = None,
        items: Session | None = None,
        remember_assistant: bool = True,
    ) -> None:
        self.session_id = session_id
        self.client = client
        self.user = Where(scope=scope, speaker=speaker, visibility=visibility)
        self.assistant = Where(scope=scope, speaker=assistant_speaker, visibility=visibility)
        self.memwarden_session_id = memwarden_session_id
        self.items: Any = items if items is not None else _ListItems()
        self.remember_assistant = remember_assistant
        self.writes: list[Any] = []

    async def get_items(self, limit: int | None = None) -> list[Any]:
        return list(await self.items.get_items(limit))

    async def add_items(self, items: list[Any]) -> None:
        await self.items.add_items(items)
        for item in items:
            turn = self._turn(item)
            if turn is None:
                continue
            text, where = turn
            answer = await call(
                self.client.remember, text, **where.write_args(self.memwarden_session_id)
            )
            self.memwarden_session_id = answer.session_id
            self.writes.append(answer)

    async def pop_item(self) -> Any:
        """Takes the item off the conversation; what memwarden learned from it stays."""
        return await self.items.pop_item()

    async def clear_session(self) -> None:
        """Empties the conversation and starts a new memwarden session next time."""
        await self.items.clear_session()
        self.memwarden_session_id = None

    def _turn(self, item: Any) -> tuple[str, Where] | None:
        if not isinstance(item, Mapping) or item.get("type", "message") != "message":
            return None
        text = message_text(item.get("content"))
        if not text:
            return None
        if item.get("role") == "user":
            return text, self.user
        if item.get("role") == "assistant" and self.remember_assistant:
            return text, self.assistant
        return None


def message_text(content: Any) -> str:
    """A message item's text: a string, or its input_text/output_text parts joined."""
    if isinstance(content, str):
        return content.strip()
    parts = []
    for part in content or []:
        if isinstance(part, Mapping) and part.get("type") in ("input_text", "output_text"):
            parts.append(str(part.get("text") or ""))
    return "\n".join(p for p in parts if p).strip()


def _tool_error(ctx: RunContextWrapper[Any], error: Exception) -> str:
    """A judge refusal is shown to the model as it is (reason codes only); any other
    failure as the SDK's own fixed message."""
    if isinstance(error, Refused):
        return str(error)
    return default_tool_error_function(ctx, error)


def memwarden_function_tools(
    client: Any,
    *,
    scope: str | None = None,
    speaker: str | None = None,
    visibility: str | None = None,
    limit: int = 5,
) -> list[FunctionTool]:
    """`remember` (through /facts) and `recall` (through /query) as function tools."""
    where = Where(scope=scope, speaker=speaker, visibility=visibility, limit=limit)

    async def remember(text: str) -> str:
        """Store a statement in long-term memory.

        Args:
            text: What to remember, as a plain statement.
        """
        try:
            answer = await call(client.remember, text, **where.write_args())
        except JudgeRefused as exc:
            raise Refused(exc) from None
        return _memory.written_text(answer)

    async def recall(query: str) -> str:
        """Search long-term memory.

        Args:
            query: What to look for.
        """
        return _memory.hits_text(await call(client.query, query, **where.read_args()))

    return [
        function_tool(
            remember,
            name_override="remember",
            description_override=REMEMBER,
            failure_error_function=_tool_error,
        ),
        function_tool(recall, name_override="recall", description_override=RECALL),
    ]


__all__ = ["MemwardenSession", "memwarden_function_tools", "message_text"]
