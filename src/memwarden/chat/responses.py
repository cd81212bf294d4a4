"""Response bodies of POST /chat, /reflect and the events of /chat/stream, declared for
/openapi.json only (`responses=` on the routes; `service.ChatTurn.body`, `reflect.reflect`
and `streaming` build them). Extra keys are allowed."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Described(BaseModel):
    """A documented answer: the fields below, and possibly more (additionalProperties)."""

    model_config = ConfigDict(extra="allow")


class ChatResponse(BaseModel):
    model_config = ConfigDict(extra="allow")

    answer: str
    sessionId: str | None = Field(description="The session the turn was remembered in.")
    turnId: str | None = Field(description="The remembered turn; null when not remembered.")
    chunkOnly: bool
    memories: list[dict[str, Any]] = Field(description="The memories the answer was given.")
    cached: bool = Field(description="The answer came from the answer cache.")
    model: str = Field(description="`provider:model` that answered.")


class ReflectExtraction(Described):
    """What the reflection wrote, by kind (the same entries as a write's extraction)."""

    reflectionId: str | None = Field(description="Null when there was nothing to reflect on.")
    entities: list[dict[str, Any]]
    attributes: list[dict[str, Any]]
    relations: list[dict[str, Any]]
    actions: list[dict[str, Any]]
    instructions: list[dict[str, Any]]
    uncertainties: list[dict[str, Any]]
    corrections: list[dict[str, Any]]


class ReflectResponse(Described):
    """POST /reflect (`reflect.reflect` builds it)."""

    reflectionId: str | None = Field(description="Null when there was nothing to reflect on.")
    extraction: ReflectExtraction
    sources: int = Field(description="How many memories the model was shown.")
    parsed: bool = Field(description="False when the model's reply could not be used.")


# POST /chat/stream: the `data` of each server-sent event, by event name (`streaming.py`
# writes them). The route documents them as the stream's `itemSchema`.


class StreamedMemory(Described):
    id: str
    kind: str
    score: float


class ChatStreamMemories(Described):
    """The first event: the memories the answer is given."""

    memories: list[StreamedMemory]


class ChatStreamToken(Described):
    """A piece of the answer; the answer is the `text` of every token event, in order."""

    text: str


class ChatStreamUsage(Described):
    promptTokens: int
    completionTokens: int


class ChatStreamDone(Described):
    """The last event of an answer that completed."""

    sessionId: str | None = Field(description="The session the turn was remembered in.")
    turnId: str | None = Field(description="The remembered turn; null when not remembered.")
    chunkOnly: bool
    model: str = Field(description="`provider:model` that answered, or `none`.")
    cached: bool = Field(description="The answer came from the answer cache.")
    usage: ChatStreamUsage = Field(description="Zero for a cached or offline answer.")


class ChatStreamErrorDetail(Described):
    code: str = Field(description="`model_provider_error` or `internal_error`.")
    message: str


class ChatStreamError(Described):
    """The last event of an answer that failed after the stream started."""

    error: ChatStreamErrorDetail


STREAM_EVENTS: dict[str, type[BaseModel]] = {
    "memories": ChatStreamMemories,
    "token": ChatStreamToken,
    "done": ChatStreamDone,
    "error": ChatStreamError,
}
