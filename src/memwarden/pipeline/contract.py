"""Request models of the facts use cases (POST /facts, /facts/batch, the MCP `remember` tool).

Every interface validates with these, so a limit is written once; unknown fields are refused.
"""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from memwarden.domain.scope import Visibility
from memwarden.pipeline.batch import MAX_BATCH
from memwarden.pipeline.ingest import FactsInput
from memwarden.text import StorableText


class FactsBody(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    text: StorableText
    infer: Literal["full", "none"] = "full"
    scope: list[StorableText] | None = Field(default=None, max_length=16)
    visibility: Visibility = "shared"
    session_id: uuid.UUID | None = Field(default=None, alias="sessionId")
    supersedes: list[uuid.UUID] = Field(default_factory=list, max_length=50)

    def to_input(self) -> FactsInput:
        return FactsInput(
            self.text,
            self.infer,
            self.scope,
            self.visibility,
            self.session_id,
            tuple(dict.fromkeys(self.supersedes)),
        )


class BatchBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    items: list[FactsBody] = Field(min_length=1, max_length=MAX_BATCH)
