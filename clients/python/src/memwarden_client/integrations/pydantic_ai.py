"""pydantic-ai on memwarden: remember and recall tools.

    agent = Agent(model, tools=memwarden_tools(client, scope="user/alice"))

`remember` writes through `/facts` (judged, extracted, reconciled), `recall` reads
through `/query`. Each returns what the agent should know: stored, held for review, or
refused with the judge's reason codes (never the refused text). A refusal is returned
rather than raised as `ModelRetry`: sending the same content again would be refused again.
"""

from __future__ import annotations

from typing import Any

from pydantic_ai import Tool

from memwarden_client.errors import JudgeRefused
from memwarden_client.integrations import _memory
from memwarden_client.integrations._memory import Refused, Where, call


def memwarden_tools(
    client: Any,
    *,
    scope: str | None = None,
    speaker: str | None = None,
    visibility: str | None = None,
    limit: int = 5,
) -> list[Tool[Any]]:
    """`remember` and `recall` for one end user (`scope="user/alice"` or `speaker`);
    `client` is an `AsyncMemwarden` (a sync `Memwarden` runs in a thread)."""
    where = Where(scope=scope, speaker=speaker, visibility=visibility, limit=limit)

    async def remember(text: str) -> str:
        """Store something worth keeping about the user or the task in long-term memory.

        Args:
            text: What to remember, as a plain statement (first person is the user).
        """
        try:
            answer = await call(client.remember, text, **where.write_args())
        except JudgeRefused as exc:
            return str(Refused(exc))
        return _memory.written_text(answer)

    async def recall(query: str) -> str:
        """Search long-term memory for what is known that bears on a question.

        Args:
            query: What to look for.
        """
        return _memory.hits_text(await call(client.query, query, **where.read_args()))

    return [Tool(remember, takes_ctx=False), Tool(recall, takes_ctx=False)]


__all__ = ["memwarden_tools"]
