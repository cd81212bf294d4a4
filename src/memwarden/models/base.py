"""The provider interface every model stage is called through.

Callers depend on these protocols only, so a stage can be served by an
OpenAI-compatible endpoint, the local embedder or the rule-based extractor
without the pipeline knowing which.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel


class Stage(StrEnum):
    """The stages a deployment (or a Context) chooses a model for."""

    JUDGE = "judge"
    EXTRACTION = "extraction"
    ADJUDICATION = "adjudication"
    HYGIENE = "hygiene"
    CHAT = "chat"
    EMBEDDING = "embedding"


class StructuredOutputMode(StrEnum):
    """How a JSON reply is asked for: servers disagree on what they accept."""

    JSON_SCHEMA = "json_schema"
    JSON_OBJECT_SCHEMA = "json_object_schema"
    PROMPT_JSON = "prompt_json"


class ModelError(Exception):
    """Base of every model-side failure."""


class ModelTransportError(ModelError):
    """The endpoint could not be reached or kept failing (network, timeout, 5xx, 429).

    Raised only after the bounded retries are spent; callers surface it as an error
    instead of pretending the call produced nothing.
    """


class ModelRequestRejected(ModelTransportError):
    """The endpoint refused the request itself (4xx other than 408/409/429).

    A subclass of ModelTransportError because it is a deployment problem (wrong model
    name, unsupported response_format, bad key), never a property of the content.
    """

    def __init__(self, message: str, status_code: int) -> None:
        super().__init__(message)
        self.status_code = status_code


class ModelOutputError(ModelError):
    """The model answered, but not with parseable, contract-valid output.

    Distinct from transport errors because the pipeline degrades (chunk-only diff,
    window skipped) rather than failing the request.
    """


MAX_REPLY_BYTES = 1024 * 1024
"""The largest model reply read: far above any stage's max_tokens, far below a node's memory."""
MAX_REPLY_DEPTH = 64
"""The deepest JSON nesting read: the contracts need 5 levels; 5,000 would blow the stack."""
_NOT_JSON_SYNTAX = bytes(range(256)).translate(None, b'[]{}"\\')


def check_reply_bounds(body: bytes | str, what: str = "reply") -> None:
    """Refuse a reply too large or too deeply nested to parse safely, before parsing it.

    One rule for the envelope and the message inside it, so a hostile or broken provider
    (an HTML error page, JSON nested thousands deep, megabytes of padding) is a
    ModelOutputError that follows the stage's error rule instead of a RecursionError.
    """
    raw = body.encode("utf-8", "replace") if isinstance(body, str) else body
    if len(raw) > MAX_REPLY_BYTES:
        raise ModelOutputError(f"{what} is larger than {MAX_REPLY_BYTES} bytes")
    depth = 0
    in_string = escaped = False
    for byte in raw.translate(None, _NOT_JSON_SYNTAX):
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > MAX_REPLY_DEPTH:
                raise ModelOutputError(f"{what} is nested deeper than {MAX_REPLY_DEPTH}")
        elif byte in (0x5D, 0x7D):
            depth -= 1


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """A `provider:model` choice, e.g. `openai:gpt-4o-mini` or `local:minilm`."""

    provider: str
    model: str

    @classmethod
    def parse(cls, value: str) -> ModelSpec:
        """Split at the first colon so model names may contain colons (`ollama` tags)."""
        provider, sep, model = value.strip().partition(":")
        provider = provider.strip().lower()
        model = model.strip()
        if not sep or not provider or not model:
            raise ValueError(f"model spec must look like 'provider:model', got {value!r}")
        return cls(provider=provider, model=model)

    def __str__(self) -> str:
        return f"{self.provider}:{self.model}"


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens one call consumed; `estimated` when the endpoint reported none (chars/4)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.estimated or other.estimated,
        )


@dataclass(frozen=True, slots=True)
class JsonResult:
    """A validated structured reply; `data` is the contract-normalised object."""

    data: dict[str, Any]
    usage: Usage
    model: str


@dataclass(frozen=True, slots=True)
class TextResult:
    """A free-text reply (chat synthesis)."""

    text: str
    usage: Usage
    model: str


class UsageSink(Protocol):
    """Books tokens to the Context the caller bound it to (the budget is checked before a
    call, by `budget.check_budget`, never by a sink)."""

    async def book(self, stage: str, model: str, usage: Usage) -> None: ...


SchemaLike = Mapping[str, Any] | type[BaseModel]
"""A JSON schema dict, or a pydantic contract model (validated and normalised by it)."""


@runtime_checkable
class JsonProvider(Protocol):
    """What a structured stage (judge, extraction, adjudication) needs from a model."""

    @property
    def description(self) -> str: ...

    async def complete_json(
        self,
        stage: str,
        system: str,
        user: str,
        schema: SchemaLike,
        max_tokens: int,
        *,
        usage_sink: UsageSink | None = None,
    ) -> JsonResult: ...


@runtime_checkable
class ChatProvider(JsonProvider, Protocol):
    """A full chat model: structured replies, free text and streamed text."""

    async def complete_text(
        self,
        stage: str,
        system: str,
        user: str,
        max_tokens: int,
        *,
        usage_sink: UsageSink | None = None,
    ) -> TextResult: ...

    def stream_text(
        self,
        stage: str,
        system: str,
        user: str,
        max_tokens: int,
        *,
        usage_sink: UsageSink | None = None,
    ) -> AsyncIterator[str]: ...


@runtime_checkable
class Embedder(Protocol):
    """Sync, because the local embedder is CPU-bound; async callers use a thread."""

    @property
    def name(self) -> str: ...

    @property
    def dimensions(self) -> int: ...

    def embed(self, texts: list[str]) -> list[list[float]]: ...


@runtime_checkable
class CountingEmbedder(Embedder, Protocol):
    """An embedder that bills tokens (a remote endpoint): it reports what each call used."""

    def embed_counted(self, texts: list[str]) -> tuple[list[list[float]], Usage]: ...
