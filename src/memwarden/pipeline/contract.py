"""Request models of the facts use cases (POST /facts, /facts/batch, the MCP `remember` tool).

Every interface validates with these, so a limit is written once; unknown fields are refused.
"""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic_core import PydanticCustomError

from memwarden.domain.scope import Visibility
from memwarden.domain.speaker import MAX_SPEAKER_CHARS
from memwarden.limits import MAX_BATCH_CHARS, MAX_TURN_CHARS
from memwarden.pipeline.batch import MAX_BATCH
from memwarden.pipeline.ingest import FactsInput
from memwarden.text import StorableText


class FactsBody(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    text: StorableText = Field(max_length=MAX_TURN_CHARS)
    infer: Literal["full", "none"] = "full"
    scope: list[StorableText] | None = Field(default=None, max_length=16)
    visibility: Visibility = "shared"
    session_id: uuid.UUID | None = Field(default=None, alias="sessionId")
    supersedes: list[uuid.UUID] = Field(default_factory=list, max_length=50)
    speaker: str | None = Field(
        default=None,
        max_length=MAX_SPEAKER_CHARS,
        description="The end user who speaks the turn (an id); omitted: the `user/<id>` pair "
        "of the scope path, else the key's principal. First person resolves to this "
        "speaker's own entity.",
    )

    def to_input(self) -> FactsInput:
        return FactsInput(
            self.text,
            self.infer,
            self.scope,
            self.visibility,
            self.session_id,
            tuple(dict.fromkeys(self.supersedes)),
            self.speaker,
        )


class BatchBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    items: list[FactsBody] = Field(
        min_length=1,
        max_length=MAX_BATCH,
        description=f"At most {MAX_BATCH_CHARS:,} characters of text in all items together.",
    )

    @field_validator("items")
    @classmethod
    def _total_size(cls, items: list[FactsBody]) -> list[FactsBody]:
        total = sum(len(item.text) for item in items)
        if total > MAX_BATCH_CHARS:
            raise PydanticCustomError(
                "batch_too_large",
                "the items hold {total} characters of text; a batch holds at most {limit}",
                {"total": total, "limit": MAX_BATCH_CHARS},
            )
        return items
