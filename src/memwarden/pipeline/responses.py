"""Response bodies of the write routes (/facts, /facts/batch, reprocess), for /openapi.json.

Documentation only (`responses=` on the routes): the use cases return plain dicts
(`ingest.write_facts`, `batch.write_batch`), these models state their fields. Extra keys
are allowed.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Described(BaseModel):
    """A documented answer: the fields below, and possibly more (additionalProperties)."""

    model_config = ConfigDict(extra="allow")


class ExtractionResult(Described):
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


class FactsResponse(Described):
    sessionId: str
    turnId: str
    held: bool = Field(description="The write waits for a judge's approval (a hold).")
    extraction: ExtractionResult
    supersedeCandidates: list[Any] | None = Field(
        None, description="Records that may be superseded by this write (not after a hold)."
    )


class BatchItemError(Described):
    error: dict[str, Any] = Field(description="`code`, `message` and `field` when one is.")


class BatchResponse(Described):
    extractions: list[FactsResponse | BatchItemError] = Field(
        description="One answer per item, in order: its result or its error."
    )


class ReprocessExtraction(Described):
    """The new extraction: `turnId` for a turn, `documentId` for a document."""

    turnId: str | None = None
    documentId: str | None = None
    chunkOnly: bool


class ReprocessResponse(Described):
    """POST /turns/{id}/reprocess (`turnId`) and /documents/{id}/reprocess (`documentId`)."""

    turnId: str | None = None
    documentId: str | None = None
    windowsRetried: int
    windowsFailed: int
    extraction: ReprocessExtraction
