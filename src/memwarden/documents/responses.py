"""Response bodies of the document routes, declared for /openapi.json only (`responses=`
on `api/routes/documents.py`; `service.public` builds a document). Extra keys are allowed.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Described(BaseModel):
    """A documented answer: the fields below, and possibly more (additionalProperties)."""

    model_config = ConfigDict(extra="allow")


class DocumentExtraction(Described):
    windows: int | None
    windowsFailed: int
    chunkOnly: bool


class DocumentResponse(Described):
    id: str
    filename: str
    contentType: str | None = None
    sizeBytes: int
    status: str = Field(description="queued, processing, processed or failed.")
    failureCode: str | None = None
    failureReasons: list[Any]
    scope: str | None = None
    visibility: str
    createdAt: str
    chunks: int | None = Field(None, description="Once processed: how many chunks.")
    gist: str | None = Field(None, description="Written by the gist pass, when it ran.")
    extraction: DocumentExtraction | None = None


class DocumentList(Described):
    documents: list[DocumentResponse]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page.")


class DocumentDeleted(Described):
    id: str
    deleted: bool
    recordsRetired: int
