"""What every framework's remember and recall tools share: the call, and the words an
agent reads back.

A write can be stored, held for a reviewer, or refused by the ingest judge; the agent is
told which, with the judge's reason codes and never the refused text (the server's error
never quotes it either). A refusal is a `Refused` exception, which each adapter turns into
its framework's way of showing a tool error to the model.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from memwarden_client.errors import JudgeRefused

KINDS = ("entities", "attributes", "relations", "actions", "instructions", "uncertainties")


class Refused(Exception):
    """memwarden's judge refused a write: the message names its reason codes only."""

    def __init__(self, error: JudgeRefused) -> None:
        self.code = error.code
        self.reasons = error.reasons
        super().__init__(refusal_text(error))


@dataclass(frozen=True)
class Where:
    """Where a tool writes and reads: a scope path (`user/alice` makes first person
    Alice's own entity), an explicit speaker, visibility, and the session writes join."""

    scope: str | None = None
    speaker: str | None = None
    visibility: str | None = None
    kinds: Sequence[str] | None = None
    limit: int = 5

    def write_args(self, session_id: str | None = None) -> dict[str, Any]:
        return {
            "scope": self.scope,
            "speaker": self.speaker,
            "visibility": self.visibility,
            "session_id": session_id,
        }

    def read_args(self, limit: int | None = None) -> dict[str, Any]:
        return {
            "scope": self.scope,
            "limit": limit or self.limit,
            "kinds": list(self.kinds) if self.kinds else None,
        }


async def call(method: Any, *args: Any, **kwargs: Any) -> Any:
    """A client verb from async code: awaited on an async client, else in a thread."""
    if inspect.iscoroutinefunction(method):
        return await method(*args, **kwargs)
    return await asyncio.to_thread(method, *args, **kwargs)


def refusal_text(error: JudgeRefused) -> str:
    if error.code == "request_denied":
        return "Not remembered: memwarden could not process this request (request_denied)."
    if error.code == "judge_unavailable":
        return "Not remembered: memwarden's judge is unavailable (judge_unavailable); try later."
    reasons = ", ".join(error.reasons) or "policy"
    return f"Not remembered: memwarden's judge refused it ({error.code}: {reasons})."


def written_text(answer: Any) -> str:
    """A /facts answer in a sentence: held, or what was stored."""
    if answer.held:
        return (
            "Held for review: memwarden's judge keeps this back until a reviewer approves"
            f" it; it is not recalled until then (turn {answer.turn_id})."
        )
    extraction = answer.extraction
    items = [item for kind in KINDS for item in (getattr(extraction, kind, None) or [])]
    new = sum(1 for item in items if _get(item, "isNew"))
    if extraction.chunk_only:
        return f"Remembered as text only: no facts could be extracted (turn {answer.turn_id})."
    known = len(items) - new
    return f"Remembered: {new} new facts, {known} already known (turn {answer.turn_id})."


def remember(client: Any, text: str, where: Where, session_id: str | None = None) -> Any:
    """The /facts answer, or `Refused` for a judge refusal (other errors propagate)."""
    try:
        return client.remember(text, **where.write_args(session_id))
    except JudgeRefused as exc:
        raise Refused(exc) from None


async def aremember(client: Any, text: str, where: Where, session_id: str | None = None) -> Any:
    try:
        return await client.remember(text, **where.write_args(session_id))
    except JudgeRefused as exc:
        raise Refused(exc) from None


def hits_text(answer: Any) -> str:
    """Recalled hits as lines an agent can read and cite (kind and id with each)."""
    lines = [f"- {hit.text} ({hit.kind} {hit.id})" for hit in answer.hits if hit.text]
    return "\n".join(lines) if lines else "No memories found."


def _get(item: Any, name: str) -> Any:
    return item.get(name) if isinstance(item, dict) else getattr(item, name, None)
