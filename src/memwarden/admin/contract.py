"""Request models of the admin use cases (Contexts, keys), shared by HTTP and the CLI's checks."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field


class CreateContext(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=200)
    # The subject of a first key with every grant, issued with the Context (optional).
    owner_subject: str | None = Field(default=None, min_length=1, max_length=200)


class CreateKey(BaseModel):
    model_config = ConfigDict(extra="forbid")
    subject: str = Field(min_length=1, max_length=200)
    grants: list[str] = Field(min_length=1, max_length=8)
    scope: str | None = Field(default=None, max_length=512)
    expires_at: datetime | None = None
