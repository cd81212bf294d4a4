"""The answers of the document routes: `service.upload`, `get`, `list_documents` and
`delete` return them (`service.public` builds a document)."""

from __future__ import annotations

from pydantic import Field

from memwarden.answers import Answer


class DocumentExtraction(Answer):
    windows: int | None
    windowsFailed: int
    chunkOnly: bool


class DocumentResponse(Answer):
    id: str
    filename: str
    contentType: str | None = None
    sizeBytes: int
    status: str = Field(description="queued, processing, processed or failed.")
    failureCode: str | None = None
    failureReasons: list[str] = Field(description="A failed document's judge reason codes.")
    scope: str | None = None
    visibility: str
    createdAt: str
    chunks: int | None = Field(default=None, description="Once processed: how many chunks.")
    gist: str | None = Field(default=None, description="Written by the gist pass, when it ran.")
    extraction: DocumentExtraction | None = None


class DocumentList(Answer):
    documents: list[DocumentResponse]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page.")


class DocumentDeleted(Answer):
    id: str
    deleted: bool
    recordsRetired: int
