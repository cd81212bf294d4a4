"""The event stream's framing, and a model failure after the first byte (no database)."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from types import SimpleNamespace

from memwarden.chat.responses import ChatStreamToken
from memwarden.chat.service import ChatTurn
from memwarden.chat.streaming import _modelled, event
from memwarden.config import ContextConfig
from memwarden.models.base import ModelTransportError
from memwarden.ttl_cache import TtlCache
from memwarden.usage import Bookings


def test_an_event_is_one_name_line_one_json_data_line_and_a_blank_line() -> None:
    data = ChatStreamToken(text="a\nb")
    assert event("token", data) == 'event: token\ndata: {"text":"a\\nb"}\n\n'


def test_a_model_failure_mid_stream_ends_with_an_error_event_and_no_done() -> None:
    async def deltas() -> AsyncIterator[str]:
        yield "Hel"
        raise ModelTransportError("gone")

    async def collect() -> list[str]:
        turn = ChatTurn(uuid.UUID(int=1), ContextConfig(), "hi", None, None)
        services = SimpleNamespace(chat_cache=TtlCache())
        stream = deltas()
        first = await anext(stream)
        return [e async for e in _modelled(services, turn, stream, first, Bookings())]  # type: ignore[arg-type]

    out = asyncio.run(collect())
    names = [e.split("\n", 1)[0] for e in out]
    assert names == ["event: memories", "event: token", "event: error"]
    error = json.loads(out[-1].split("data: ", 1)[1])
    assert error == {
        "error": {"code": "model_provider_error", "message": "the chat model could not be reached"}
    }
