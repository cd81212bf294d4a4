"""The answers of the recall routes: `query.run_query`, `profile.get_profile` and
`state.get_state` return them; `reader.render_record` and `render_chunk` build a hit."""

from __future__ import annotations

from pydantic import Field

from memwarden.answers import Answer, RecordContent


class HitScope(Answer):
    path: str | None = Field(description="The scope path; null for the Context's root.")
    visibility: str = Field(description="`shared` or `private`.")


class HitSource(Answer):
    kind: str | None = Field(description="What wrote it: facts, chat, document, a pass...")
    ref: str | None = Field(description="The turn or document id, when there is one.")


class MemoryHit(Answer):
    """One memory record or chunk (`kind: chunk`), as recall returns it."""

    id: str
    kind: str = Field(description="entity, attribute, relation, action, instruction, ... or chunk")
    text: str | None = None
    score: float | None = Field(default=None, description="Fused rank score; null outside /query.")
    memoryCategory: str | None = None
    scope: HitScope
    source: HitSource
    revision: int | None = Field(
        default=None, description="The record's revision; null for a chunk."
    )
    content: RecordContent | None = Field(
        default=None, description="The record's structured content, by kind; null for a chunk."
    )
    validFrom: str | None = None
    validTo: str | None = Field(default=None, description="Only on a superseded record.")
    superseded: bool | None = Field(default=None, description="Only on a superseded record: true.")
    supersededBy: str | None = None
    derivedFrom: list[str] | None = Field(default=None, description="Only on a derived record.")
    derivedBy: str | None = Field(default=None, description="Only on a derived record: the pass.")
    direction: str | None = Field(default=None, description="/profile only: `out` or `in`.")


class QueryResponse(Answer):
    query: str
    hits: list[MemoryHit]


class ProfileEntity(Answer):
    id: str
    name: str | None = None
    entityType: str | None = None
    memoryCategory: str | None = None
    scope: HitScope


class ProfileResponse(Answer):
    entity: ProfileEntity
    entityIds: list[str]
    attributes: list[MemoryHit]
    relations: list[MemoryHit]
    actions: list[MemoryHit]
    history: list[MemoryHit] = Field(description="Empty unless `history=true`.")


class StateResponse(Answer):
    instructions: list[MemoryHit]
    uncertainties: list[MemoryHit]
    actions: list[MemoryHit]
