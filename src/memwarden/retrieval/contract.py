"""Request models of the recall use cases (/query, /profile), shared by HTTP and MCP.

`GET /query` takes the same fields as query parameters; its bounds are read from `QueryBody`
(`api/params.py`), so the two forms cannot drift apart.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from memwarden.domain.speaker import MAX_SPEAKER_CHARS
from memwarden.retrieval.query import Mode, QueryInput
from memwarden.text import StorableText

Kind = Literal[
    "entity", "attribute", "relation", "action", "instruction", "uncertainty", "note", "chunk"
]
Category = Literal["identity", "knowledge", "context"]
__all__ = ["Category", "Kind", "Mode", "ProfileQuery", "QueryBody"]


class QueryBody(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    query: StorableText = Field(min_length=1, max_length=4000)  # blank: 400 in run_query
    limit: int = Field(default=10, ge=1, le=100)
    scope: list[StorableText] | None = Field(default=None, max_length=16)
    categories: list[Category] | None = None
    kinds: list[Kind] | None = None
    include_superseded: bool = Field(default=False, alias="includeSuperseded")
    mode: Mode = "hybrid"

    def to_input(self) -> QueryInput:
        return QueryInput(
            self.query,
            self.limit,
            self.scope,
            self.categories,
            self.kinds,
            self.include_superseded,
            self.mode,
        )


class ProfileQuery(BaseModel):
    """GET /profile's parameters (and the MCP `profile` tool's)."""

    model_config = ConfigDict(extra="forbid")

    # omitted or `me`: the caller's own speaker entity (retrieval/profile.py)
    entity: StorableText | None = Field(default=None, min_length=1, max_length=400)
    history: bool = False
    scope: list[StorableText] | None = Field(default=None, max_length=16)
    speaker: StorableText | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_SPEAKER_CHARS,
        description="With no entity (or `me`): the end user whose own entity to read; "
        "omitted: the `user/<id>` pair of a single scope path, else the key's principal.",
    )
