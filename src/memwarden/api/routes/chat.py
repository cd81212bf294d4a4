"""POST /chat, /chat/stream and /reflect: parse, authenticate, hand to the chat use cases."""

from __future__ import annotations

import uuid

from fastapi import APIRouter, Depends

from memwarden.api.deps import caller, services
from memwarden.api.openapi import EventStream
from memwarden.api.routes import AnswerRoute
from memwarden.chat.contract import ChatBody, ReflectBody
from memwarden.chat.reflect import reflect
from memwarden.chat.responses import STREAM_EVENTS, ChatResponse, ReflectResponse
from memwarden.chat.service import chat
from memwarden.chat.streaming import open_stream
from memwarden.domain.grants import Caller
from memwarden.services import Services

router = APIRouter(tags=["chat"], route_class=AnswerRoute)

STREAM_PATH = "/api/v1/{context_id}/chat/stream"
# The stream's events, for /openapi.json (`api/openapi.py` documents them).
EVENT_STREAMS = {("post", STREAM_PATH): STREAM_EVENTS}
STREAM_ANSWER = (
    "Server-sent events: `memories` first (the memories the answer is given), then "
    "`token` events whose `text`, in order, is the answer, then `done` (session, turn, "
    "model, cache and token usage). A failure after the first event ends the stream with "
    "an `error` event in the error shape instead of `done`; every failure before it is an "
    "ordinary JSON error answer."
)


@router.post("/api/v1/{context_id}/chat")
async def chat_route(
    context_id: uuid.UUID,
    body: ChatBody,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> ChatResponse:
    return await chat(svc, who, context_id, body.to_input())


@router.post(
    STREAM_PATH,
    response_model=None,
    response_class=EventStream,
    responses={200: {"description": STREAM_ANSWER}},
)
async def chat_stream(
    context_id: uuid.UUID,
    body: ChatBody,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> EventStream:
    events = await open_stream(svc, who, context_id, body.to_input())
    return EventStream(events, headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


@router.post(
    "/api/v1/{context_id}/reflect",
    responses={
        503: {
            "description": "No chat model is configured for reflection, in the deployment "
            "or the Context (`reflection_model_unavailable`)."
        },
    },
)
async def reflect_route(
    context_id: uuid.UUID,
    body: ReflectBody,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> ReflectResponse:
    return await reflect(svc, who, context_id, body.to_input())
