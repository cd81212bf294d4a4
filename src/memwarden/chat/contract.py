"""Request models of the chat use cases (POST /chat, /chat/stream, /reflect, the MCP `chat`
tool). Every interface validates with these, so a limit is written once."""

from __future__ import annotations

import uuid

from pydantic import BaseModel, ConfigDict, Field

from memwarden.chat.reflect import ReflectInput
from memwarden.chat.service import ChatInput
from memwarden.domain.scope import Visibility
from memwarden.text import StorableText

MAX_MESSAGE_CHARS = 16_000  # one judge window: a chat message is a question, not a document


class ChatBody(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    message: StorableText = Field(max_length=MAX_MESSAGE_CHARS)
    session_id: uuid.UUID | None = Field(default=None, alias="sessionId")
    scope: list[StorableText] | None = Field(default=None, max_length=16)
    visibility: Visibility = "shared"
    remember: bool = True
    limit: int = Field(default=8, ge=1, le=50)

    def to_input(self) -> ChatInput:
        return ChatInput(
            self.message, self.session_id, self.scope, self.visibility, self.remember, self.limit
        )


class ReflectBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scope: list[StorableText] | None = Field(default=None, max_length=16)
    limit: int = Field(default=50, ge=1, le=200)

    def to_input(self) -> ReflectInput:
        return ReflectInput(self.scope, self.limit)
