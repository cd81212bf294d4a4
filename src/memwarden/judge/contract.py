"""Request models of the reviewer's judge use cases (override, dry run), shared by the HTTP
routes, the MCP tools and the CLI's own checks, so a limit is written once."""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from memwarden.domain.verdicts import ReviewerVerdict
from memwarden.text import StorableText

Stage = Literal["input", "row"]


class OverrideBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    verdict: ReviewerVerdict
    replay: bool = False


class DryRunBody(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    addendum: StorableText = Field(max_length=4000)
    verdict: ReviewerVerdict | None = None
    judgement_ids: list[uuid.UUID] | None = Field(
        default=None, alias="judgementIds", min_length=1, max_length=50
    )
    limit: int = Field(default=20, ge=1, le=50)
    compare_current: bool = Field(default=False, alias="compareCurrent")
