"""POST /chat, /chat/stream and /reflect: parse, authenticate, hand to the chat use cases."""

from __future__ import annotations

import uuid
from typing import Any

from fastapi import APIRouter, Depends
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from memwarden.api.deps import caller, services
from memwarden.bootstrap import Services
from memwarden.chat.reflect import ReflectInput, reflect
from memwarden.chat.service import ChatInput, chat
from memwarden.chat.streaming import open_stream
from memwarden.domain.grants import Caller
from memwarden.domain.scope import Visibility

router = APIRouter(tags=["chat"])
MAX_MESSAGE_CHARS = 16_000  # one judge window: a chat message is a question, not a document


class ChatBody(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    message: str = Field(max_length=MAX_MESSAGE_CHARS)
    session_id: uuid.UUID | None = Field(default=None, alias="sessionId")
    scope: list[str] | None = Field(default=None, max_length=16)
    visibility: Visibility = "shared"
    remember: bool = True
    limit: int = Field(default=8, ge=1, le=50)

    def to_input(self) -> ChatInput:
        return ChatInput(
            self.message, self.session_id, self.scope, self.visibility, self.remember, self.limit
        )


class ReflectBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scope: list[str] | None = Field(default=None, max_length=16)
    limit: int = Field(default=50, ge=1, le=200)


@router.post("/api/v1/{context_id}/chat")
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
    return await reflect(svc, who, context_id, ReflectInput(body.scope, body.limit))
