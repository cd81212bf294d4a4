"""Response body of POST /chat, declared for /openapi.json only (`responses=` on the
route; `service.ChatTurn.body` builds it). Extra keys are allowed."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class ChatResponse(BaseModel):
    model_config = ConfigDict(extra="allow")

    answer: str
    sessionId: str | None = Field(description="The session the turn was remembered in.")
    turnId: str | None = Field(description="The remembered turn; null when not remembered.")
    chunkOnly: bool
    memories: list[dict[str, Any]] = Field(description="The memories the answer was given.")
    cached: bool = Field(description="The answer came from the answer cache.")
    model: str = Field(description="`provider:model` that answered.")
