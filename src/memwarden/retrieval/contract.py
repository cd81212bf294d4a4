"""Request models of the recall use cases (/query, /profile), shared by HTTP and MCP.

`GET /query` takes the same fields as query parameters; its bounds are read from `QueryBody`
(`api/params.py`), so the two forms cannot drift apart.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from memwarden.domain.speaker import MAX_SPEAKER_CHARS
from memwarden.retrieval.query import Mode, QueryInput
from memwarden.text import StorableText

Kind = Literal[
    "entity", "attribute", "relation", "action", "instruction", "uncertainty", "note", "chunk"
]
Category = Literal["identity", "knowledge", "context"]
__all__ = ["AS_OF", "AsOf", "Category", "Kind", "Mode", "ProfileQuery", "QueryBody"]

AS_OF = (
    "An ISO-8601 timestamp with a timezone: answer as this key would have been served at that "
    "moment (records, revisions, holds, review decisions and deletes as they stood then; "
    "erased content never). Not later than now; omitted: now."
)
# Text, read by retrieval/as_of.py in the use case: every interface refuses a bad moment
# with the same 400 naming `as_of` (a bare number or a local time is no ISO-8601 instant).
AsOf = Annotated[
    str | None,
    Field(max_length=64, description=AS_OF, json_schema_extra={"format": "date-time"}),
]


class QueryBody(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    query: StorableText = Field(min_length=1, max_length=4000)  # blank: 400 in run_query
    limit: int = Field(default=10, ge=1, le=100)
    scope: list[StorableText] | None = Field(default=None, max_length=16)
    categories: list[Category] | None = None
    kinds: list[Kind] | None = None
    include_superseded: bool = Field(default=False, alias="includeSuperseded")
    mode: Mode = "hybrid"
    as_of: AsOf = None

    def to_input(self) -> QueryInput:
        return QueryInput(
            self.query,
            self.limit,
            self.scope,
            self.categories,
            self.kinds,
            self.include_superseded,
            self.mode,
            as_of=self.as_of,
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
    as_of: AsOf = None
