"""Model providers per stage: OpenAI-compatible endpoints, the local embedder, fallbacks."""

from memwarden.models.base import (
    ChatProvider,
    Embedder,
    JsonProvider,
    JsonResult,
    ModelError,
    ModelOutputError,
    ModelRequestRejected,
    ModelSpec,
    ModelTransportError,
    Stage,
    StructuredOutputMode,
    TextResult,
    Usage,
    UsageSink,
)

__all__ = [
    "ChatProvider",
    "Embedder",
    "JsonProvider",
    "JsonResult",
    "ModelError",
    "ModelOutputError",
    "ModelRequestRejected",
    "ModelSpec",
    "ModelTransportError",
    "Stage",
    "StructuredOutputMode",
    "TextResult",
    "Usage",
    "UsageSink",
]
