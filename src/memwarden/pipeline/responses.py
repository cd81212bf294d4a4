"""The answers of the write routes: `ingest.write_facts` (/facts), `batch.write_batch`
(/facts/batch) and the two reprocess use cases (`reprocess.response` builds theirs)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from memwarden.answers import Answer


class ExtractionResult(Answer):
    """The turn's merged extraction: what was written, by kind."""

    turnId: str
    chunkOnly: bool = Field(description="No extraction could be used: stored as chunks only.")
    entities: list[Any] | None = None
    attributes: list[Any] | None = None
    relations: list[Any] | None = None
    actions: list[Any] | None = None
    instructions: list[Any] | None = None
    uncertainties: list[Any] | None = None
    corrections: list[Any] | None = None


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
    supersedeCandidates: list[Any] | None = Field(
        default=None, description="Records that may be superseded by this write (not after a hold)."
    )
    supersedes: list[DeclaredSupersede] | None = Field(
        default=None,
        description="What each declared supersede did, in order (only when the write "
        "declared some): a held write replaces nothing (`reason: held`).",
    )


class BatchItemError(Answer):
    error: dict[str, Any] = Field(description="`code`, `message` and `field` when one is.")


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
