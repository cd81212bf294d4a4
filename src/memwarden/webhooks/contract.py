"""Request models of the webhook routes."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from memwarden.text import StorableText
from memwarden.webhooks.kinds import EVENT_KINDS
from memwarden.webhooks.urls import MAX_URL

_EVENTS = f"Event kinds, among {', '.join(EVENT_KINDS)} (docs/webhooks.md)."


class CreateWebhook(BaseModel):
    model_config = ConfigDict(extra="forbid")
    url: str = Field(min_length=1, max_length=MAX_URL, description="http(s) endpoint.")
    events: list[str] = Field(min_length=1, max_length=len(EVENT_KINDS) * 2, description=_EVENTS)
    include_content: bool = Field(
        False,
        description="Carry the record's content when the creating key could read it now.",
    )
    description: StorableText = Field("", max_length=500)


class PatchWebhook(BaseModel):
    model_config = ConfigDict(extra="forbid")
    url: str | None = Field(None, min_length=1, max_length=MAX_URL)
    events: list[str] | None = Field(
        None, min_length=1, max_length=len(EVENT_KINDS) * 2, description=_EVENTS
    )
    include_content: bool | None = None
    description: StorableText | None = Field(None, max_length=500)
    active: bool | None = Field(
        None, description="true resumes a paused subscription; false pauses it."
    )
