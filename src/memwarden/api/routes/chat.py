"""POST /chat, /chat/stream and /reflect: parse, authenticate, hand to the chat use cases."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi import APIRouter, Depends
from fastapi.responses import StreamingResponse

from memwarden.api.deps import caller, services
from memwarden.chat.contract import ChatBody, ReflectBody
from memwarden.chat.reflect import reflect
from memwarden.chat.responses import ChatResponse
from memwarden.chat.service import chat
from memwarden.chat.streaming import open_stream
from memwarden.domain.grants import Caller
from memwarden.services import Services

router = APIRouter(tags=["chat"])


@router.post("/api/v1/{context_id}/chat", responses={200: {"model": ChatResponse}})
async def chat_route(
    context_id: uuid.UUID,
    body: ChatBody,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> dict[str, Any]:
    return await chat(svc, who, context_id, body.to_input())


@router.post("/api/v1/{context_id}/chat/stream", response_model=None)
async def chat_stream(
    context_id: uuid.UUID,
    body: ChatBody,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> StreamingResponse:
    events = await open_stream(svc, who, context_id, body.to_input())
    return StreamingResponse(
        events,
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


@router.post("/api/v1/{context_id}/reflect")
async def reflect_route(
    context_id: uuid.UUID,
    body: ReflectBody,
    svc: Services = Depends(services),
    who: Caller = Depends(caller),
) -> dict[str, Any]:
    return await reflect(svc, who, context_id, body.to_input())
