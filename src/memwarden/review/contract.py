"""The memory contract's request bodies (version 1). Unknown fields are refused.

HTTP routes validate with these models; MCP tools can use the same ones.
"""

from __future__ import annotations

import math
import uuid
from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from memwarden.domain.scope import Visibility
from memwarden.review.validation import check_content, check_evidence_ref, check_idempotency_key
from memwarden.text import StorableText

CONTRACT_VERSION = 1
DIMENSIONS = 384
FLOAT32_MAX = 3.4e38
Kind = Literal["entity", "attribute", "relation", "action", "instruction", "uncertainty", "note"]
Category = Literal["identity", "knowledge", "context"]
Disposition = Literal["approved", "rejected", "unreviewed"]
Revision = Annotated[int, Field(ge=1, le=2_000_000_000, strict=True)]
Finite = Annotated[float, Field(allow_inf_nan=False, ge=-FLOAT32_MAX, le=FLOAT32_MAX)]
Vector = Annotated[list[Finite], Field(min_length=DIMENSIONS, max_length=DIMENSIONS)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ScopeIn(Strict):
    project_id: StorableText | None = None
    mission_id: StorableText | None = None
    agent_id: StorableText | None = None
    visibility: Visibility


class Versioned(Strict):
    contract_version: Literal[1]
    scope: ScopeIn


def _nonzero(values: list[float] | None) -> list[float] | None:
    if values is not None and math.fsum(v * v for v in values) == 0.0:
        raise ValueError("vector must not be all zeros")
    return values


class MemoryCommand(Strict):
    contract_version: Literal[1]
    op: Literal["create", "update", "delete"]
    record_id: uuid.UUID | None = None
    expected_revision: Revision | None = None
    content: StorableText | None = None
    expires_at: datetime | None = None

    @field_validator("content")
    @classmethod
    def _content(cls, value: str | None) -> str | None:
        return check_content(value) if value is not None else None


class CommandRequest(Strict):
    scope: ScopeIn
    command: MemoryCommand


class ReadRequest(Versioned):
    record_id: uuid.UUID


class SearchFilterIn(Strict):
    kinds: list[Kind] | None = Field(default=None, max_length=7)
    categories: list[Category] | None = Field(default=None, max_length=3)


class SearchRequest(Versioned):
    query: StorableText | None = Field(default=None, max_length=2000)
    filter: SearchFilterIn | None = None
    limit: int = Field(default=10, ge=1, le=100)
    vector: Vector | None = None

    _vector = field_validator("vector")(_nonzero)


class EmbeddingRequest(Versioned):
    record_id: uuid.UUID
    revision: Revision
    vector: Vector
    model: StorableText = Field(default="external", min_length=1, max_length=200)

    _vector = field_validator("vector")(_nonzero)


class ReviewCommand(Strict):
    contract_version: Literal[1]
    idempotency_key: StorableText | None = None
    record_id: uuid.UUID
    expected_revision: Revision
    disposition: Disposition
    evidence_ref: StorableText

    @field_validator("evidence_ref")
    @classmethod
    def _evidence(cls, value: str) -> str:
        return check_evidence_ref(value)

    @field_validator("idempotency_key")
    @classmethod
    def _key(cls, value: str | None) -> str | None:
        return check_idempotency_key(value) if value is not None else None


class ReviewRequest(Strict):
    scope: ScopeIn
    command: ReviewCommand


class ReceiptReadRequest(Versioned):
    record_id: uuid.UUID
    revision: Revision
