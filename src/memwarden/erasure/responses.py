"""The answers of the erasure routes: `service.request_erasure` and `service.get_erasure`
return them."""

from __future__ import annotations

from typing import Final

from pydantic import Field

from memwarden.answers import Answer, Timestamp

COUNT_KINDS: Final = (
    "records",
    "derived_records",
    "revisions",
    "vectors",
    "links",
    "queue_items",
    "turns",
    "sessions",
    "chunks",
    "documents",
    "files",
    "judgements",
    "retained_inputs",
)


class ErasureStarted(Answer):
    erasureId: str = Field(description="Poll GET /erasures/{erasure_id}.")
    status: str = Field(description="`queued`.")


class ErasureCounts(Answer):
    """How many of each kind an erasure removed (`COUNT_KINDS`, 0 until it ran)."""

    records: int
    derived_records: int
    revisions: int
    vectors: int
    links: int
    queue_items: int
    turns: int
    sessions: int
    chunks: int
    documents: int
    files: int
    judgements: int
    retained_inputs: int


class Erasure(Answer):
    erasureId: str
    targetKind: str = Field(description="records, subject, speaker, scope, session, document.")
    status: str = Field(description="queued, running, done or failed.")
    counts: ErasureCounts = Field(description="What was erased, per kind.")
    error: str | None
    requestedBy: str
    createdAt: Timestamp
    startedAt: Timestamp | None
    finishedAt: Timestamp | None
