"""The answers of the write routes: `ingest.write_facts` (/facts), `batch.write_batch`
(/facts/batch) and the two reprocess use cases (`reprocess.response` builds theirs)."""

from __future__ import annotations

from pydantic import Field

from memwarden.answers import Answer

# The entries of a reconciled diff, one model per kind (`domain/reconcile_draft.py` and the
# planner write them). `isNew`: the write added the record; false: it was already known.


class DiffEntity(Answer):
    id: str
    name: str
    entityType: str
    memoryCategory: str
    isNew: bool


class DiffAttribute(Answer):
    id: str
    entityId: str
    key: str
    value: str
    memoryCategory: str
    isNew: bool


class DiffRelation(Answer):
    id: str
    subject: str
    label: str
    object: str = Field(description="The object entity's name.")
    memoryCategory: str
    isNew: bool


class DiffAction(Answer):
    id: str
    actor: str
    label: str
    object: str = Field(description="A known entity's name, or the action's text.")
    memoryCategory: str
    isNew: bool


class DiffInstruction(Answer):
    id: str
    label: str
    description: str
    isNew: bool


class DiffUncertainty(Answer):
    id: str
    about: str
    reason: str
    isNew: bool


class DiffCorrection(Answer):
    id: str | None = Field(description="The corrected value's record; null when none was written.")
    entity: str
    entityId: str
    key: str
    oldValue: str | None
    newValue: str
    applied: bool
    supersededIds: list[str] = Field(description="The records the correction retired.")


class ExtractionResult(Answer):
    """The turn's merged extraction: what was written, by kind."""

    turnId: str
    chunkOnly: bool = Field(description="No extraction could be used: stored as chunks only.")
    entities: list[DiffEntity] | None = None
    attributes: list[DiffAttribute] | None = None
    relations: list[DiffRelation] | None = None
    actions: list[DiffAction] | None = None
    instructions: list[DiffInstruction] | None = None
    uncertainties: list[DiffUncertainty] | None = None
    corrections: list[DiffCorrection] | None = None


class CandidateRecord(Answer):
    """A near neighbour the written record may replace."""

    id: str
    kind: str
    text: str
    similarity: float


class SupersedeCandidates(Answer):
    recordId: str = Field(description="A record this write stored.")
    candidates: list[CandidateRecord]


class DeclaredSupersede(Answer):
    id: str
    applied: bool = Field(description="The record was retired by this write's own record.")
    reason: str | None = Field(
        default=None,
        description="Why not: `held` (a held write replaces nothing), `no_replacement` (the "
        "write stored no new record), or a replacement rule's reason (e.g. "
        "`replacement_not_served`); null when applied or when the record had already left "
        "serving.",
    )


class FactsResponse(Answer):
    sessionId: str
    turnId: str
    held: bool = Field(description="The write waits for a judge's approval (a hold).")
    extraction: ExtractionResult
    supersedeCandidates: list[SupersedeCandidates] | None = Field(
        default=None, description="Records that may be superseded by this write (not after a hold)."
    )
    supersedes: list[DeclaredSupersede] | None = Field(
        default=None,
        description="What each declared supersede did, in order (only when the write "
        "declared some): a held write replaces nothing (`reason: held`).",
    )


class ItemError(Answer):
    """An error as the error body carries it (`api/errors.py`), for one item of a batch."""

    code: str
    message: str
    field: str | None = Field(default=None, description="Present when one field is at fault.")


class BatchItemError(Answer):
    error: ItemError


class BatchResponse(Answer):
    extractions: list[FactsResponse | BatchItemError] = Field(
        description="One answer per item, in order: its result or its error."
    )


class ReprocessExtraction(Answer):
    """The new extraction: `turnId` for a turn, `documentId` for a document."""

    turnId: str | None = None
    documentId: str | None = None
    chunkOnly: bool


class ReprocessResponse(Answer):
    """POST /turns/{id}/reprocess (`turnId`) and /documents/{id}/reprocess (`documentId`)."""

    turnId: str | None = None
    documentId: str | None = None
    windowsRetried: int
    windowsFailed: int
    extraction: ReprocessExtraction
