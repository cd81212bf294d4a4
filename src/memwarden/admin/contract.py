"""Request models of the admin use cases (Contexts, keys), shared by HTTP and the CLI's checks."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from memwarden.text import PlainName, StorableText


class CreateContext(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: PlainName = Field(min_length=1, max_length=200)
    # The subject of a first key with every grant, issued with the Context (optional).
    owner_subject: PlainName | None = Field(default=None, min_length=1, max_length=200)


class CreateKey(BaseModel):
    model_config = ConfigDict(extra="forbid")
    subject: PlainName = Field(min_length=1, max_length=200)
    grants: list[str] = Field(min_length=1, max_length=8)
    scope: StorableText | None = Field(default=None, max_length=512)
    expires_at: datetime | None = None
