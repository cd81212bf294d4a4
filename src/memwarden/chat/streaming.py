"""POST /chat/stream as server-sent events: `memories`, `token`..., then `done` or `error`.

Everything that can refuse the request (grants, the input gate, the budget, an unreachable
model) happens before the first byte: `open_stream` runs the use case's first steps and
pulls the model's first delta, so those failures are ordinary JSON error responses. Only a
failure after that becomes an `error` event in the common error shape.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from collections.abc import AsyncIterator

import structlog

from memwarden.answers import Answer, wire
from memwarden.chat import prompting, service
from memwarden.chat.responses import (
    ChatStreamDone,
    ChatStreamError,
    ChatStreamErrorDetail,
    ChatStreamMemories,
    ChatStreamToken,
    ChatStreamUsage,
    StreamedMemory,
)
from memwarden.chat.service import ChatInput, ChatTurn
from memwarden.domain.grants import Caller
from memwarden.errors import UpstreamError
from memwarden.models.base import ModelError, ModelTransportError
from memwarden.models.deadline import request_deadline
from memwarden.services import Services
from memwarden.usage import Bookings

log = structlog.get_logger(__name__)


def event(name: str, data: Answer) -> str:
    """One event; its `data` is the event's model (`responses.STREAM_EVENTS`) as JSON."""
    return f"event: {name}\ndata: {json.dumps(wire(data), separators=(',', ':'))}\n\n"


def _error(code: str, message: str) -> str:
    detail = ChatStreamErrorDetail(code=code, message=message)
    return event("error", ChatStreamError(error=detail))


def _token(text: str) -> str:
    return event("token", ChatStreamToken(text=text))


async def open_stream(
    services: Services, caller: Caller, context_id: uuid.UUID, item: ChatInput
) -> AsyncIterator[str]:
    """Refuse now (raising an AppError) or return the event stream. The request deadline
    covers the write and the answer; the provider keeps it for the rest of the stream."""
    with request_deadline(services.settings.request_deadline_s):
        return await _open(services, caller, context_id, item)


async def _open(
    services: Services, caller: Caller, context_id: uuid.UUID, item: ChatInput
) -> AsyncIterator[str]:
    turn = await service.begin(services, caller, context_id, item)
    if turn.cached is not None:
        return _fixed(turn, turn.cached.answer, turn.cached.model, cached=True)
    provider = service.chat_model(services, turn.config)
    if provider is None:
        return _fixed(turn, prompting.fallback_answer(turn.memories), service.NO_MODEL, False)
    await service.check_budget(services, turn)
    system, user = service.prompts(turn)
    sink = Bookings()
    deltas = provider.stream_text(
        service.STAGE, system, user, service.MAX_TOKENS, usage_sink=sink
    ).__aiter__()
    try:
        first = await anext(deltas, None)
    except ModelTransportError as exc:
        raise UpstreamError("the chat model could not be reached") from exc
    except ModelError as exc:
        await service.book(services, context_id, sink)
        raise UpstreamError("the chat model returned no usable answer") from exc
    return _modelled(services, turn, deltas, first, sink)


def _memories(turn: ChatTurn) -> str:
    found = [StreamedMemory(id=m["id"], kind=m["kind"], score=m["score"]) for m in turn.memories]
    return event("memories", ChatStreamMemories(memories=found))


def _done(turn: ChatTurn, model: str, cached: bool, usage: ChatStreamUsage) -> str:
    done = ChatStreamDone(
        sessionId=turn.session_id,
        turnId=turn.turn_id,
        chunkOnly=turn.chunk_only,
        model=model,
        cached=cached,
        usage=usage,
    )
    return event("done", done)


def _usage(sink: Bookings) -> ChatStreamUsage:
    return ChatStreamUsage(
        promptTokens=sum(u.prompt_tokens for _, _, u in sink.entries),
        completionTokens=sum(u.completion_tokens for _, _, u in sink.entries),
    )


async def _fixed(turn: ChatTurn, text: str, model: str, cached: bool) -> AsyncIterator[str]:
    """A cached or offline answer: no model call, no usage."""
    yield _memories(turn)
    yield _token(text)
    yield _done(turn, model, cached, ChatStreamUsage(promptTokens=0, completionTokens=0))


async def _modelled(
    services: Services,
    turn: ChatTurn,
    deltas: AsyncIterator[str],
    first: str | None,
    sink: Bookings,
) -> AsyncIterator[str]:
    parts: list[str] = []
    failed = True
    try:
        yield _memories(turn)
        if first is not None:
            parts.append(first)
            yield _token(first)
        async for delta in deltas:
            parts.append(delta)
            yield _token(delta)
        failed = False
    except ModelTransportError:
        yield _error("model_provider_error", "the chat model could not be reached")
    except ModelError:
        yield _error("model_provider_error", "the chat model returned no usable answer")
    except Exception as exc:  # after the first byte there is no status left to send
        log.error("chat_stream_failed", error_type=type(exc).__name__)
        yield _error("internal_error", "internal error")
    finally:
        await _settle(services, turn, deltas, sink)
    if failed:
        return
    model = sink.entries[-1][1] if sink.entries else service.NO_MODEL
    service.remember_answer(services, turn, "".join(parts), model)
    yield _done(turn, model, False, _usage(sink))


async def _settle(
    services: Services, turn: ChatTurn, deltas: AsyncIterator[str], sink: Bookings
) -> None:
    """Close the model stream (which books its usage into the sink) and write the booking,
    shielded so a client that goes away mid-answer is still charged for the tokens spent."""
    closer = getattr(deltas, "aclose", None)
    if closer is not None:
        with contextlib.suppress(Exception):
            await closer()
    task = asyncio.ensure_future(service.book(services, turn.context_id, sink))
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.shield(task)
