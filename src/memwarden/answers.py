"""The base of every answer model (`*/responses.py`): one definition per answer.

A use case returns its answer model; the HTTP route declares it as its response model
(FastAPI renders it and documents it in /openapi.json), MCP tools and the CLI dump it with
`wire`, the dashboard reads its attributes. An answer carries exactly the fields its use
case set: a field left unset is left out of the JSON (`exclude_unset`), so an answer that
omits a key omits it on every face. Extra keys are allowed and kept.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema


class Answer(BaseModel):
    """A documented answer: its fields, and possibly more (additionalProperties)."""

    model_config = ConfigDict(extra="allow")


# A time on the wire: a datetime from the database (rendered ISO 8601 by pydantic) or a
# string a use case already rendered, kept as it is. Documented as a plain string.
Timestamp = Annotated[datetime | str, WithJsonSchema({"type": "string"})]

# How every face renders an answer (FastAPI's `response_model_exclude_unset`, `wire`).
WIRE: dict[str, Any] = {"by_alias": True, "exclude_unset": True}


def wire(answer: BaseModel) -> dict[str, Any]:
    """The answer as the JSON object HTTP sends (for MCP tools and the CLI)."""
    return answer.model_dump(mode="json", **WIRE)


# A record's stored content, one shape per kind (the planner and the memory commands write
# them). Extra keys a writer adds (an entity's `speaker`, a judge note's `records`) are kept.


class EntityContent(Answer):
    name: str
    entityType: str


class AttributeContent(Answer):
    entity: str
    key: str
    value: str


class RelationContent(Answer):
    subject: str
    label: str
    object: str


class ActionContent(Answer):
    actor: str
    label: str
    object: str


class InstructionContent(Answer):
    label: str
    description: str


class UncertaintyContent(Answer):
    about: str
    reason: str
    judgeReasons: list[str] | None = Field(
        default=None, description="Only on the judge's warning note: its reason codes."
    )


class NoteContent(Answer):
    text: str = Field(description="A memory command's note.")


RecordContent = (
    EntityContent
    | AttributeContent
    | RelationContent
    | ActionContent
    | InstructionContent
    | UncertaintyContent
    | NoteContent
)
