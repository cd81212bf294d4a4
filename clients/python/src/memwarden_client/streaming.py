"""`POST /chat/stream`'s server-sent events as typed models.

The stream is `memories` first, then `token` events, then `done`; a failure after the
stream started ends it with an `error` event instead of `done` (docs/chat.md). Each
event is yielded as the model of its data, so `isinstance` tells them apart; an event
name this client does not know yet is skipped.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator

from pydantic import BaseModel

from memwarden_client import models as m

ChatEvent = m.ChatStreamMemories | m.ChatStreamToken | m.ChatStreamDone | m.ChatStreamError

EVENTS: dict[str, type[BaseModel]] = {  # event name -> the model of its data
    "memories": m.ChatStreamMemories,
    "token": m.ChatStreamToken,
    "done": m.ChatStreamDone,
    "error": m.ChatStreamError,
}


class _Parser:
    """Lines in, complete events out (the text/event-stream framing)."""

    def __init__(self) -> None:
        self.event = "message"
        self.data: list[str] = []

    def feed(self, line: str) -> ChatEvent | None:
        if line == "":
            event, data = self.event, "\n".join(self.data)
            self.event, self.data = "message", []
            if not data or event not in EVENTS:
                return None
            parsed = EVENTS[event].model_validate(json.loads(data))
            assert isinstance(
                parsed,
                m.ChatStreamMemories | m.ChatStreamToken | m.ChatStreamDone | m.ChatStreamError,
            )
            return parsed
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "event":
            self.event = value
        elif name == "data":
            self.data.append(value)
        return None


def events(lines: Iterator[str]) -> Iterator[ChatEvent]:
    parser = _Parser()
    for line in lines:
        event = parser.feed(line.rstrip("\r"))
        if event is not None:
            yield event
    last = parser.feed("")
    if last is not None:
        yield last


async def aevents(lines: AsyncIterator[str]) -> AsyncIterator[ChatEvent]:
    parser = _Parser()
    async for line in lines:
        event = parser.feed(line.rstrip("\r"))
        if event is not None:
            yield event
    last = parser.feed("")
    if last is not None:
        yield last
