"""The erasure request, shared by the HTTP route, the MCP tool and the CLI: exactly one
target. A `reason` is refused: free text could repeat what is being erased, and an
erasure keeps no content (its audit event names the erasure and the target's kind)."""

from __future__ import annotations

import uuid
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from memwarden.domain.scope import ScopeError, normalise_path
from memwarden.domain.speaker import SpeakerError, check_speaker
from memwarden.text import PlainName, StorableText

MAX_RECORD_IDS: Final = 1000
"""Record ids one request may name (a larger set: several requests, or a scope prefix)."""

TargetKind = Literal["records", "subject", "speaker", "scope", "session", "document"]
TARGET_FIELDS: Final[dict[str, TargetKind]] = {
    "recordIds": "records",
    "subject": "subject",
    "speaker": "speaker",
    "scopePrefix": "scope",
    "sessionId": "session",
    "documentId": "document",
}


class ErasureBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    recordIds: list[uuid.UUID] | None = Field(
        default=None, min_length=1, max_length=MAX_RECORD_IDS, description="Records to erase."
    )
    subject: PlainName | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description="A principal: everything it wrote and every record about its own entity.",
    )
    speaker: StorableText | None = Field(
        default=None,
        description="An end user id (`user/<id>` scopes): what they said and what is about them.",
    )
    scopePrefix: StorableText | None = Field(
        default=None, max_length=1000, description="Everything at or below a scope."
    )
    sessionId: uuid.UUID | None = None
    documentId: uuid.UUID | None = None

    @model_validator(mode="after")
    def _one_target(self) -> ErasureBody:
        named = [f for f in TARGET_FIELDS if getattr(self, f) is not None]
        if len(named) != 1:
            raise ValueError(f"name exactly one of {', '.join(TARGET_FIELDS)}")
        if self.speaker is not None:
            try:
                self.speaker = check_speaker(self.speaker)
            except SpeakerError as exc:
                raise ValueError(str(exc)) from None
        if self.scopePrefix is not None:
            try:
                self.scopePrefix = normalise_path(self.scopePrefix)
            except ScopeError as exc:
                raise ValueError(str(exc)) from None
            if not self.scopePrefix:
                raise ValueError("scopePrefix must name a scope (not the whole Context)")
        return self

    @property
    def kind(self) -> TargetKind:
        return next(TARGET_FIELDS[f] for f in TARGET_FIELDS if getattr(self, f) is not None)

    def target(self) -> dict[str, Any]:
        """The stored target: ids and names only, JSON-ready."""
        field = next(f for f in TARGET_FIELDS if getattr(self, f) is not None)
        value = getattr(self, field)
        if isinstance(value, list):
            value = [str(v) for v in dict.fromkeys(value)]
        elif isinstance(value, uuid.UUID):
            value = str(value)
        return {field: value}
