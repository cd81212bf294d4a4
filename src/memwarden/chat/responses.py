"""The answers of POST /chat (`service.chat`) and /reflect (`reflect.reflect`), and the
events of /chat/stream (`streaming` writes each event's `data` from its model)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from memwarden.answers import Answer
from memwarden.pipeline.responses import (
    DiffAction,
    DiffAttribute,
    DiffCorrection,
    DiffEntity,
    DiffInstruction,
    DiffRelation,
    DiffUncertainty,
)


class CitedMemory(Answer):
    """A memory the answer was given, as chat cites it (`service._cited`)."""

    id: str
    kind: str
    text: str | None
    score: float | None
    gist: str | None = Field(default=None, description="Only on a document's chunk.")


class ChatResponse(Answer):
    answer: str
    sessionId: str | None = Field(description="The session the turn was remembered in.")
    turnId: str | None = Field(description="The remembered turn; null when not remembered.")
    chunkOnly: bool
    memories: list[CitedMemory] = Field(description="The memories the answer was given.")
    cached: bool = Field(description="The answer came from the answer cache.")
    model: str = Field(description="`provider:model` that answered.")


class ReflectExtraction(Answer):
    """What the reflection wrote, by kind (the same entries as a write's extraction)."""

    reflectionId: str | None = Field(description="Null when there was nothing to reflect on.")
    entities: list[DiffEntity]
    attributes: list[DiffAttribute]
    relations: list[DiffRelation]
    actions: list[DiffAction]
    instructions: list[DiffInstruction]
    uncertainties: list[DiffUncertainty]
    corrections: list[DiffCorrection]


class ReflectResponse(Answer):
    """POST /reflect (`reflect.reflect` builds it)."""

    reflectionId: str | None = Field(description="Null when there was nothing to reflect on.")
    extraction: ReflectExtraction
    sources: int = Field(description="How many memories the model was shown.")
    parsed: bool = Field(description="False when the model's reply could not be used.")


# POST /chat/stream: the `data` of each server-sent event, by event name (`streaming.py`
# writes them). The route documents them as the stream's `itemSchema`.


class StreamedMemory(Answer):
    id: str
    kind: str
    score: float


class ChatStreamMemories(Answer):
    """The first event: the memories the answer is given."""

    memories: list[StreamedMemory]


class ChatStreamToken(Answer):
    """A piece of the answer; the answer is the `text` of every token event, in order."""

    text: str


class ChatStreamUsage(Answer):
    promptTokens: int
    completionTokens: int


class ChatStreamDone(Answer):
    """The last event of an answer that completed."""

    sessionId: str | None = Field(description="The session the turn was remembered in.")
    turnId: str | None = Field(description="The remembered turn; null when not remembered.")
    chunkOnly: bool
    model: str = Field(description="`provider:model` that answered, or `none`.")
    cached: bool = Field(description="The answer came from the answer cache.")
    usage: ChatStreamUsage = Field(description="Zero for a cached or offline answer.")


class ChatStreamErrorDetail(Answer):
    code: str = Field(description="`model_provider_error` or `internal_error`.")
    message: str


class ChatStreamError(Answer):
    """The last event of an answer that failed after the stream started."""

    error: ChatStreamErrorDetail


STREAM_EVENTS: dict[str, type[BaseModel]] = {
    "memories": ChatStreamMemories,
    "token": ChatStreamToken,
    "done": ChatStreamDone,
    "error": ChatStreamError,
}
